/**
 * Aave V3's aTokens and variable debt tokens per chain, generated from Aave's address book on npm by
 * test/tools/knownSpenders.ts into data/aaveInterestTokens.json. Their Mint and Burn events carry the interest an
 * account had accrued (`balanceIncrease`), which their balanceOf counted all along; any other contract can log events
 * of that shape to explain away a balance its events say moved and its balanceOf says did not.
 */
import { type ChainBookLookup, chainBook } from './chainBook.ts'
import generated from './data/aaveInterestTokens.json'

/** What the Aave token at an address on a chain is ("AaveV3Ethereum USDC aToken"), or null for any other contract. */
export const aaveInterestToken: ChainBookLookup<string> = chainBook(
  () => generated.tokens as Record<string, Record<string, string>>,
)
