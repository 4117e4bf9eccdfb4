/**
 * A generated list of addresses by chain id ("all": every chain), indexed on the first lookup: in the extension some
 * of these lists are files fetched after the worker starts (build-plugins/bundledData.ts), so nothing may read them
 * sooner.
 */
import type { Address } from 'viem'

/** What the list holds for `address` on the chain, or on every chain; null when it holds nothing. */
export type ChainBookLookup<T> = (chainId: number, address: Address) => T | null

/** A lookup into the list `entries` returns, read and indexed the first time it is asked. */
export function chainBook<T>(entries: () => Record<string, Record<string, T>>): ChainBookLookup<T> {
  let index: Map<string, Map<string, T>> | undefined
  return (chainId, address) => {
    index ??= new Map(
      Object.entries(entries()).map(([chain, byAddress]) => [
        chain,
        new Map(Object.entries(byAddress).map(([entry, value]) => [entry.toLowerCase(), value])),
      ]),
    )
    const key = address.toLowerCase()
    return index.get(String(chainId))?.get(key) ?? index.get('all')?.get(key) ?? null
  }
}
