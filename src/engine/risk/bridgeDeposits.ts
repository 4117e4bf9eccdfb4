/**
 * Bridge deposits through Across's SpokePool. The user's funds go to the SpokePool, a contract the transaction names,
 * so nothing else the simulation sees looks amiss; they are paid out on another chain to the deposit's `recipient`,
 * and a deposit nobody fills is refunded to its `depositor`, who can also sign a new recipient (`speedUpDeposit`). A
 * bridge page that sets either to someone else takes the funds with an honest protocol's help. Read from the
 * deposit events, whatever route the call took (the user's own call, a Safe, a periphery contract).
 */
import {
  type Address,
  decodeEventLog,
  getAbiItem,
  getAddress,
  type Hex,
  isAddressEqual,
  pad,
  slice,
  toEventSelector,
} from 'viem'
import { acrossSpokePoolAbi } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { formatAmount, listedToken, shortAddress } from '../assets/index.ts'
import { chainInWords, type Movement, type SimulatedLog, type TokenMetadata } from '../simulation/index.ts'
import { makeWarning } from './warnings.ts'

/** One deposit: accounts as the 32-byte words the SpokePool keeps (an address, or an account of a non-EVM chain). */
export type BridgeDeposit = {
  pool: Address
  inputToken: Hex
  inputAmount: bigint
  /** The token paid out, as its address on the destination chain, and how much of it. */
  outputToken: Hex
  outputAmount: bigint
  destinationChainId: bigint
  depositor: Hex
  recipient: Hex
  message: Hex
}

const depositEvents = () => [
  getAbiItem({ abi: acrossSpokePoolAbi, name: 'FundsDeposited' }),
  getAbiItem({ abi: acrossSpokePoolAbi, name: 'V3FundsDeposited' }),
]
let topics: Map<Hex, ReturnType<typeof depositEvents>[number]> | undefined
/** The deposit events by topic, hashed on first use: a starting service worker should not spend its time on keccak. */
function depositTopics() {
  topics ??= new Map(depositEvents().map((event) => [toEventSelector(event), event]))
  return topics
}

/** Every Across deposit the logs report, in log order; a log of either event's name and another layout is skipped. */
export function bridgeDeposits(logs: SimulatedLog[]): BridgeDeposit[] {
  return logs.flatMap((log) => {
    const event = log.topics[0] && depositTopics().get(log.topics[0])
    if (!event) return []
    try {
      const { args } = decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]] })
      const word = (account: Hex) => (account.length === 66 ? account : pad(account)).toLowerCase() as Hex
      return [
        {
          pool: getAddress(log.address),
          inputToken: word(args.inputToken),
          inputAmount: args.inputAmount,
          outputToken: word(args.outputToken),
          outputAmount: args.outputAmount,
          destinationChainId: args.destinationChainId,
          depositor: word(args.depositor),
          recipient: word(args.recipient),
          message: args.message,
        },
      ]
    } catch {
      return []
    }
  })
}

/** The address a 32-byte account word holds, or null for an account of another kind of chain. */
export function addressIn(word: Hex): Address | null {
  return BigInt(slice(word, 0, 12)) === 0n ? getAddress(slice(word, 12)) : null
}

/** An account word as a person reads it: a short address, or the short word itself. */
export function accountInWords(word: Hex): string {
  const address = addressIn(word)
  return address ? shortAddress(address) : `the account ${word.slice(0, 8)}…${word.slice(-6)} of that chain`
}

/**
 * TRADE_PROCEEDS_TO_OTHER_ADDRESS (WARNING) for each deposit of the user's that pays out to, or is refunded to,
 * someone else. The user's: it names them its depositor, or they pay in the request — to the SpokePool or to a
 * contract that deposits with what it is sent, whose depositor is then itself or whoever it names. A deposit someone
 * else pays for (a Safe the user only executes for) is that payer's to judge.
 */
export function bridgeDepositWarnings(
  deposits: BridgeDeposit[],
  movements: Movement[],
  userAccount: Address,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const user = pad(userAccount).toLowerCase()
  const pays = movements.some((move) => isAddressEqual(move.from, userAccount))
  return deposits.flatMap((deposit) => {
    if (deposit.depositor !== user && !pays) return []
    const token = addressIn(deposit.inputToken)
    const asset = token ? metadataOf(token) : null
    const symbol = asset?.symbol ?? (token ? shortAddress(token) : 'tokens')
    const amount = `${formatAmount(deposit.inputAmount, asset?.decimals ?? 0)} ${symbol}`
    const chain = chainInWords(Number(deposit.destinationChainId))
    const data = {
      bridge: 'Across',
      pool: deposit.pool,
      destinationChainId: deposit.destinationChainId.toString(),
      depositor: deposit.depositor,
      recipient: deposit.recipient,
    }
    const warnings: Warning[] = [...shortfallWarnings(deposit, chainId, metadataOf)]
    if (deposit.recipient !== user) {
      const who = accountInWords(deposit.recipient)
      const instructions =
        deposit.message === '0x'
          ? ''
          : ' With it go instructions that address follows on arrival, which Preflight cannot check pay you.'
      warnings.push(
        makeWarning(
          'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
          'WARNING',
          `This bridges ${amount} through Across and pays it out on ${chain} to ${who}, not to you.${instructions} ` +
            `Continue only if ${who} is yours.`,
          data,
        ),
      )
    }
    if (deposit.depositor !== user) {
      const who = accountInWords(deposit.depositor)
      warnings.push(
        makeWarning(
          'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
          'WARNING',
          `This Across deposit of ${amount} names ${who} as its depositor, not you: if it is not filled the ` +
            `${symbol} is refunded to ${who}, who can also sign a new recipient for it at any time. Continue only if ` +
            `${who} is yours.`,
          data,
        ),
      )
    }
    return warnings
  })
}

/** A deposit's token as its chain knows it: the bundled list for another chain, its own metadata for this one. */
function depositToken(
  word: Hex,
  onChain: number,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): { symbol: string; decimals: number } | null {
  const address = addressIn(word)
  if (!address) return null
  const known = onChain === chainId ? metadataOf(address) : listedToken(onChain, address)
  return known?.symbol && typeof known.decimals === 'number' ? { symbol: known.symbol, decimals: known.decimals } : null
}

/**
 * TRADE_FOR_NOTHING when a deposit pays out less than half of what it takes, in the same token (by symbol, with each
 * chain's decimals: USDC has 18 on BNB Chain): the relayer that fills it is repaid the whole input and keeps the
 * difference. Across's fees are a fraction of that; under a twentieth paid out is CRITICAL. Tokens that differ, or
 * that neither chain's list knows, are not judged.
 */
function shortfallWarnings(
  deposit: BridgeDeposit,
  chainId: number,
  metadataOf: (token: Address) => TokenMetadata,
): Warning[] {
  const input = depositToken(deposit.inputToken, chainId, chainId, metadataOf)
  const output = depositToken(deposit.outputToken, Number(deposit.destinationChainId), chainId, metadataOf)
  if (!input || !output || input.symbol.toUpperCase() !== output.symbol.toUpperCase()) return []
  const taken = deposit.inputAmount * 10n ** BigInt(output.decimals)
  const paid = deposit.outputAmount * 10n ** BigInt(input.decimals)
  if (paid * 2n >= taken) return []
  const chain = chainInWords(Number(deposit.destinationChainId))
  return [
    makeWarning(
      'TRADE_FOR_NOTHING',
      paid * 20n < taken ? 'CRITICAL' : 'WARNING',
      `This Across deposit takes ${formatAmount(deposit.inputAmount, input.decimals)} ${input.symbol} but pays out ` +
        `only ${formatAmount(deposit.outputAmount, output.decimals)} ${output.symbol} on ${chain}: the relayer that ` +
        'fills it is repaid what you put in and keeps the difference.',
      {
        bridge: 'Across',
        pool: deposit.pool,
        inputAmount: deposit.inputAmount.toString(),
        outputAmount: deposit.outputAmount.toString(),
      },
    ),
  ]
}
