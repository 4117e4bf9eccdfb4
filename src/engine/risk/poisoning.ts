/**
 * Address poisoning (POISONED_ADDRESS): an attacker makes an address whose first and last characters match one the
 * victim sends to, then puts it in the victim's history (a zero-value transfer, a dust payment) so the victim copies
 * it next time. People compare the ends of an address, which is all most wallets show. So: a recipient the user has
 * never sent to that starts and ends like one they have, is flagged; `data` holds both in full, for a client to set
 * side by side (the message's short forms are the same for both, which is the point). The scan itself has
 * no memory; the caller passes the addresses the user has sent to (the extension keeps them, on the device).
 */
import type { Address } from 'viem'
import type { StateChange, Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from './warnings.ts'

/** How many hex digits must match at each end, and in all: what a poisoner's generator buys, and wallets show. */
const MIN_EACH_END = 3
const MIN_BOTH_ENDS = 7
const HEX_DIGITS = 40

const TRANSFER_KINDS: ReadonlySet<StateChange['rawInfo']['kind']> = new Set([
  'NATIVE_ASSET_TRANSFER',
  'ERC20_TRANSFER',
  'ERC721_TRANSFER',
  'ERC1155_TRANSFER',
])

/** The addresses `changes` send assets to (outgoing transfers with a known counterparty), lowercase, once each. */
export function recipientsOf(changes: readonly StateChange[]): Address[] {
  const recipients = new Set<Address>()
  for (const { rawInfo } of changes) {
    if (!TRANSFER_KINDS.has(rawInfo.kind)) continue
    const data = rawInfo.data as { amount: { before: string; after: string }; counterparty?: { address: string } }
    const counterparty = data.counterparty?.address
    if (!counterparty || !sends(data.amount)) continue
    recipients.add(counterparty.toLowerCase() as Address)
  }
  return [...recipients]
}

function sends(amount: { before: string; after: string }): boolean {
  try {
    return BigInt(amount.after) < BigInt(amount.before)
  } catch {
    return false
  }
}

/** A leading run of one digit this long is a vanity prefix (gas-saving zeros), which two unrelated addresses share. */
const VANITY_RUN = 3

/**
 * How many hex digits two lowercase addresses share at their start and at their end. A shared vanity prefix
 * ("0x0000…") does not count: contracts like Seaport and Uniswap's PoolManager have one, and so do many others.
 */
function sharedEnds(a: string, b: string): { start: number; end: number } {
  let start = 0
  while (start < HEX_DIGITS && a[2 + start] === b[2 + start]) start++
  let end = 0
  while (end < HEX_DIGITS - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  let run = 0
  while (run < start && a[2 + run] === a[2]) run++
  return { start: run >= VANITY_RUN ? start - run : start, end }
}

/** A known address that `address` mimics: a different one with the same first and last characters. */
export function lookalikeOf(address: Address, known: Iterable<Address>): Address | undefined {
  const candidate = address.toLowerCase()
  for (const entry of known) {
    const other = entry.toLowerCase()
    if (other === candidate) continue
    const { start, end } = sharedEnds(candidate, other)
    if (start >= MIN_EACH_END && end >= MIN_EACH_END && start + end >= MIN_BOTH_ENDS) return other as Address
  }
  return undefined
}

/**
 * A CRITICAL POISONED_ADDRESS warning for each recipient in `changes` that is not in `known` and mimics an address
 * that is. `known` holds the addresses the user sent to before, and their own.
 */
export function poisonedAddressWarnings(changes: readonly StateChange[], known: ReadonlySet<Address>): Warning[] {
  const warnings: Warning[] = []
  for (const recipient of recipientsOf(changes)) {
    if (known.has(recipient)) continue
    const mimicked = lookalikeOf(recipient, known)
    if (!mimicked) continue
    warnings.push(
      makeWarning(
        'POISONED_ADDRESS',
        'CRITICAL',
        `This sends to ${shortAddress(recipient)}, a new address that starts and ends like ${shortAddress(mimicked)}, which you have sent to before, and is not it. Address poisoning plants such a lookalike in your history for you to copy: compare the whole address before you continue.`,
        { address: recipient, lookalikeOf: mimicked },
      ),
    )
  }
  return warnings
}
