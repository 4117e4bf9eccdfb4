/**
 * The contracts NFT drops are minted through (OpenSea's SeaDrop, Zora's, Highlight's and Foundation's minters), per
 * chain, generated from a maintained deployment book on npm by test/tools/knownMinters.ts into data/knownMinters.json.
 * A buyer pays such a contract, which pays the drop's creator at an address only its configuration holds and has the
 * collection mint to the buyer: to the drain rules that reads like a drainer's "claim" paying back a token it mints.
 */
import { type ChainBookLookup, chainBook } from './chainBook.ts'
import generated from './data/knownMinters.json'

/** The name of the known mint contract at an address on a chain, or null. */
export const knownMinter: ChainBookLookup<string> = chainBook(
  () => generated.minters as Record<string, Record<string, string>>,
)
