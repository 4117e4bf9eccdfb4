/**
 * Tokens the user buys that cannot be sold back (honeypots), judged from the scan's sell probe
 * (simulation/sellProbe.ts): the user's transfer of what they bought back to the pool it came from reverts, the pool's
 * swap reverts, or the sale returns far less than the pool's own price (a sell tax); a buy tax shows in the buy itself
 * (the pool sends more than the user receives). A WARNING, never a BLOCK: the buyer may know, and the probe cannot
 * replay every condition a token's code may set.
 */
import type { Address } from 'viem'
import type { Warning } from '../api/index.ts'
import { formatAmount, type PriceOf, shortAddress } from '../assets/index.ts'
import type { SellProbe, TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/**
 * A tax above this share, in basis points (10 %), is no ordinary fee: fee-on-transfer memecoins commonly charge 1–5 %
 * each way, and a token that keeps more of every sale is one its buyers lose on whatever its price does.
 */
export const MAX_USUAL_TAX = 1_000n

const BASIS = 10_000n

/** What the probe showed of one token: which step of a sale failed, and the taxes measured, in basis points. */
export type SellVerdict = {
  /** The transfer back to the pool, or the pool's swap, reverted; null when neither did. */
  failure: 'TRANSFER' | 'SWAP' | null
  /** What a sale lost against the pool's own price for the amount sent (fee included on both sides); null unmeasured. */
  sellTax: bigint | null
  /** What the buy lost between what the pool sent and what the user received. */
  buyTax: bigint
}

/** The verdict of one probe: the failing step, the sell tax (a V2 pair's sale only) and the buy tax. */
export function sellVerdict(probe: SellProbe): SellVerdict {
  const buyTax = share(probe.poolSent - probe.amount, probe.poolSent)
  if (probe.transfer === 'reverted') return { failure: 'TRANSFER', sellTax: null, buyTax }
  const swap = probe.swap
  if (swap?.status === 'SWAP_REVERTED') return { failure: 'SWAP', sellTax: null, buyTax }
  const sellTax = swap?.status === 'SOLD' && swap.untaxed > 0n ? share(swap.untaxed - swap.paid, swap.untaxed) : null
  return { failure: null, sellTax, buyTax }
}

/** Whether a verdict is worth a warning: a failed sale, or a tax above MAX_USUAL_TAX either way. */
export function isUnsellable(verdict: SellVerdict): boolean {
  return verdict.failure !== null || (verdict.sellTax ?? 0n) > MAX_USUAL_TAX || verdict.buyTax > MAX_USUAL_TAX
}

/**
 * TOKEN_CANNOT_BE_SOLD for each probed token whose sale fails or is taxed beyond MAX_USUAL_TAX, unless the scan read
 * a price for it (a token deep pools price is traded both ways).
 */
export function unsellableTokenWarnings(
  probes: SellProbe[],
  metadataOf: (token: Address) => TokenMetadata,
  priceOf: PriceOf,
): Warning[] {
  return probes.flatMap((probe) => {
    const verdict = sellVerdict(probe)
    if (!isUnsellable(verdict) || priceOf(probe.token) !== null) return []
    const metadata = metadataOf(probe.token)
    const name = `${metadata.symbol ?? metadata.name ?? 'this token'} (${shortAddress(probe.token)})`
    const amount = (value: bigint) => `${formatAmount(value, metadata.decimals ?? 0)} ${metadata.symbol ?? ''}`.trim()
    const pool = `the pool it came from (${shortAddress(probe.pool)})`
    const said: string[] = []
    if (verdict.failure === 'TRANSFER') {
      said.push(`You may not be able to sell ${name}: selling it back to ${pool} fails in the simulation.`)
    } else if (verdict.failure === 'SWAP') {
      said.push(`You may not be able to sell ${name}: ${pool} takes it back, but its swap fails in the simulation.`)
    } else if (verdict.sellTax !== null && verdict.sellTax > MAX_USUAL_TAX) {
      said.push(
        `You may not be able to sell ${name} for what it is worth: selling it back to ${pool} loses ` +
          `${percent(verdict.sellTax)} to the token's own tax in the simulation.`,
      )
    }
    if (verdict.buyTax > MAX_USUAL_TAX) {
      said.push(
        `${name} keeps ${percent(verdict.buyTax)} of this buy as its own tax: the pool sends ` +
          `${amount(probe.poolSent)} and you receive ${amount(probe.amount)}.`,
      )
    }
    const swap = probe.swap?.status === 'SOLD' ? probe.swap : null
    return [
      makeWarning('TOKEN_CANNOT_BE_SOLD', 'WARNING', said.join(' '), {
        token: probe.token.toLowerCase(),
        pool: probe.pool.toLowerCase(),
        failure: verdict.failure,
        sellTaxPercent: verdict.sellTax === null ? null : Number(verdict.sellTax) / 100,
        buyTaxPercent: Number(verdict.buyTax) / 100,
        sold: probe.amount.toString(),
        untaxed: swap ? swap.untaxed.toString() : null,
        returned: swap ? swap.paid.toString() : null,
      }),
    ]
  })
}

/** `part` of `whole` in basis points, to the nearest; 0 of nothing. */
function share(part: bigint, whole: bigint): bigint {
  return whole > 0n && part > 0n ? (2n * part * BASIS + whole) / (2n * whole) : 0n
}

/** Basis points as a whole percentage, rounded to the nearest: "40%". */
function percent(basisPoints: bigint): string {
  return `${(basisPoints + 50n) / 100n}%`
}
