/** Protocol labels: the bundled list (per chain, any address case), native transfers, and Safe wallets on the devnet. */
import { type Address, encodeFunctionData, getAddress, isAddress, parseEther, zeroAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { safeAbi } from '../../../src/engine/abi/abis.ts'
import { scanTransactionsWithStats } from '../../../src/engine/index.ts'
import bundled from '../../../src/engine/risk/data/protocols.json'
import {
  contractProtocol,
  knownProtocol,
  nativeTransferProtocol,
  transactionProtocol,
} from '../../../src/engine/risk/protocols.ts'
import type { SafeContext } from '../../../src/engine/safe/context.ts'
import type { SimulationTx, TxOutcome } from '../../../src/engine/simulation/runSimulation.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const UNISWAP_V2_ROUTER = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D'
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const SEAPORT_1_6 = '0x0000000000000068F116a894984e2DB1123eB395'
const OP_STACK_WETH = '0x4200000000000000000000000000000000000006'
const RECIPIENT: Address = '0x1111111111111111111111111111111111111111'

/** Upper-case hex digits: a spelling no checksum produces, so only a case-insensitive lookup finds it. */
const upperCased = (address: string) => `0x${address.slice(2).toUpperCase()}` as Address

describe('the bundled protocol list', () => {
  it('finds mainnet contracts whatever the address case', () => {
    const uniswap = { trustLevel: 'TRUSTED', name: 'Uniswap', imageUrl: null, websiteUrl: 'https://uniswap.org' }
    for (const spelling of [UNISWAP_V2_ROUTER, UNISWAP_V2_ROUTER.toLowerCase(), upperCased(UNISWAP_V2_ROUTER)]) {
      expect(knownProtocol(1, spelling as Address)).toMatchObject(uniswap)
    }
    expect(knownProtocol(1, '0x1111111254EEB25477B68fb85Ed929f73A960582')?.name).toBe('1inch')
    expect(knownProtocol(1, '0xae7ab96520de3a18e5e111b5eaab095312d7fe84')?.name).toBe('Lido')
    expect(knownProtocol(1, '0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2')?.name).toBe('Aave')
    expect(knownProtocol(8453, '0x9008d19f58aabd9ed0d60971565aa8510560ab41')?.name).toBe('CoW Protocol')
    // 1inch's router v6 (and Limit Order Protocol v4), at one address on every chain its package's README lists.
    expect(knownProtocol(1, '0x111111125421cA6dc452d289314280a0f8842A65')?.name).toBe('1inch')
    expect(knownProtocol(8453, '0x111111125421ca6dc452d289314280a0f8842a65')?.name).toBe('1inch')
    // Across's SpokePools, per chain, as its contracts package publishes them: a deposit's counterparty is named.
    expect(knownProtocol(1, '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5')?.name).toBe('Across')
    expect(knownProtocol(8453, '0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64')?.name).toBe('Across')
    expect(knownProtocol(8453, '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5')).toBeNull()
    // OP Mainnet's standard bridge and portal on Ethereum, as @eth-optimism/contracts-ts publishes them.
    expect(knownProtocol(1, '0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1')?.name).toBe('OP Mainnet')
    expect(knownProtocol(1, '0xbEb5Fc579115071764c7423A4f12eDde41f106Ed')?.name).toBe('OP Mainnet')
  })

  it('is chain-specific: a mainnet router is unknown elsewhere, the OP-stack WETH only on OP-stack chains', () => {
    expect(knownProtocol(10, UNISWAP_V2_ROUTER)).toBeNull()
    expect(knownProtocol(31337, UNISWAP_V2_ROUTER)).toBeNull()
    expect(knownProtocol(10, OP_STACK_WETH)).toMatchObject({ name: 'Wrapped Ether', trustLevel: 'NATIVE' })
    expect(knownProtocol(8453, OP_STACK_WETH)).toMatchObject({ name: 'Wrapped Ether', trustLevel: 'NATIVE' })
    expect(knownProtocol(1, OP_STACK_WETH)).toBeNull()
    expect(knownProtocol(1, '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2')?.trustLevel).toBe('NATIVE')
  })

  it('knows Permit2 and Seaport on every chain, the devnet included', () => {
    for (const chainId of [1, 10, 137, 8453, 31337]) {
      expect(knownProtocol(chainId, PERMIT2)?.name).toBe('Permit2')
      expect(knownProtocol(chainId, SEAPORT_1_6.toLowerCase() as Address)?.name).toBe('Seaport')
    }
    expect(knownProtocol(1, RECIPIENT)).toBeNull()
  })

  it('hands out copies: a caller changing one does not change the next answer', () => {
    const first = knownProtocol(1, PERMIT2)
    if (first) first.name = 'changed'
    expect(knownProtocol(1, PERMIT2)?.name).toBe('Permit2')
  })

  it('has only checksummed addresses naming defined protocols of the reference shape, with no remote images', () => {
    const protocols = bundled.protocols as Record<string, Record<string, unknown>>
    for (const entries of Object.values(bundled.contracts as Record<string, Record<string, string>>)) {
      for (const [address, id] of Object.entries(entries)) {
        expect(isAddress(address, { strict: true }) && getAddress(address) === address, address).toBe(true)
        expect(protocols[id], `${address} → ${id}`).toBeDefined()
      }
    }
    for (const id of Object.values(bundled.nativeTransfers as Record<string, string>))
      expect(protocols[id]).toBeDefined()
    for (const protocol of Object.values(protocols)) {
      expect(Object.keys(protocol).sort()).toEqual(['description', 'imageUrl', 'name', 'trustLevel', 'websiteUrl'])
      expect(['KNOWN', 'TRUSTED', 'NATIVE']).toContain(protocol.trustLevel)
      expect(protocol.imageUrl).toBeNull()
      expect(protocol.websiteUrl).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+$/)
    }
  })

  it('names the native currency of a plain transfer per chain, and nothing for a chain it does not know', () => {
    expect(nativeTransferProtocol(1)).toMatchObject({ name: 'Ether', trustLevel: 'NATIVE' })
    expect(nativeTransferProtocol(31337)?.name).toBe('Ether')
    expect(nativeTransferProtocol(56)?.name).toBe('BNB')
    expect(nativeTransferProtocol(424242)).toBeNull()
  })
})

describe('transactionProtocol', () => {
  const safeContext: SafeContext = {
    address: RECIPIENT,
    version: '1.4.1',
    owners: [PERMIT2],
    threshold: 1,
    nonce: 0n,
    singleton: null,
  }
  const tx = (fields: Partial<SimulationTx> = {}): SimulationTx => ({
    from: PERMIT2,
    to: RECIPIENT,
    data: '0x',
    value: 1n,
    gas: null,
    ...fields,
  })
  const outcome = (fields: Partial<TxOutcome> = {}): TxOutcome => ({
    tx: tx(),
    status: 'success',
    returnData: '0x',
    logs: [],
    gasUsed: 21_000n,
    error: null,
    ...fields,
  })
  const noSafes = new Map<string, SafeContext | null>()

  it('a value transfer that ran no code is NATIVE; calldata, code, failure or no value make it something else', () => {
    expect(transactionProtocol(1, noSafes, tx(), outcome())).toMatchObject({ name: 'Ether', trustLevel: 'NATIVE' })
    expect(transactionProtocol(1, noSafes, tx({ data: '0x12345678' }), outcome())).toBeNull()
    expect(transactionProtocol(1, noSafes, tx(), outcome({ gasUsed: 21_055n }))).toBeNull()
    expect(transactionProtocol(1, noSafes, tx(), outcome({ status: 'failed' }))).toBeNull()
    expect(transactionProtocol(1, noSafes, tx({ value: 0n }), outcome())).toBeNull()
    expect(transactionProtocol(1, noSafes, tx({ to: null }), outcome())).toBeNull()
    expect(transactionProtocol(1, noSafes, tx(), undefined)).toBeNull()
  })

  it('a wallet the simulation read as a Safe is Safe (TRUSTED); one that did not answer as a Safe is not', () => {
    const safe = { trustLevel: 'TRUSTED', name: 'Safe', imageUrl: null, websiteUrl: 'https://safe.global' }
    const read = new Map([[RECIPIENT.toLowerCase(), safeContext]])
    expect(transactionProtocol(1, read, tx({ data: '0x12345678' }), outcome({ gasUsed: 80_000n }))).toMatchObject(safe)
    expect(contractProtocol(1, upperCased(RECIPIENT), read)).toMatchObject(safe)
    expect(contractProtocol(1, RECIPIENT, new Map([[RECIPIENT.toLowerCase(), null]]))).toBeNull()
  })

  it('a listed contract is named even when the node refused the simulation (no outcome)', () => {
    expect(transactionProtocol(1, noSafes, tx({ to: UNISWAP_V2_ROUTER, data: '0x12' }), undefined)?.name).toBe(
      'Uniswap',
    )
  })
})

describe('protocols in devnet transaction scans', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  })
  afterAll(async () => {
    await devnet?.stop()
  })
  const fx = () => devnet.fixtures
  const owner = (index: number) => fx().accounts[index]?.address as Address
  const execTransaction = (to: Address, value: bigint) =>
    encodeFunctionData({
      abi: safeAbi,
      functionName: 'execTransaction',
      args: [to, value, '0x', 0, 0n, 0n, 0n, zeroAddress, zeroAddress, '0x'],
    })
  const scan = async (request: object) => {
    const { outcome, stats } = await scanTransactionsWithStats(
      { userAccount: owner(1), metadata: { origin: 'https://app.example.org' }, ...request },
      { rpcUrl: fx().rpcUrl, chainId: fx().chainId },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    return { perTransaction: outcome.response.simulationResults.perTransaction, stats }
  }

  it('a Safe execTransaction under the preset carries protocol Safe, still in 1 round trip of 1 request', async () => {
    const { perTransaction, stats } = await scan({
      txObjects: [{ from: owner(1), to: fx().safe.address, data: execTransaction(RECIPIENT, parseEther('1')) }],
      userAccount: fx().safe.address,
      simulatorConfig: { presets: [{ kind: 'MULTISIG_WALLET', walletAddress: fx().safe.address }] },
    })
    expect(perTransaction[0]?.error).toBeNull()
    expect(perTransaction[0]?.protocol).toEqual({
      trustLevel: 'TRUSTED',
      name: 'Safe',
      description: expect.stringContaining('multisig'),
      imageUrl: null,
      websiteUrl: 'https://safe.global',
    })
    expect(stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })

  it('without the preset the Safe of an execTransaction is still read (its configuration is judged): Safe, 1 round trip', async () => {
    const { perTransaction, stats } = await scan({
      txObjects: [{ from: owner(1), to: fx().safe.address, data: execTransaction(RECIPIENT, parseEther('1')) }],
    })
    expect(perTransaction[0]?.protocol).toMatchObject({ name: 'Safe', trustLevel: 'TRUSTED' })
    expect(stats.roundTrips).toBe(1)
  })

  it('a plain ETH send to an account without code is NATIVE Ether; ETH sent into a contract is not', async () => {
    const toAccount = await scan({ txObjects: [{ from: owner(1), to: RECIPIENT, value: '1000' }] })
    expect(toAccount.perTransaction[0]?.protocol).toMatchObject({ name: 'Ether', trustLevel: 'NATIVE' })
    expect(toAccount.stats).toMatchObject({ roundTrips: 1, requests: 1 })
    // The Safe's receive function runs code (it emits SafeReceived): not a plain transfer.
    const toContract = await scan({ txObjects: [{ from: owner(1), to: fx().safe.address, value: '1000' }] })
    expect(toContract.perTransaction[0]?.error).toBeNull()
    expect(toContract.perTransaction[0]?.protocol).toBeNull()
  })
})
