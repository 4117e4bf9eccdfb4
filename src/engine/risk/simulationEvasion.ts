/**
 * SIMULATION_EVASION (Preflight's own kind): the transactions leave the user's side worse off when run as a block runs
 * them (simulation/environmentProbe.ts) than in the scan's simulation. A contract that reads `tx.gasprice`,
 * `block.basefee`, `gasleft()`, `block.timestamp` or `block.prevrandao` can tell a simulation from a mined transaction,
 * and pay back only in the first. A loss the scan does not show at all is CRITICAL; a smaller gain or a larger loss
 * (past 2 %, a pool moving between blocks) is a WARNING. A contract whose reads write state (stateWritingReadWarnings)
 * is a WARNING of its own.
 */
import type { Address } from 'viem'
import { NATIVE_ASSET_ADDRESS, type Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import {
  type EnvironmentProbe,
  type Movement,
  nativeCurrency,
  netByAccount,
  type TokenMetadata,
  type TxOutcome,
} from '../simulation/index.ts'
import { pastTolerance } from './tolerance.ts'
import { makeWarning } from './warnings.ts'

/** The key an asset is netted under: the token (or the native currency); an NFT collection counts its items. */
const assetKey = ({ asset }: Movement) =>
  asset.standard === 'NATIVE' ? NATIVE_ASSET_ADDRESS : asset.token.toLowerCase()

/**
 * The user's side's net change of each asset (assetKey): an NFT collection's count of items, whichever they are (a mint
 * can pick another id in each run).
 */
function netOfUsersSide(movements: Movement[], isUsers: (address: Address) => boolean): Map<string, bigint> {
  const mine = (accounts: Map<string, bigint>) =>
    [...accounts].reduce((sum, [account, amount]) => (isUsers(account as Address) ? sum + amount : sum), 0n)
  return new Map([...netByAccount(movements, assetKey)].map(([key, accounts]) => [key, mine(accounts)]))
}

/** Whether `real` is worse for the user than `simulated`, past the tolerance (any item of a collection counts). */
function worse(simulated: bigint, real: bigint, collection: boolean): boolean {
  if (real >= simulated) return false
  return collection || pastTolerance(simulated - real, simulated, real)
}

/**
 * The warning for a probe that ran (`probe` null: none ran, nothing to say). A probe whose transaction failed where the
 * scan's succeeded says nothing: reverted, it moves nothing for real either.
 */
export function simulationEvasionWarnings(
  outcomes: TxOutcome[],
  movements: Movement[],
  probe: EnvironmentProbe | null,
  isUsers: (address: Address) => boolean,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  if (!probe) return []
  if (outcomes.some((outcome, index) => outcome.status === 'success' && probe.succeeded[index] === false)) return []
  const simulated = netOfUsersSide(movements, isUsers)
  const real = netOfUsersSide(probe.movements, isUsers)
  const collections = new Set(
    [...movements, ...probe.movements].flatMap((movement) =>
      movement.asset.standard === 'NATIVE' || movement.asset.standard === 'ERC20' ? [] : [assetKey(movement)],
    ),
  )
  const changed = [...new Set([...simulated.keys(), ...real.keys()])].flatMap((key) => {
    const before = simulated.get(key) ?? 0n
    const after = real.get(key) ?? 0n
    const collection = collections.has(key)
    return worse(before, after, collection) ? [{ key, before, after, collection }] : []
  })
  if (changed.length === 0) return []
  const hidden = changed.some(({ before, after }) => after < 0n && before >= 0n)
  const text = (key: string, amount: bigint, collection: boolean) => {
    const metadata = key === NATIVE_ASSET_ADDRESS ? nativeCurrency(chainId) : metadataOf(key as Address)
    const symbol = metadata.symbol ?? key
    const shown = collection ? amount.toString() : formatAmount(amount, metadata.decimals ?? 0)
    return `${amount > 0n ? '+' : ''}${shown} ${symbol}`
  }
  const lines = changed.map(
    ({ key, before, after, collection }) =>
      `${text(key, after, collection)} for real, where the simulation shows ${text(key, before, collection)}`,
  )
  const verdict = hidden
    ? 'A contract that can tell it is being simulated pays back only then. Do not sign this.'
    : 'Check that the difference is expected before you sign.'
  return [
    makeWarning(
      'SIMULATION_EVASION',
      hidden ? 'CRITICAL' : 'WARNING',
      `This transaction does something else when it runs as a block runs it (a real gas price and base fee, a wallet's gas, the next block's time and randomness) than in a simulation: ${lines.join('; ')}. ${verdict}`,
      {
        changes: changed.map(({ key, before, after }) => ({
          asset: key,
          simulated: String(before),
          real: String(after),
        })),
      },
    ),
  ]
}

/**
 * The warning for contracts whose reads write state (SimulationResult.stateWritingReads): a balanceOf or name() that
 * succeeds only when allowed to write. No honest token's does (callers compiled with Solidity 0.5 or later, Uniswap's
 * pools among them, read view functions with static calls, which such a function fails), and writing is how a token
 * leaves its transfer a flag that says "simulated". The scan's reads could not write, so what it shows stands.
 */
export function stateWritingReadWarnings(
  contracts: Address[],
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  if (contracts.length === 0) return []
  const names = contracts.map((contract) => {
    const symbol = metadataOf(contract).symbol
    return symbol ? `${symbol} (${shortAddress(contract)})` : shortAddress(contract)
  })
  return [
    makeWarning(
      'SIMULATION_EVASION',
      'WARNING',
      `${names.join(', ')} ${contracts.length === 1 ? 'writes to its own state' : 'write to their own state'} when only read (a balance, an allowance, its name), which no honest token does: a contract does that to tell a simulation from a real transaction. Preflight's reads could not write, so the changes shown are what it does when mined; treat ${contracts.length === 1 ? 'it' : 'them'} as hostile.`,
      { contracts: contracts.map((contract) => contract.toLowerCase()) },
    ),
  ]
}
