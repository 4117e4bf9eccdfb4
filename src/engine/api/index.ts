/**
 * # api — the scan API as the engine speaks it
 *
 * The contract every other folder and every client builds on.
 *
 * - `requests.ts`, `responses.ts`: the request and response shapes of the seed spec (scan API version 2023-06-05).
 * - `engine.ts`: the engine's own types around them: ScanOptions, ScanOutcome, EngineError, InvalidRequest.
 * - `validate.ts`: the field checks of a request (addresses, amounts, bytes, origins), each naming the bad field.
 * - `chainPaths.ts`: chain ids and the `<chain>/v0/<network>` segments of the scan API's paths.
 */

export { CHAIN_PATHS, chainIdOf, scanEndpoint } from './chainPaths.ts'
export * from './engine.ts'
export { askingParty, sandboxedOrigin } from './origins.ts'
export * from './requests.ts'
export * from './responses.ts'
export { invalid, isRecord, type Parsed, parseAddress, parseAmount, parseBytes, parseOrigin } from './validate.ts'
