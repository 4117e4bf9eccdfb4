/**
 * The sell probe: proves by simulation that a token the user buys can be sold back. When a transaction scan shows the
 * user receiving a token that is neither listed nor priced from the pool that held it, while giving something for it
 * (a buy), a second eth_simulateV1 call replays the transactions and, in the block after, has the user send what they
 * got back to that pool and a probe contract (SellProbe.sol, placed by a state override) sell it as a Uniswap V2
 * router would. A honeypot reverts there, or keeps most of the sale as its own tax (risk/unsellableTokens.ts judges).
 */
import {
  type Address,
  bytesToHex,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  numberToHex,
  parseAbi,
  zeroAddress,
} from 'viem'
import { erc20Abi } from '../abi/index.ts'
import { type Movement, netByAccount } from './assetEvents.ts'
import { BLOCK_GAS_BUDGET, inBlocksOf, type TxLayout, transactionBlocks } from './blockLayout.ts'
import { withFreshRandomness } from './nextBlock.ts'
import type { RpcClient } from './rpc.ts'
import { checkSimulateResult, type RpcCallResult } from './simulateResponse.ts'

/**
 * Where the probe lives during one call (its code is injected by a state override): a fresh random address each time,
 * since the user's transfer back runs while the code is there, and a token could look for it at a fixed address.
 */
function probeAddress(): Address {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(20)))
}

/** Runtime code of SellProbe.sol (solc 0.8.28, optimizer 200 runs, evm paris, no metadata). */
export const SELL_PROBE_CODE: Hex =
  ('0x608060405234801561001057600080fd5b506004361061002b5760003560e01c80636ffe492e14610030575b600080fd5b61004361003e36' +
    '60046105e7565b61006b565b6040805160ff9095168552602085019390935291830152606082015260800160405180910390f35b60008060' +
    '0080600061007d8989610173565b805190915061009a57600080600080945094509450945050610168565b6040516001600160a01b038a16' +
    '60248201526000906100e8908a906044015b60408051601f198184030181529190526020810180516001600160e01b03166370a0823160e0' +
    '1b179052610384565b915050816040015181116100fd57600061010c565b604082015161010c908261064a565b9450610121888360400151' +
    '8460600151610431565b935060006101388684604001518560600151610431565b9050806000036101535750600295506000925061016891' +
    '5050565b61015f8b84838b61049a565b90975093505050505b945094509450949050565b6040805160a08101825260008082526020820181' +
    '90529181018290526060810182905260808101919091526040805160048152602481019091526020810180516001600160e01b0316630dfe' +
    '168160e01b17905260009081906101d7908690610384565b6040805160048152602481019091526020810180516001600160e01b031663d2' +
    '1220a760e01b17905291935091506000908190610215908890610384565b9150915083801561022e5750856001600160a01b031683145b15' +
    '15602086015281158061025f575084602001518061025d575083801561025d5750856001600160a01b031681145b155b1561026d57505050' +
    '5061037e565b60408051600481526024810182526020810180516001600160e01b0316630240bc6b60e21b17905290516000918291600160' +
    '0160a01b038b1691620186a0916102b6919061065d565b6000604051808303818686fa925050503d80600081146102f2576040519150601f' +
    '19603f3d011682016040523d82523d6000602084013e6102f7565b606091505b509150915081158061030a575060408151105b1561031a57' +
    '50505050505061037e565b60008082806020019051810190610331919061068c565b915091508860200151610345578082610348565b8181' +
    '5b60608b015260408a015260208901516103615786610363565b845b6001600160a01b031660808a01525050600187525050505050505b92' +
    '915050565b600080600080856001600160a01b0316620186a0866040516103a6919061065d565b6000604051808303818686fa925050503d' +
    '80600081146103e2576040519150601f19603f3d011682016040523d82523d6000602084013e6103e7565b606091505b5091509150811580' +
    '6103fa575060208151105b1561040d5760008093509350505061042a565b60018180602001905181019061042391906106b0565b93509350' +
    '50505b9250929050565b600083158061043e575082155b80610447575081155b1561045457506000610493565b6000610462856103e56106' +
    'c9565b905080610471856103e86106c9565b61047b91906106e0565b61048584836106c9565b61048f91906106f3565b9150505b93925050' +
    '50565b60808301516040516001600160a01b0383166024820152600091829182916104c4916044016100b9565b915050866001600160a01b' +
    '031663022c0d9f87602001516104e557866104e8565b60005b88602001516104f85760006104fa565b875b6040516001600160e01b031960' +
    'e085901b168152600481019290925260248201526001600160a01b0387166044820152608060648201526000608482015260a40160006040' +
    '5180830381600087803b15801561055557600080fd5b505af1925050508015610566575060015b610578576001600092509250506105c256' +
    '5b60808601516040516001600160a01b038616602482015260009161059e916044016100b9565b91505060028282116105b15760006105bb' +
    '565b6105bb838361064a565b9350935050505b94509492505050565b80356001600160a01b03811681146105e257600080fd5b919050565b' +
    '600080600080608085870312156105fd57600080fd5b610606856105cb565b9350610614602086016105cb565b9250604085013591506106' +
    '29606086016105cb565b905092959194509250565b634e487b7160e01b600052601160045260246000fd5b8181038181111561037e576103' +
    '7e610634565b6000825160005b8181101561067e5760208186018101518583015201610664565b506000920191825250919050565b600080' +
    '6040838503121561069f57600080fd5b505080516020909101519092909150565b6000602082840312156106c257600080fd5b5051919050' +
    '565b808202811582820484141761037e5761037e610634565b8082018082111561037e5761037e610634565b60008261071057634e487b71' +
    '60e01b600052601260045260246000fd5b50049056') as Hex

const probeAbi = parseAbi([
  'function sell(address pair, address token, uint256 amount, address to) returns (uint8 status, uint256 received, uint256 untaxed, uint256 paid)',
])

/** Gas for the user's transfer back to the pool: a tax token's hooks (a swap of its fees) fit; a griefer's loop stops. */
const TRANSFER_GAS = 1_000_000n
/** Gas for the probe's sale: the transfer's budget for the pair's payout, plus the probe's own reads. */
const PROBE_GAS = 2_000_000n

/** The most targets one block sells back, within BLOCK_GAS_BUDGET: past it the probe was refused, and lost. */
const TARGETS_PER_BLOCK = Number(BLOCK_GAS_BUDGET / (TRANSFER_GAS + PROBE_GAS))

/** A token the user buys: the pool that sent it (the largest net sender), what it sent and what the user gained. */
export type SellTarget = { token: Address; pool: Address; poolSent: bigint; amount: bigint }

/** How the pair's side of the sale went: not a Uniswap V2 pair of the token, its swap reverted, or it paid. */
export type SwapOutcome =
  | { status: 'NOT_A_PAIR' }
  | { status: 'SWAP_REVERTED'; received: bigint; untaxed: bigint }
  | { status: 'SOLD'; received: bigint; untaxed: bigint; paid: bigint }

/**
 * What selling a target back to its pool did: whether the user's transfer of `amount` to the pool went through, and
 * the pair's sale of what it received (null when the probe itself could not run, e.g. out of gas).
 */
export type SellProbe = SellTarget & { transfer: 'ok' | 'reverted'; swap: SwapOutcome | null }

/** The state overrides and calls of the probe's first block: the user's transactions, on the scan's own state. */
export type ProbeBase = { stateOverrides: Record<string, object>; calls: object[] }

/**
 * The tokens the user buys in `movements` that `worthProbing` accepts: a net gain of an ERC-20 that a pool sent
 * (minted tokens have no pool to sell to), while the user's native currency or another token goes down.
 */
export function sellTargets(
  movements: Movement[],
  userAccount: Address,
  worthProbing: (token: Address) => boolean,
): SellTarget[] {
  const net = netByAccount(movements, ({ asset }) =>
    asset.standard === 'NATIVE' ? 'native' : asset.standard === 'ERC20' ? asset.token.toLowerCase() : null,
  )
  const tokens = new Map<string, Address>()
  for (const { asset } of movements) if (asset.standard === 'ERC20') tokens.set(asset.token.toLowerCase(), asset.token)
  const user = userAccount.toLowerCase()
  const gives = [...net.values()].some((accounts) => (accounts.get(user) ?? 0n) < 0n)
  if (!gives) return []
  return [...tokens].flatMap(([key, token]) => {
    const accounts = net.get(key) as Map<string, bigint>
    const amount = accounts.get(user) ?? 0n
    if (amount <= 0n || !worthProbing(token)) return []
    const senders = [...accounts].filter(([account, flow]) => flow < 0n && account !== zeroAddress && account !== user)
    const [pool, flow] = senders.reduce<[string, bigint] | [null, 0n]>(
      (largest, sender) => (sender[1] < largest[1] ? sender : largest),
      [null, 0n],
    )
    return pool ? [{ token, pool: getAddress(pool), poolSent: -flow, amount }] : []
  })
}

/**
 * Replays `base` (the user's transactions, laid out in blocks as the scan ran them) and
 * then sells each target back to its pool, in one eth_simulateV1 call on block `tag`. Its request is made at once,
 * so a call started beside another travels in the same batch. A node's malformed answer is no result; a node's failure
 * rejects, for the caller to drop.
 */
export async function probeSells(
  client: RpcClient,
  base: ProbeBase,
  targets: SellTarget[],
  userAccount: Address,
  tag: string,
  layout: TxLayout,
): Promise<SellProbe[]> {
  const probe = probeAddress()
  const calls = targets.flatMap((target) => [
    {
      from: userAccount,
      to: target.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [target.pool, target.amount] }),
      gas: numberToHex(TRANSFER_GAS),
    },
    {
      from: userAccount,
      to: probe,
      data: encodeFunctionData({
        abi: probeAbi,
        functionName: 'sell',
        args: [target.pool, target.token, target.amount, userAccount],
      }),
      gas: numberToHex(PROBE_GAS),
    },
  ])
  const sales = inBlocksOf(calls, 2 * TARGETS_PER_BLOCK)
  // The user's transactions laid out as the scan ran them: a buy trapped only in its bundle's block is trapped here.
  const replay = transactionBlocks(base.calls, layout)
  const [firstTx = [], ...moreTxs] = replay
  const blocks = [
    { stateOverrides: base.stateOverrides, calls: firstTx },
    ...moreTxs.map((calls) => ({ calls })),
    // The probe's code arrives after the user's transactions, so none of them can see it and act bought-back-able.
    ...sales.map((block, index) => ({
      ...(index === 0 ? { stateOverrides: { [probe]: { code: SELL_PROBE_CODE } } } : {}),
      calls: block,
    })),
  ]
  const payload = {
    traceTransfers: false,
    validation: false,
    // A randomness of its own for each block, as the scan's: left to the node, the sale has the buy's (the head's on
    // anvil, zero on geth), which for real only a sale in the buy's own block has.
    blockStateCalls: withFreshRandomness(blocks),
  }
  const answer = await client.request('eth_simulateV1', [payload, tag])
  const checked = checkSimulateResult(answer, [
    ...replay.map((block) => block.length),
    ...sales.map((block) => block.length),
  ])
  if (!checked.ok) return []
  const results = checked.blocks.slice(replay.length).flatMap((block) => block.calls)
  return targets.map((target, index) => ({
    ...target,
    transfer: transferWent(results[2 * index] as RpcCallResult) ? 'ok' : 'reverted',
    swap: swapOutcome(results[2 * index + 1] as RpcCallResult),
  }))
}

/** A transfer that succeeded and did not answer false (tokens that return nothing count as true). */
function transferWent(call: RpcCallResult): boolean {
  if (call.status !== '0x1') return false
  return call.returnData === '0x' || BigInt(call.returnData.slice(0, 66)) !== 0n
}

function swapOutcome(call: RpcCallResult): SwapOutcome | null {
  if (call.status !== '0x1') return null
  try {
    const [status, received, untaxed, paid] = decodeFunctionResult({
      abi: probeAbi,
      functionName: 'sell',
      data: call.returnData,
    })
    if (status === 1) return { status: 'SWAP_REVERTED', received, untaxed }
    if (status === 2) return { status: 'SOLD', received, untaxed, paid }
    return { status: 'NOT_A_PAIR' }
  } catch {
    return null
  }
}
