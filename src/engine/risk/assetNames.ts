/**
 * How warnings name the assets they speak of: one by one while there are a handful, counted per collection past that.
 * A drainer can hand out thousands of junk NFTs; a warning that lists each of them buries what it has to say.
 */
import type { Address } from 'viem'
import { formatAmount, shortAddress, type TransferChange } from '../assets/index.ts'
import { type AssetRef, nativeCurrency, type TokenMetadata } from '../simulation/index.ts'

/** Past this many, items are counted per collection rather than named one by one. */
const HANDFUL = 5

/**
 * One item a warning names: its own name, and the collection it is counted in when there are many (null: none), keyed
 * apart from its name, which two collections can share.
 */
export type NamedItem = { name: string; collection: { key: string; name: string } | null }

/** "PASS #1, PASS #2" for a handful; "300 PASS items, 1,000 RWD" past that, and "… and 12 more" past a handful of those. */
export function briefNames(items: NamedItem[]): string {
  if (items.length <= HANDFUL) return items.map((item) => item.name).join(', ')
  const groups = new Map<string, NamedItem[]>()
  for (const item of items) {
    const key = item.collection === null ? `item:${item.name}` : `collection:${item.collection.key}`
    groups.set(key, [...(groups.get(key) ?? []), item])
  }
  const named = [...groups.values()].map((group) => {
    const [first] = group
    if (group.length === 1 || !first?.collection) return group.map((item) => item.name).join(', ')
    return `${group.length.toLocaleString('en-US')} ${first.collection.name} items`
  })
  if (named.length <= HANDFUL) return named.join(', ')
  return `${named.slice(0, HANDFUL).join(', ')} and ${(named.length - HANDFUL).toLocaleString('en-US')} more`
}

/** A transfer's gain as a NamedItem: "1,000,000 RWD" or "PASS #3", counted under "PASS" when there are many. */
export function gainItem(
  chainId: number,
  change: TransferChange,
  metadataOf: (token: Address) => TokenMetadata,
): NamedItem {
  const { asset } = change
  const name = amountName(chainId, change, metadataOf)
  if (asset.standard !== 'ERC721' && asset.standard !== 'ERC1155') return { name, collection: null }
  return { name, collection: { key: asset.token.toLowerCase(), name: tokenName(asset.token, metadataOf) } }
}

/** "1,000,000 APE2", "5 Reward Items #3", "Reward Pass #3": how much of what `change` adds. */
export function amountName(
  chainId: number,
  change: TransferChange,
  metadataOf: (token: Address) => TokenMetadata,
): string {
  const { asset } = change
  const name = assetName(chainId, asset, metadataOf)
  if (asset.standard === 'NATIVE' || asset.standard === 'ERC721') return name
  const decimals = asset.standard === 'ERC20' ? (metadataOf(asset.token).decimals ?? 0) : 0
  return `${formatAmount(change.after - change.before, decimals)} ${name}`
}

/** "ETH", "USDC", "DAPE #1": an asset by its symbol (its name, its address when it has neither). */
export function assetName(chainId: number, asset: AssetRef, metadataOf: (token: Address) => TokenMetadata): string {
  if (asset.standard === 'NATIVE') return nativeCurrency(chainId).symbol
  const name = tokenName(asset.token, metadataOf)
  return asset.standard === 'ERC20' ? name : `${name} #${asset.tokenId}`
}

function tokenName(token: Address, metadataOf: (token: Address) => TokenMetadata): string {
  const metadata = metadataOf(token)
  return metadata.symbol ?? metadata.name ?? shortAddress(token)
}
