/**
 * One internal model (the engine's 2023-06-05 responses) rendered in the shape of each API version.
 *
 * What really differs between the versions (read from the reference OpenAPI files and seed §9):
 * - 2023-06-05: transaction state changes are keyed by account (`expectedStateChanges` is a map, `aggregated` names the
 *   `userAccount`); native and ERC-20 transfers name a `counterparty`; NFT changes carry an `asset` object.
 * - 2023-03-08 and 2023-05-17: `expectedStateChanges` is the user account's list; every change names the token
 *   `contract`; NFT changes carry `name`, `symbol` and `assetPrice` instead of an `asset` object. 2023-03-08 warnings
 *   have no `data`; 2023-05-17 warnings have `data` as a string or null.
 * - 2022-06-01: one transaction per scan (`simulationResults` = {expectedStateChanges, error, gas}); error kinds
 *   UNKNOWN_ERROR, SIMULATION_FAILED (`parsedErrorMessage`), INVALID_TRANSACTION; ERC-20 and native changes repeat
 *   `name`, `symbol` and `decimals` in `data`; prices are snake_case; NFT metadata carries `previews`; message results
 *   have no `protocol`.
 * - SAFE_CONFIGURATION_CHANGE, Preflight's own state change kind for a Safe's singleton, owners, threshold, modules,
 *   guards and fallback handler, is sent from 2023-06-05 on, as the engine makes it. The older versions' clients
 *   cannot know it, so their responses leave it out; the warnings that judge those changes are sent in every version.
 */

import {
  type AggregatedError,
  type AssetPrice,
  type MessageError,
  NATIVE_ASSET_ADDRESS,
  type PerTransactionError,
  type RawInfo,
  type SafeConfigurationChange,
  type ScanMessageResponse,
  type ScanTransactionsResponse,
  type StateChange,
  type Warning,
} from '../engine/index.ts'
import type { ApiVersion } from './versions.ts'

type Json = Record<string, unknown>

/** Renders a transaction scan response for `version`; `requestId` is the server's id for this request. */
export function renderTransactions(response: ScanTransactionsResponse, version: ApiVersion, requestId: string): Json {
  if (version === '2023-06-05') return { ...response, requestId }
  const { aggregated, perTransaction } = response.simulationResults
  const userChanges = aggregated.expectedStateChanges[aggregated.userAccount.toLowerCase() as `0x${string}`] ?? []
  const legacy = version === '2022-06-01'
  const expectedStateChanges = userChanges
    .filter(isAssetChange)
    .map((change) => renderChange(change, { legacy, message: false }))
  const head = { requestId, action: response.action, warnings: renderWarnings(response.warnings, version) }
  if (legacy) {
    return {
      ...head,
      simulationResults: {
        expectedStateChanges,
        error: firstErrorBefore20230308(
          aggregated.error,
          perTransaction.map((tx) => tx.error),
        ),
        gas: perTransaction[0]?.gas ?? { gasLimit: null },
      },
    }
  }
  return {
    ...head,
    simulationResults: {
      aggregated: { error: aggregatedErrorBefore20230605(aggregated.error), expectedStateChanges },
      perTransaction,
    },
  }
}

/** Renders a message scan response for `version`; `requestId` is the server's id for this request. */
export function renderMessage(response: ScanMessageResponse, version: ApiVersion, requestId: string): Json {
  const legacy = version === '2022-06-01'
  const { error, expectedStateChanges, protocol, ...extensions } = response.simulationResults
  const changes = expectedStateChanges
    .filter((change) => version === '2023-06-05' || isAssetChange(change))
    .map((change) => renderChange(change, { legacy, message: true }))
  return {
    requestId,
    action: response.action,
    warnings: renderWarnings(response.warnings, version),
    simulationResults: {
      ...extensions,
      expectedStateChanges: changes,
      error: messageErrorInReferenceKinds(error),
      ...(legacy ? {} : { protocol }),
    },
  }
}

function renderWarnings(warnings: Warning[], version: ApiVersion): Json[] {
  if (version === '2023-06-05') return warnings
  if (version === '2023-05-17') return warnings.map((w) => ({ ...w, data: warningDataAsString(w.data) }))
  return warnings.map(({ data: _data, ...rest }) => rest)
}

/** 2023-05-17 declares `data` as a string or null; structured data is sent as its JSON text. */
function warningDataAsString(data: Warning['data']): string | null {
  return data === null || typeof data === 'string' ? data : JSON.stringify(data)
}

function aggregatedErrorBefore20230605(error: AggregatedError | null): Json | null {
  if (error?.kind === 'SIMULATION_TIMED_OUT') {
    return { kind: 'SIMULATION_FAILED', humanReadableError: error.humanReadableError, reason: 'SIMULATION_TIMED_OUT' }
  }
  return error
}

/** Seed §7: before 2023-03-08 the only error kinds were UNKNOWN_ERROR, SIMULATION_FAILED and INVALID_TRANSACTION. */
function firstErrorBefore20230308(
  aggregated: AggregatedError | null,
  perTx: (PerTransactionError | null)[],
): Json | null {
  if (aggregated?.kind === 'UNKNOWN_ERROR') return aggregated
  if (aggregated?.kind === 'SIMULATION_FAILED') {
    return {
      kind: 'SIMULATION_FAILED',
      humanReadableError: aggregated.humanReadableError,
      parsedErrorMessage: aggregated.reason,
    }
  }
  if (aggregated?.kind === 'SIMULATION_TIMED_OUT') {
    return { kind: 'UNKNOWN_ERROR', humanReadableError: aggregated.humanReadableError }
  }
  const failed = perTx.find((error) => error !== null)
  if (!failed) return null
  if (failed.kind === 'TRANSACTION_REVERTED') {
    return {
      kind: 'SIMULATION_FAILED',
      humanReadableError: failed.humanReadableError,
      parsedErrorMessage: failed.revertReason,
    }
  }
  return { kind: 'INVALID_TRANSACTION', humanReadableError: failed.humanReadableError }
}

/**
 * Message error kinds outside the reference enumeration (UNSUPPORTED_ORDER_TYPE, UNKNOWN_ERROR, UNSUPPORTED_MESSAGE,
 * in every version) fall back to the closest one clients know; the humanReadableError still says what happened.
 */
function messageErrorInReferenceKinds(error: MessageError | null): Json | null {
  if (error === null) return null
  if (error.kind === 'INVALID_MESSAGE') return { ...error, kind: 'UNSUPPORTED_MESSAGE' }
  if (error.kind === 'SIMULATION_FAILED') return { ...error, kind: 'UNKNOWN_ERROR' }
  return error
}

type ChangeStyle = {
  /** 2022-06-01: names repeated in `data`, snake_case prices, NFT previews. */
  legacy: boolean
  /** Message scans keep their own shape from 2023-03-08 on (the reference never keyed them by account). */
  message: boolean
}

type AssetRawInfo = Exclude<RawInfo, SafeConfigurationChange>

/** A change of an asset (every kind the reference files know), as opposed to Preflight's Safe configuration kind. */
function isAssetChange(change: StateChange): change is StateChange & { rawInfo: AssetRawInfo } {
  return change.rawInfo.kind !== 'SAFE_CONFIGURATION_CHANGE'
}

function renderChange(change: StateChange, style: ChangeStyle): Json {
  // Preflight's own kind has one shape, the engine's, in the versions that carry it.
  if (!isAssetChange(change)) return change
  const data = style.message ? messageData(change.rawInfo, style) : transactionData(change.rawInfo, style)
  return { humanReadableDiff: change.humanReadableDiff, rawInfo: { kind: change.rawInfo.kind, data } }
}

const account = (address: string) => ({ address, kind: 'ACCOUNT' as const })

/** Before 2023-06-05 a transaction scan's change names the token `contract` (the all-e address for native currency). */
function transactionData(info: AssetRawInfo, style: ChangeStyle): Json {
  switch (info.kind) {
    case 'NATIVE_ASSET_TRANSFER':
    case 'ERC20_TRANSFER': {
      const { counterparty: _counterparty, contract: _contract, ...rest } = info.data
      const contract = account(info.kind === 'NATIVE_ASSET_TRANSFER' ? NATIVE_ASSET_ADDRESS : info.data.asset.address)
      return fungibleData({ ...rest, contract }, info.data.asset, style)
    }
    case 'ERC20_APPROVAL':
    case 'ERC20_PERMIT':
      return fungibleData({ ...info.data, contract: account(info.data.asset.address) }, info.data.asset, style)
    case 'ERC721_TRANSFER':
    case 'ERC721_APPROVAL':
    case 'ERC721_APPROVAL_FOR_ALL':
    case 'ERC1155_TRANSFER':
    case 'ERC1155_APPROVAL_FOR_ALL':
      return nftData(info, style, false)
  }
}

/** Message changes already name their `contract`; NFT changes get the collection fields every version declares. */
function messageData(info: AssetRawInfo, style: ChangeStyle): Json {
  switch (info.kind) {
    case 'NATIVE_ASSET_TRANSFER':
    case 'ERC20_TRANSFER':
    case 'ERC20_APPROVAL':
    case 'ERC20_PERMIT': {
      const contract =
        'contract' in info.data && info.data.contract ? info.data.contract : account(info.data.asset.address)
      return fungibleData({ ...info.data, contract }, info.data.asset, style)
    }
    case 'ERC721_TRANSFER':
    case 'ERC721_APPROVAL':
    case 'ERC721_APPROVAL_FOR_ALL':
    case 'ERC1155_TRANSFER':
    case 'ERC1155_APPROVAL_FOR_ALL':
      return nftData(info, style, true)
  }
}

type FungibleAsset = { name: string; symbol: string; decimals: number; price: AssetPrice | null }

/** 2022-06-01 repeats the token's name, symbol and decimals in `data` (removed in 2023-03-08, seed §9). */
function fungibleData(data: Json, asset: FungibleAsset, style: ChangeStyle): Json {
  if (!style.legacy) return data
  return {
    ...data,
    name: asset.name,
    symbol: asset.symbol,
    decimals: asset.decimals,
    asset: { ...asset, price: snakePrice(asset.price) },
  }
}

type NftInfo = Extract<
  RawInfo,
  {
    kind:
      | 'ERC721_TRANSFER'
      | 'ERC721_APPROVAL'
      | 'ERC721_APPROVAL_FOR_ALL'
      | 'ERC1155_TRANSFER'
      | 'ERC1155_APPROVAL_FOR_ALL'
  }
>

/** The pre-2023-06-05 NFT shape: the collection as `contract`, `name`, `symbol`, `assetPrice`. */
function nftData(info: NftInfo, style: ChangeStyle, keepAsset: boolean): Json {
  const { asset, ...data } = info.data
  // 2022-06-01 NFT changes had no counterparty; it arrived with 2023-03-08.
  const { counterparty: _counterparty, ...withoutCounterparty } = data as typeof data & { counterparty?: unknown }
  const rest = style.legacy ? withoutCounterparty : data
  const symbol = 'symbol' in asset ? asset.symbol : undefined
  const metadata = 'metadata' in rest ? nftMetadata(rest.metadata, style) : undefined
  return {
    ...rest,
    ...(metadata ? { metadata } : {}),
    ...(keepAsset ? { asset } : {}),
    contract: account(asset.address),
    name: asset.name,
    ...(symbol === undefined ? {} : { symbol }),
    assetPrice: style.legacy ? snakePrice(asset.price) : asset.price,
  }
}

function nftMetadata(metadata: { rawImageUrl: string }, style: ChangeStyle): Json {
  return style.legacy ? { ...metadata, previews: { small: null, medium: null, large: null } } : metadata
}

/** Seed §9: before 2023-03-08 the price object was snake_case with other names. */
function snakePrice(price: AssetPrice | null): Json | null {
  if (price === null) return null
  return { source: price.source, last_updated_at: price.updatedAt, dollar_value_per_token: price.dollarValuePerToken }
}
