/**
 * Deposits through the OP Stack's canonical bridge (OP Mainnet, Base and the other OP chains). The user's funds go to
 * the standard bridge or the portal, contracts the transaction names, and are paid out on the other chain to an
 * address the call chose: `depositETHTo(_to, …)`, `depositERC20To(…, _to, …)`, `bridgeETHTo`, or a portal deposit
 * transaction that sends its value to `_to`. A bridge page that sets that address to its own takes the funds with an
 * honest protocol's help. Read from the events the bridge and the portal emit, whatever route the call took.
 */
import {
  type AbiEvent,
  type Address,
  type DecodeEventLogReturnType,
  decodeEventLog,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  size,
  slice,
  toEventSelector,
} from 'viem'
import { opStackBridgeAbi } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { formatAmount, shortAddress } from '../assets/index.ts'
import { type Movement, nativeCurrency, type SimulatedLog, type TokenMetadata } from '../simulation/index.ts'
import { knownProtocol } from './protocols.ts'
import { makeWarning } from './warnings.ts'

/** One payout on the other chain: `token` null for the native currency. */
export type OpStackDeposit = {
  /** The standard bridge or the portal that takes it. */
  contract: Address
  via: 'bridge' | 'portal'
  from: Address
  to: Address
  token: Address | null
  amount: bigint
}

type DepositEvent = DecodeEventLogReturnType<typeof opStackBridgeAbi>

let topics: Map<Hex, AbiEvent> | undefined
/** The deposit events by topic, hashed on first use (a starting service worker should not spend its time on keccak). */
function depositTopics(): Map<Hex, AbiEvent> {
  topics ??= new Map(
    opStackBridgeAbi.flatMap((item) => (item.type === 'event' ? [[toEventSelector(item), item] as const] : [])),
  )
  return topics
}

/** What L1 senders that are contracts become on L2 (AddressAliasHelper): their address plus this offset. */
const ALIAS_OFFSET = 0x1111000000000000000000000000000000001111n

/**
 * Every payout the logs report, in log order: the standard bridge's Bridge events (a legacy bridge's Deposit events
 * when the same contract emits no Bridge event, for bridges not yet upgraded to Bedrock) and the portal's deposit
 * transactions that send value. A log of one of these names and another layout is skipped.
 */
export function opStackDeposits(logs: SimulatedLog[]): OpStackDeposit[] {
  const decoded = logs.flatMap((log) => {
    const event = log.topics[0] && depositTopics().get(log.topics[0])
    if (!event) return []
    try {
      const decoded = decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]] })
      // One event of opStackBridgeAbi decodes as that ABI would: the cast only restores its type.
      return [{ contract: getAddress(log.address), event: decoded as DepositEvent }]
    } catch {
      return []
    }
  })
  const bridging = new Set(
    decoded.filter(({ event }) => event.eventName.endsWith('BridgeInitiated')).map(({ contract }) => contract),
  )
  return decoded.flatMap(({ contract, event }): OpStackDeposit[] => {
    switch (event.eventName) {
      case 'ETHDepositInitiated':
      case 'ETHBridgeInitiated': {
        if (event.eventName === 'ETHDepositInitiated' && bridging.has(contract)) return []
        const { from, to, amount } = event.args
        return [{ contract, via: 'bridge', from, to, token: null, amount }]
      }
      case 'ERC20DepositInitiated':
      case 'ERC20BridgeInitiated': {
        if (event.eventName === 'ERC20DepositInitiated' && bridging.has(contract)) return []
        const { from, to, amount } = event.args
        const token = 'l1Token' in event.args ? event.args.l1Token : event.args.localToken
        return [{ contract, via: 'bridge', from, to, token, amount }]
      }
      case 'TransactionDeposited': {
        const { from, to, version, opaqueData } = event.args
        // Version 0: mint (32 bytes), value (32), gas limit (8), is creation (1), data.
        if (version !== 0n || size(opaqueData) < 73) return []
        const value = hexToBigInt(slice(opaqueData, 32, 64))
        return value > 0n ? [{ contract, via: 'portal', from, to, token: null, amount: value }] : []
      }
      default:
        return []
    }
  })
}

/**
 * The bridges and portals that keep what the user's side deposits, for the other chain to pay out: a drain check must
 * not take them for a hidden wallet. None when no deposit is the user's.
 */
export function opStackEscrows(deposits: OpStackDeposit[], isUsers: (address: Address) => boolean): Address[] {
  const users = deposits.some((deposit) =>
    deposit.via === 'portal' ? unaliased(deposit.from).some(isUsers) : isUsers(deposit.from),
  )
  return users ? deposits.map((deposit) => deposit.contract) : []
}

/** The L1 address an L2 sender stands for: a contract's alias undone, or the address itself. */
function unaliased(address: Address): Address[] {
  const original = (BigInt(address) - ALIAS_OFFSET + (1n << 160n)) % (1n << 160n)
  return [address, getAddress(`0x${original.toString(16).padStart(40, '0')}`)]
}

/**
 * TRADE_PROCEEDS_TO_OTHER_ADDRESS (WARNING) for each of the user's deposits that pays out to an address not the
 * user's. The user's: its sender is the user's side (the portal names a contract sender by its alias), or, through the
 * standard bridge, the user's side pays in the request to a contract that deposits with it. Portal deposits the
 * bridge's messenger sends are judged by the bridge's own event.
 */
export function opStackDepositWarnings(
  deposits: OpStackDeposit[],
  movements: Movement[],
  isUsers: (address: Address) => boolean,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const pays = movements.some((move) => isUsers(move.from) && !isAddressEqual(move.from, move.to))
  return deposits.flatMap((deposit) => {
    const sent = deposit.via === 'portal' ? unaliased(deposit.from).some(isUsers) : isUsers(deposit.from) || pays
    if (!sent || isUsers(deposit.to)) return []
    const metadata = deposit.token ? metadataOf(deposit.token) : nativeCurrency(chainId)
    const symbol = metadata.symbol ?? (deposit.token ? shortAddress(deposit.token) : 'ETH')
    const amount = `${formatAmount(deposit.amount, metadata.decimals ?? 0)} ${symbol}`
    const destination = knownProtocol(chainId, deposit.contract)?.name ?? 'the other chain'
    const via = deposit.via === 'portal' ? 'the OP Stack portal' : 'the OP Stack standard bridge'
    const who = shortAddress(deposit.to)
    return [
      makeWarning(
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        `This bridges ${amount} through ${via} ${shortAddress(deposit.contract)} to ${destination}, where it is paid ` +
          `out to ${who}, not to you. Continue only if ${who} is yours.`,
        {
          bridge: 'OP Stack',
          contract: deposit.contract.toLowerCase(),
          recipient: deposit.to.toLowerCase(),
          asset: deposit.token?.toLowerCase() ?? 'native',
          amount: deposit.amount.toString(),
        },
      ),
    ]
  })
}
