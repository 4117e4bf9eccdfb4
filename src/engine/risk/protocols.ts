/**
 * Which protocol a transaction or message talks to (seed §2.4 `perTransaction[].protocol`): well-known contracts from
 * a bundled list per chain, Safe wallets recognised by the simulation's Safe reads, and plain native-currency transfers.
 * Nothing here reaches the network: a label costs no round trip.
 */
import { type Address, size } from 'viem'
import type { Protocol } from '../api/index.ts'
import type { SafeContext } from '../safe/index.ts'
import type { SimulationTx, TxOutcome } from '../simulation/index.ts'
import bundled from './data/protocols.json'
import { knownSpender } from './spenders.ts'

type KnownProtocol = NonNullable<Protocol>

/** Key of the list's contracts deployed at the same address on every chain (Permit2, Seaport). */
const ALL_CHAINS = 'all'

/** Gas of a call that ran no code: the recipient is an account without code, so the call only moved currency. */
const INTRINSIC_GAS = 21_000n

const protocols = bundled.protocols as Record<string, KnownProtocol>

const contractsByChain = new Map<string, Map<string, KnownProtocol>>(
  Object.entries(bundled.contracts as Record<string, Record<string, string>>).map(([chain, entries]) => [
    chain,
    new Map(
      Object.entries(entries).flatMap(([address, id]) => {
        const protocol = protocols[id]
        return protocol ? [[address.toLowerCase(), protocol] as const] : []
      }),
    ),
  ]),
)

/**
 * The protocol of a contract on the bundled list for that chain (or for all chains), or of a known spender of a listed
 * protocol (every Seaport version, the 0x proxy on each chain…), or null.
 */
export function knownProtocol(chainId: number, address: Address): Protocol {
  const key = address.toLowerCase()
  const spenderProtocol = knownSpender(chainId, address)?.protocol
  const protocol =
    contractsByChain.get(String(chainId))?.get(key) ??
    contractsByChain.get(ALL_CHAINS)?.get(key) ??
    (spenderProtocol ? protocols[spenderProtocol] : undefined) ??
    null
  return protocol && { ...protocol }
}

/**
 * Whether `address` is one of protocol `id`'s contracts on the list for `chainId`, or null when the list names none of
 * them on that chain: there nothing can be said either way.
 */
export function isListedContract(id: string, chainId: number, address: Address): boolean | null {
  const protocol = protocols[id]
  const onChain = contractsByChain.get(String(chainId))
  if (!protocol || !onChain || ![...onChain.values()].includes(protocol)) return null
  return onChain.get(address.toLowerCase()) === protocol
}

/**
 * Whether `address` is the chain's wrapped native currency on the bundled list (WETH, WBNB, WXDAI, WAVAX): worth what
 * the native currency is, whether or not a price for it was read.
 */
export function isWrappedNative(chainId: number, address: Address): boolean {
  return contractsByChain.get(String(chainId))?.get(address.toLowerCase())?.trustLevel === 'NATIVE'
}

/** Whether a contract takes approvals for a living: a generated known spender, or a contract of a listed protocol. */
export function isKnownSpender(chainId: number, address: Address): boolean {
  return knownSpender(chainId, address) !== null || knownProtocol(chainId, address) !== null
}

/** The protocol of a plain transfer of the chain's native currency, or null for a chain the list does not know. */
export function nativeTransferProtocol(chainId: number): Protocol {
  const id = (bundled.nativeTransfers as Record<string, string>)[String(chainId)]
  const protocol = id ? protocols[id] : undefined
  return protocol ? { ...protocol } : null
}

/** The Safe multisig wallet protocol, for an address whose Safe reads answered in the simulation. */
function safeProtocol(): KnownProtocol {
  return { ...(protocols.safe as KnownProtocol) }
}

/**
 * The protocol of a called contract: listed, else Safe when the simulation read it as a Safe (preset wallets and Safe
 * messages; other addresses are not probed, which would cost reads), else null.
 */
export function contractProtocol(
  chainId: number,
  address: Address,
  safes: ReadonlyMap<string, SafeContext | null>,
): Protocol {
  return knownProtocol(chainId, address) ?? (safes.get(address.toLowerCase()) ? safeProtocol() : null)
}

/** The protocol one simulated transaction talks to, for its perTransaction entry. */
export function transactionProtocol(
  chainId: number,
  safes: ReadonlyMap<string, SafeContext | null>,
  tx: SimulationTx,
  outcome: TxOutcome | undefined,
): Protocol {
  if (!tx.to) return null
  const contract = contractProtocol(chainId, tx.to, safes)
  if (contract) return contract
  return outcome && isNativeTransfer(tx, outcome) ? nativeTransferProtocol(chainId) : null
}

/** Value sent without calldata to an account that ran no code (the gas used was only the intrinsic cost). */
function isNativeTransfer(tx: SimulationTx, outcome: TxOutcome): boolean {
  return tx.value > 0n && size(tx.data) === 0 && outcome.status === 'success' && outcome.gasUsed === INTRINSIC_GAS
}
