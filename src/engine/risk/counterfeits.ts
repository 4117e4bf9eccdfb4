/**
 * Counterfeit tokens: a token that takes the symbol of a token on the chain's bundled list from another address, so a
 * receipt reads as "Receive 10,000 USDC". Fake payments for NFTs, fake swaps and drainers' "rewards" use them to look
 * like a fair trade; only the address tells them apart.
 */
import { type Address, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { type AssetChange, listedToken, listedTokenWithSymbol, shortAddress } from '../assets/index.ts'
import type { TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** A WARNING for each counterfeit ERC-20 that `account` receives among `changes`. */
export function counterfeitWarnings(
  chainId: number,
  changes: AssetChange[],
  account: Address,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const warnings: Warning[] = []
  const seen = new Set<string>()
  for (const change of changes) {
    if (change.type !== 'transfer' || change.asset.standard !== 'ERC20' || change.after <= change.before) continue
    if (!isAddressEqual(change.account, account)) continue
    const token = change.asset.token
    const symbol = metadataOf(token).symbol
    if (!symbol || seen.has(token.toLowerCase()) || listedToken(chainId, token)) continue
    const original = listedTokenWithSymbol(chainId, symbol)
    if (!original) continue
    seen.add(token.toLowerCase())
    warnings.push(
      makeWarning(
        'SUSPECTED_MALICIOUS',
        'WARNING',
        `The ${symbol} you would receive is not ${original.name}: it comes from ${shortAddress(token)}, while ` +
          `${original.symbol} on this chain is ${shortAddress(original.address)}. Counterfeit tokens copy a real ` +
          'token’s symbol to fake a payment or a swap: count this as receiving nothing.',
        { token: token.toLowerCase(), impersonates: original.address.toLowerCase() },
      ),
    )
  }
  return warnings
}
