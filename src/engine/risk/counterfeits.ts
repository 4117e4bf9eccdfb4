/**
 * Counterfeit tokens: a token that takes the symbol of a token on the chain's bundled list from another address, so a
 * receipt reads as "Receive 10,000 USDC". Fake payments for NFTs, fake swaps and drainers' "rewards" use them to look
 * like a fair trade; only the address tells them apart. Symbols compare by how they look (textSkeleton), so "USDС" in
 * Cyrillic or "USDC" with a zero-width space is a copy too; and a received token whose name or symbol hides, reverses
 * or imitates text (TokenMetadata.disguise) is suspect even when it copies no listed symbol.
 */
import { type Address, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { type AssetChange, listedToken, listedTokenWithSymbol, shortAddress } from '../assets/index.ts'
import type { TokenDisguise, TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** What a disguised token's name or symbol was written with, in words. */
const DISGUISES: Record<TokenDisguise, string> = {
  hidden: 'invisible characters, or ones that reverse the text around them (removed here)',
  lookalike: 'letters of another alphabet, or wide or styled forms, that pass for plain Latin ones',
  figures: 'characters that imitate amounts and checks, such as spaces, "$", "≈" or "✔" (removed here)',
}

/**
 * A WARNING for each counterfeit ERC-20 that `account` receives among `changes`, and for each token it receives whose
 * name or symbol is disguised (TokenMetadata.disguise): honest tokens have no use for such characters.
 */
export function counterfeitWarnings(
  chainId: number,
  changes: AssetChange[],
  account: Address,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const warnings: Warning[] = []
  const seen = new Set<string>()
  for (const change of changes) {
    if (change.type !== 'transfer' || change.asset.standard === 'NATIVE' || change.after <= change.before) continue
    const token = change.asset.token
    if (!isAddressEqual(change.account, account) || seen.has(token.toLowerCase())) continue
    const warning = receiptWarning(chainId, change.asset.standard, token, metadataOf(token))
    if (!warning) continue
    seen.add(token.toLowerCase())
    warnings.push(warning)
  }
  return warnings
}

/** The warning a received token calls for: a copy of a listed symbol, or a disguised name or symbol; null for none. */
function receiptWarning(
  chainId: number,
  standard: 'ERC20' | 'ERC721' | 'ERC1155',
  token: Address,
  metadata: TokenMetadata,
): Warning | null {
  const original =
    standard === 'ERC20' && metadata.symbol && !listedToken(chainId, token)
      ? listedTokenWithSymbol(chainId, metadata.symbol)
      : null
  const written = metadata.disguise ? `its symbol or name with ${DISGUISES[metadata.disguise]}` : null
  if (original) {
    return makeWarning(
      'SUSPECTED_MALICIOUS',
      'WARNING',
      `The ${metadata.symbol} you would receive is not ${original.name}: it comes from ${shortAddress(token)}, while ` +
        `${original.symbol} on this chain is ${shortAddress(original.address)}. Counterfeit tokens copy a real ` +
        `token’s symbol to fake a payment or a swap: count this as receiving nothing.` +
        (written ? ` This one writes ${written}.` : ''),
      { token: token.toLowerCase(), impersonates: original.address.toLowerCase() },
    )
  }
  if (!written) return null
  const label = (standard === 'ERC20' ? metadata.symbol : metadata.name) ?? 'token'
  return makeWarning(
    'SUSPECTED_MALICIOUS',
    'WARNING',
    `The ${label} you would receive, from ${shortAddress(token)}, writes ${written}. Honest tokens have no use for ` +
      'them; tokens that pass for others do: do not count on this one being what its name says.',
    { token: token.toLowerCase() },
  )
}
