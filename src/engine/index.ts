/**
 * # The scan engine
 *
 * Simulates transactions and messages with one eth_simulateV1 call and answers in the scan API's shapes (the seed
 * spec). Platform-neutral: no DOM, no node:*, no chrome.*; it runs in the extension's scanner page (a worker thread), in Node and in tests.
 *
 * This file is the engine's only door: the server, the extension, the commands and the tests outside test/engine
 * import nothing deeper. Inside, each folder is named for its work and opens with an index.ts saying what it does;
 * a folder reaches another only through that index.ts, and no two folders import each other, directly or in a ring
 * (test/engine/layout.test.ts checks all three). From the foundation up:
 *
 * - `api/`         the scan API's request and response shapes, the engine's outcome types, request field checks
 * - `abi/`         the known ABIs; calldata, logs and revert reasons decoded
 * - `safe/`        the MULTISIG_WALLET preset, execTransaction and MultiSend calls, a Safe's context
 * - `simulation/`  the one eth_simulateV1 call: its read plan, reads, RPC client, asset events, token metadata
 * - `assets/`      asset and state changes, worded in plain English
 * - `risk/`        warnings and the action they decide; phishing sites, known malicious addresses, protocols
 * - `messages/`    typed data, permits, Seaport and Blur orders, Safe transaction messages, raw messages
 * - `scan/`        the two entry points, request parsing, per-transaction results
 */
export type {
  AccountKind,
  Action,
  Address,
  AddressInfo,
  AggregatedError,
  Amount,
  AssetPrice,
  CanTakeNow,
  DecodedCalldata,
  DecodedLog,
  EngineError,
  Erc20ApprovalChange,
  Erc20Asset,
  Erc20PermitChange,
  Erc20TransferChange,
  Erc721ApprovalChange,
  Erc721ApprovalForAllChange,
  Erc721Asset,
  Erc721TransferChange,
  Erc1155ApprovalForAllChange,
  Erc1155Asset,
  Erc1155TransferChange,
  Hex,
  InvalidRequest,
  Log,
  MessageError,
  MessageKind,
  MultisigContext,
  NativeAsset,
  NativeAssetTransferChange,
  NftMetadata,
  NodeFailureKind,
  PerTransactionError,
  PerTransactionResult,
  PresetKind,
  Protocol,
  RawInfo,
  RequestMetadata,
  RpcChannel,
  SafeConfigurationChange,
  SafeConfigurationField,
  SafeMessageContext,
  ScanMessage,
  ScanMessageRequest,
  ScanMessageResponse,
  ScanOptions,
  ScanOutcome,
  ScanTransactionsRequest,
  ScanTransactionsResponse,
  SerializedValue,
  Severity,
  SimulatorConfig,
  StateChange,
  TokenList,
  TxObject,
  TypedDataField,
  TypedDataPayload,
  Warning,
  WarningKind,
} from './api/index.ts'
export {
  askingParty,
  CHAIN_PATHS,
  chainIdOf,
  isRecord,
  NATIVE_ASSET_ADDRESS,
  sandboxedOrigin,
  scanEndpoint,
} from './api/index.ts'
export { isManagerChange, isUnlimited } from './assets/index.ts'
export { boundOf, rawMessageHex, type SafeTx } from './messages/index.ts'
export {
  actionFor,
  addMaliciousAddresses,
  checkDomain,
  type DomainVerdict,
  embeddingPageWarnings,
  handsOverControl,
  nonceWarnings,
  originWarnings,
  pastTolerance,
  poisonedAddressWarnings,
  recipientsOf,
  signsByHash,
  sortWarnings,
} from './risk/index.ts'
export {
  MAX_STATE_OVERRIDES,
  MAX_TX_OBJECTS,
  newRequestId,
  scanMessage,
  scanMessageWithStats,
  scanTransactions,
  scanTransactionsWithStats,
} from './scan/index.ts'
export {
  type AccountNonces,
  createRpcChannel,
  NO_TRAFFIC,
  type RpcChannelOptions,
  type RpcStats,
  readAccountNonces,
} from './simulation/index.ts'
