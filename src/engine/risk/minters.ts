/**
 * The contracts NFT drops are minted through (OpenSea's SeaDrop, Zora's, Highlight's and Foundation's minters), per
 * chain, generated from a maintained deployment book on npm by test/tools/knownMinters.ts into data/knownMinters.json.
 * A buyer pays such a contract, which pays the drop's creator at an address only its configuration holds and has the
 * collection mint to the buyer: to the drain rules that reads like a drainer's "claim" paying back a token it mints.
 */
import type { Address } from 'viem'
import generated from './data/knownMinters.json'

/** The list by chain, built on first use: in the extension the data is a file fetched after the worker starts. */
let mintersByChain: Map<string, Map<string, string>> | undefined

function byChain(): Map<string, Map<string, string>> {
  mintersByChain ??= new Map(
    Object.entries(generated.minters as Record<string, Record<string, string>>).map(([chain, entries]) => [
      chain,
      new Map(Object.entries(entries).map(([address, name]) => [address.toLowerCase(), name])),
    ]),
  )
  return mintersByChain
}

/** The name of the known mint contract at `address` on the chain, or null. */
export function knownMinter(chainId: number, address: Address): string | null {
  return byChain().get(String(chainId))?.get(address.toLowerCase()) ?? null
}
