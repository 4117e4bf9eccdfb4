/**
 * Approvals judged by what the spender is (the known spenders are generated from npm deployment packages), and what
 * each approval lets the spender take right now, against the devnet.
 */
import { type Address, createTestClient, encodeFunctionData, http, maxUint256, parseAbi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import {
  type ScanTransactionsResponse,
  scanTransactions,
  scanTransactionsWithStats,
} from '../../../src/engine/index.ts'
import { knownSpender } from '../../../src/engine/risk/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const erc20 = parseAbi(['function approve(address spender, uint256 value) returns (bool)'])
const erc721 = parseAbi(['function setApprovalForAll(address operator, bool approved)'])

/** Uniswap's SwapRouter02 on mainnet and OpenSea's conduit on every chain, as the generated list names them. */
const SWAP_ROUTER: Address = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45'
const OPENSEA_CONDUIT: Address = '0x1E0049783F008A0085193E00003D00cd54003c71'
/** Curve's router v1.2 on mainnet, as @curvefi/api lists it. */
const CURVE_ROUTER: Address = '0x45312ea0eFf7E09C83CBE249fa1d7598c4C8cd4e'
/**
 * Spenders of protocols people use every day, each on a chain its package lists it for, with the name it is listed
 * under: ParaSwap (@paraswap/dex-lib), Morpho (@morpho-org/morpho-ts), Balancer V3 (@balancer/sdk), 1inch's router v5
 * (@1inch/limit-order-protocol-utils), Compound III (@compound-finance/compound-js), Pendle (@pendle/core-v2), Across
 * (@across-protocol/contracts) and Aerodrome (@dromos-labs/sdk.js).
 */
const EVERYDAY_SPENDERS: [chainId: number, address: Address, name: string][] = [
  [1, '0x6A000F20005980200259B80c5102003040001068', 'ParaSwap Augustus v6 router'],
  [1, '0x216B4B4Ba9F3e719726886d34a177484278Bfcae', 'ParaSwap token transfer proxy (Augustus v5)'],
  [1, '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb', 'Morpho Blue'],
  [1, '0x4A6c312ec70E8747a587EE860a0353cd42Be0aE0', 'Morpho bundler3 general adapter'],
  [1, '0xAE563E3f8219521950555F5962419C8919758Ea2', 'Balancer V3 router'],
  [42161, '0x1111111254EEB25477B68fb85Ed929f73A960582', '1inch aggregation router v5'],
  [1, '0xc3d688B66703497DAA19211EEdff47f25384cdc3', 'Compound III market (mainnet_usdc)'],
  [42161, '0x888888888889758F76e7103c6CbF23ABbF58F946', 'Pendle router'],
  [59144, '0x7E63A5f1a8F0B4d0934B2f2327DAED3F6bb2ee75', 'Across SpokePool'],
  [8453, '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43', 'Aerodrome router'],
]

describe('approvals judged by what the spender is', () => {
  let devnet: Devnet
  const fx = () => devnet.fixtures
  const user = () => fx().accounts[0]?.address as Address
  const approve = (spender: Address, amount = maxUint256) => ({
    from: user(),
    to: fx().erc20.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [spender, amount] }),
  })
  const approveAll = (operator: Address) => ({
    from: user(),
    to: fx().erc721.address,
    data: encodeFunctionData({ abi: erc721, functionName: 'setApprovalForAll', args: [operator, true] }),
  })
  const scan = async (txObjects: object[], chainId?: number): Promise<ScanTransactionsResponse> => {
    const outcome = await scanTransactions(
      { txObjects, userAccount: user(), metadata: { origin: 'https://app.example.org' } },
      { rpcUrl: fx().rpcUrl, ...(chainId ? { chainId } : {}) },
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    validateTransactionsResponse(outcome.response)
    return outcome.response
  }
  const kinds = (response: ScanTransactionsResponse) => response.warnings.map((w) => w.kind)

  beforeAll(async () => {
    devnet = await startTestDevnet()
    // The known spenders live at their mainnet addresses; the devnet has no code there. Code is what tells a
    // contract from a person (APPROVAL_TO_EOA), which these tests are not about, so a stub is placed.
    const anvil = createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) })
    for (const address of [SWAP_ROUTER, OPENSEA_CONDUIT, CURVE_ROUTER, ...EVERYDAY_SPENDERS.map(([, a]) => a)])
      await anvil.setCode({ address, bytecode: '0x5f5ff3' })
  })
  afterAll(() => devnet?.stop())

  it('the generated list knows the routers, conduits and delegates people approve', () => {
    expect(knownSpender(1, SWAP_ROUTER)?.name).toBe('Uniswap swap router')
    expect(knownSpender(31337, OPENSEA_CONDUIT)?.name).toBe('OpenSea conduit')
    expect(knownSpender(1, '0x00000000000111AbE46ff893f3B2fdF1F759a8A8')?.name).toBe('Blur execution delegate')
    expect(knownSpender(1, '0x000000000022D473030F116dDEE9F6B43aC78BA3')?.name).toBe('Permit2')
    // CoW's vault relayer, derived from the settlement the package deploys (its first contract), labelled CoW.
    expect(knownSpender(100, '0xC92E8bdf79f0507f65a392b0ab4667716BFE0110')).toEqual({
      name: 'CoW Protocol vault relayer',
      protocol: 'cow',
    })
    // Uniswap's universal router 2.0, V3 position manager and Balancer's vault: the approvals of everyday swaps.
    expect(knownSpender(1, '0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af')).toEqual({
      name: 'Uniswap universal router',
      protocol: 'uniswap',
    })
    expect(knownSpender(8453, '0x6fF5693b99212Da76ad316178A184AB56D299b43')?.name).toBe('Uniswap universal router')
    expect(knownSpender(1, '0xC36442b4a4522E871399CD717aBDD847Ab11FE88')?.name).toBe('Uniswap V3 position manager')
    expect(knownSpender(42161, '0xBA12222222228d8Ba445958a75a0704d566BF2C8')?.name).toBe('Balancer vault')
    expect(knownSpender(10, '0x111111125421cA6dc452d289314280a0f8842A65')?.name).toBe('1inch aggregation router')
    expect(knownSpender(1, fx().drainer.address)).toBeNull()
  })

  it('the list knows the routers, zaps and queues of Curve, Sushi, PancakeSwap and Lido, each on its own chain', () => {
    expect(knownSpender(1, CURVE_ROUTER)?.name).toBe('Curve router')
    // Curve's 3pool, and the zap that deposits into its compound pool: the approvals of adding liquidity.
    expect(knownSpender(1, '0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7')?.name).toBe('Curve 3pool pool')
    expect(knownSpender(1, '0xeB21209ae4C2c9FF2a86ACA31E123764A3B6Bc06')?.name).toBe('Curve compound pool zap')
    expect(knownSpender(42161, '0x2191718CD32d02B8E60BAdFFeA33E4B5DD9A0A0D')?.name).toBe('Curve router')
    expect(knownSpender(1, '0xd9e1cE17f2641f24aE83637ab66a2cca9C378B9F')?.name).toBe('SushiSwap V2 router')
    expect(knownSpender(137, '0xAC4c6e212A361c968F1725b4d055b47E63F80b75')?.name).toBe(
      'Sushi swap router (RedSnwapper)',
    )
    expect(knownSpender(56, '0x13f4EA83D0bd40E75C8222255bc855a974568Dd4')?.name).toBe('PancakeSwap smart router')
    expect(knownSpender(56, '0x10ED43C718714eb63d5aA57B78B54704E256024E')?.name).toBe('PancakeSwap V2 router')
    expect(knownSpender(56, '0x31c2F6fcFf4F8759b3Bd5Bf0e1084A055615c768')?.name).toBe('PancakeSwap Permit2')
    expect(knownSpender(1, '0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1')).toEqual({
      name: 'Lido withdrawal queue',
      protocol: 'lido',
    })
    // Listed per chain: PancakeSwap's V2 router on BNB Chain is no spender of Ethereum's.
    expect(knownSpender(1, '0x10ED43C718714eb63d5aA57B78B54704E256024E')).toBeNull()
  })

  const rawOf = (response: ScanTransactionsResponse) =>
    response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address]?.[0]?.rawInfo

  it('an unlimited approve to a contract that is no known protocol: WARN; it can take the whole balance now', async () => {
    const { outcome, stats } = await scanTransactionsWithStats(
      { txObjects: [approve(fx().drainer.address)], userAccount: user(), metadata: { origin: 'https://a.example' } },
      { rpcUrl: fx().rpcUrl },
    )
    if (!outcome.ok) throw new Error(outcome.error.message)
    const response = outcome.response
    expect(kinds(response)).toEqual(['UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER'])
    expect(response.action).toBe('WARN')
    expect(rawOf(response)).toMatchObject({
      kind: 'ERC20_APPROVAL',
      data: { canTakeNow: { amount: parseUnits('10000', 6).toString(), dollarValue: null } },
    })
    // Read in the same simulation call: still one round trip.
    expect(stats.roundTrips).toBe(1)
  })

  it('a bounded approve to the same contract: nothing to say, NONE; it can take the approved amount', async () => {
    const response = await scan([approve(fx().drainer.address, parseUnits('100', 6))])
    expect(response.action).toBe('NONE')
    expect(rawOf(response)).toMatchObject({ data: { canTakeNow: { amount: parseUnits('100', 6).toString() } } })
  })

  it('an unlimited approve to a known router: NONE', async () => {
    const response = await scan([approve(SWAP_ROUTER)], 1)
    expect(kinds(response)).toEqual([])
    expect(response.action).toBe('NONE')
  })

  it("an unlimited approve to Curve's router: NONE; the same approve to an unlisted contract still warns", async () => {
    const curve = await scan([approve(CURVE_ROUTER)], 1)
    expect(kinds(curve)).toEqual([])
    expect(curve.action).toBe('NONE')
    const other = await scan([approve(fx().drainer.address)], 1)
    expect(kinds(other)).toEqual(['UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER'])
    expect(other.action).toBe('WARN')
  })

  it('the list knows ParaSwap, Morpho, Balancer V3, 1inch v5, Compound III, Pendle, Across and Aerodrome', () => {
    for (const [chainId, address, name] of EVERYDAY_SPENDERS) expect(knownSpender(chainId, address)?.name).toBe(name)
    // Labelled with their protocol where data/protocols.json lists it.
    expect(knownSpender(42161, '0x1111111254EEB25477B68fb85Ed929f73A960582')?.protocol).toBe('1inch')
    expect(knownSpender(59144, '0x7E63A5f1a8F0B4d0934B2f2327DAED3F6bb2ee75')?.protocol).toBe('across')
    // Per chain: Aerodrome (Base) is no spender of Ethereum's, Compound's Ethereum USDC market none of Base's.
    expect(knownSpender(1, '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43')).toBeNull()
    expect(knownSpender(8453, '0xc3d688B66703497DAA19211EEdff47f25384cdc3')).toBeNull()
  })

  it('an unlimited approve to each of those spenders: NONE on its chain; on a chain it is not listed for: WARN', async () => {
    const verdicts = []
    for (const [chainId, address, name] of EVERYDAY_SPENDERS) {
      const response = await scan([approve(address)], chainId)
      verdicts.push({ name, kinds: kinds(response), action: response.action })
    }
    expect(verdicts).toEqual(EVERYDAY_SPENDERS.map(([, , name]) => ({ name, kinds: [], action: 'NONE' })))
    const elsewhere = await scan([approve('0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43')], 1)
    expect(kinds(elsewhere)).toEqual(['UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER'])
    expect(elsewhere.action).toBe('WARN')
  })

  it('setApprovalForAll to a marketplace conduit: NONE; to anything else: WARN', async () => {
    expect((await scan([approveAll(OPENSEA_CONDUIT)])).action).toBe('NONE')
    const other = await scan([approveAll(fx().drainer.address)])
    expect(kinds(other)).toEqual(['UNLIMITED_ALLOWANCE_TO_NFTS'])
    // All the user's Devnet Apes (tokens 1-3) can be taken at once.
    expect(rawOf(other)).toMatchObject({ kind: 'ERC721_APPROVAL_FOR_ALL', data: { canTakeNow: { amount: '3' } } })
  })

  it('several approvals in one request: BULK_APPROVALS_REQUEST', async () => {
    const response = await scan([approve(fx().drainer.address), approveAll(fx().drainer.address)])
    expect(kinds(response).sort()).toEqual([
      'BULK_APPROVALS_REQUEST',
      'UNLIMITED_ALLOWANCE_TO_NFTS',
      'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER',
    ])
  })
})
