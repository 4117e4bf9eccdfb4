/**
 * Contracts that take approvals for a living (marketplace exchanges, conduits and transfer delegates, swap routers,
 * Permit2, lending markets, bridge pools), per chain. The list is generated from maintained deployment packages on npm
 * by test/tools/knownSpenders.ts into data/knownSpenders.json; nothing here is typed in by hand. An approval to one of
 * them is what using the protocol takes; an unlimited one to any other contract deserves a warning.
 */
import { type ChainBookLookup, chainBook } from './chainBook.ts'
import generated from './data/knownSpenders.json'

/**
 * A known spender: the name it goes by, its protocol id in data/protocols.json where one is listed, and whether it is a
 * ledger: it keeps what it is paid on account for whoever the call names (a lending market's supply `onBehalf`).
 */
export type KnownSpender = { name: string; protocol?: string; ledger?: boolean }

/** The known spender at an address on a chain (or on every chain), or null. */
export const knownSpender: ChainBookLookup<KnownSpender> = chainBook(
  () => generated.spenders as Record<string, Record<string, KnownSpender>>,
)
