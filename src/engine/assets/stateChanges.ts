/** Renders the internal asset changes as seed §2.6 state changes, keyed by lowercase account, with plain-English diffs. */
import type { Address } from 'viem'
import type { AddressInfo, AssetPrice, RawInfo, StateChange } from '../api/index.ts'
import {
  isCometManagerChange,
  type ReadResults,
  readKeys,
  type TokenMetadata,
  tokenMetadata,
} from '../simulation/index.ts'
import { type ApprovalChange, type AssetChange, grantedAmount, type TransferChange } from './assetChanges.ts'
import { erc20Asset, erc721Asset, erc1155Asset, nativeAsset } from './assetObjects.ts'
import { canTakeNow, formatAmount, isUnlimited, shortAddress } from './format.ts'
import { nftMetadata } from './nftMetadata.ts'

/** Looks up token metadata (cached or read in the simulation). */
type MetadataLookup = (token: Address) => TokenMetadata

/** The dollar price of the native currency (null) or a token, as the scan read it; null when unknown. */
export type PriceOf = (token: Address | null) => AssetPrice | null

const NO_PRICES: PriceOf = () => null

/** The state changes of every affected account, keyed by lowercase address (seed §2.4 expectedStateChanges). */
export function renderStateChanges(
  changes: AssetChange[],
  chainId: number,
  reads: ReadResults,
  priceOf: PriceOf = NO_PRICES,
): Record<Address, StateChange[]> {
  const metadataOf: MetadataLookup = (token) => tokenMetadata(chainId, token, reads)
  const byAccount: Record<Address, StateChange[]> = {}
  for (const change of changes) {
    const account = (change.type === 'transfer' ? change.account : change.owner).toLowerCase() as Address
    const rendered =
      change.type === 'transfer'
        ? renderTransfer(change, chainId, metadataOf, reads, priceOf)
        : renderApproval(change, chainId, metadataOf, reads, priceOf)
    byAccount[account] = [...(byAccount[account] ?? []), rendered]
  }
  return byAccount
}

/** An account as the wire shape wants it: lowercase, kind ACCOUNT. */
export function addressInfo(address: Address): AddressInfo {
  return { address: address.toLowerCase() as Address, kind: 'ACCOUNT' }
}

function renderTransfer(
  change: TransferChange,
  chainId: number,
  metadataOf: MetadataLookup,
  reads: ReadResults,
  priceOf: PriceOf,
): StateChange {
  const amount = { before: change.before.toString(), after: change.after.toString() }
  const sending = change.after < change.before
  const verb = sending ? 'Send' : 'Receive'
  const counterparty = change.counterparty ? { counterparty: addressInfo(change.counterparty) } : {}
  // Native and ERC-721 transfers carry the key even when the other side is unknown (a mint, a burn): the reference
  // requires it there and allows null.
  const counterpartyOrNull = { counterparty: change.counterparty ? addressInfo(change.counterparty) : null }
  const { asset } = change
  if (asset.standard === 'NATIVE') {
    const native = nativeAsset(chainId, priceOf(null))
    const diff = formatAmount(change.after - change.before, native.decimals).replace('-', '')
    return {
      humanReadableDiff: `${verb} ${diff} ${native.symbol}`,
      rawInfo: { kind: 'NATIVE_ASSET_TRANSFER', data: { amount, ...counterpartyOrNull, asset: native } },
    }
  }
  const metadata = metadataOf(asset.token)
  if (asset.standard === 'ERC20') {
    const token = erc20Asset(chainId, asset.token, metadata, priceOf(asset.token))
    const diff = formatAmount(change.after - change.before, token.decimals).replace('-', '')
    return {
      humanReadableDiff: `${verb} ${diff} ${token.symbol}`,
      rawInfo: { kind: 'ERC20_TRANSFER', data: { amount, ...counterparty, asset: token } },
    }
  }
  const tokenId = asset.tokenId.toString()
  if (asset.standard === 'ERC721') {
    const collection = erc721Asset(asset.token, metadata)
    return {
      humanReadableDiff: `${verb} ${collection.name} #${tokenId}`,
      rawInfo: {
        kind: 'ERC721_TRANSFER',
        data: {
          amount,
          ...counterpartyOrNull,
          metadata: nftMetadata('ERC721', asset.token, asset.tokenId, reads),
          tokenId,
          asset: collection,
        },
      },
    }
  }
  const items = erc1155Asset(asset.token, metadata)
  const count = formatAmount(change.after - change.before, 0).replace('-', '')
  return {
    humanReadableDiff: `${verb} ${count} ${items.name} #${tokenId}`,
    rawInfo: {
      kind: 'ERC1155_TRANSFER',
      data: {
        amount,
        metadata: nftMetadata('ERC1155', asset.token, asset.tokenId, reads),
        tokenId,
        ...counterparty,
        asset: items,
      },
    },
  }
}

function renderApproval(
  change: ApprovalChange,
  chainId: number,
  metadataOf: MetadataLookup,
  reads: ReadResults,
  priceOf: PriceOf,
): StateChange {
  const amount = { before: change.before.toString(), after: change.after.toString() }
  const owner = addressInfo(change.owner)
  const spender = addressInfo(change.spender)
  const who = shortAddress(change.spender)
  const metadata = metadataOf(change.token)
  const granted = grantedAmount(change)
  const revoked = granted === 0n
  // Held once this request is done (the same as now for a plain approval): what the spender could take at once.
  const held = reads.after.get(readKeys.erc20Balance(change.token, change.owner))
  let rawInfo: RawInfo
  let diff: string
  if (change.standard === 'ERC20') {
    const asset = erc20Asset(chainId, change.token, metadata, priceOf(change.token))
    const canTake = revoked ? null : canTakeNow(change.after, held, asset.decimals, asset.price?.dollarValuePerToken)
    rawInfo = {
      kind: 'ERC20_APPROVAL',
      data: { owner, spender, amount, asset, ...(canTake ? { canTakeNow: canTake } : {}) },
    }
    // An allowance Permit2 keeps is spent through it, not through the token.
    const through = change.via ? ' through Permit2' : ''
    const isComet = isCometManagerChange(reads, change.token, change.owner, change.spender, granted)
    diff = isComet
      ? managerDiff(who, metadata.name ?? asset.symbol, revoked)
      : revoked
        ? `Revoke ${who}'s approval to spend your ${asset.symbol}${through}`
        : isUnlimited(granted)
          ? `Approve ${who} to spend unlimited ${asset.symbol}${through}`
          : `Approve ${who} to spend ${formatAmount(granted, asset.decimals)} ${asset.symbol}${through}`
  } else if (change.standard === 'ERC721') {
    const asset = erc721Asset(change.token, metadata)
    const id = change.tokenId ?? 0n
    const tokenId = id.toString()
    rawInfo = {
      kind: 'ERC721_APPROVAL',
      data: { amount, metadata: nftMetadata('ERC721', change.token, id, reads), owner, spender, tokenId, asset },
    }
    diff = `Approve ${who} to transfer ${asset.name} #${tokenId}`
  } else if (metadata.is1155) {
    const asset = erc1155Asset(change.token, metadata)
    rawInfo = { kind: 'ERC1155_APPROVAL_FOR_ALL', data: { amount, owner, spender, asset } }
    diff = revoked
      ? `Revoke ${who}'s approval to transfer your ${asset.name}`
      : `Approve ${who} to transfer all your ${asset.name}`
  } else {
    const asset = erc721Asset(change.token, metadata)
    const canTake = revoked ? null : canTakeNow(held as bigint, held, 0, asset.price?.dollarValuePerToken)
    rawInfo = {
      kind: 'ERC721_APPROVAL_FOR_ALL',
      data: { amount, owner, spender, asset, ...(canTake ? { canTakeNow: canTake } : {}) },
    }
    diff = revoked
      ? `Revoke ${who}'s approval to transfer your ${asset.name}`
      : `Approve ${who} to transfer all your ${asset.name}`
  }
  return { humanReadableDiff: diff, rawInfo }
}

/** A Compound III market's approval is no allowance of its token: it makes (or removes) a manager of the whole account. */
function managerDiff(who: string, market: string, revoked: boolean): string {
  return revoked
    ? `Remove ${who} as manager of your Compound III account in ${market}`
    : `Make ${who} manager of your whole Compound III account in ${market}`
}

/**
 * Whether an ERC-20 approval's sentence says it makes or removes a Compound III manager, as managerDiff words it: the
 * window then shows that sentence, not an allowance of the market's token.
 */
export function isManagerChange(change: StateChange): boolean {
  return (
    change.rawInfo.kind === 'ERC20_APPROVAL' &&
    / manager of your (whole )?Compound III account in /.test(change.humanReadableDiff)
  )
}
