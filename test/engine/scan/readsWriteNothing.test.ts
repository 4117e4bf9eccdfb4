/**
 * A scan's reads before the transactions (balances, allowances, metadata) run in the same simulation as the
 * transactions, so a read that could write state could leave a flag the transactions read: WatchedWrapper's
 * `balanceOf` sets one, and its deposit mints honestly only then. The reads run as static calls, so the flag stays
 * unset: the scan shows what a mined deposit does, and sending it for real moves exactly what the scan showed. The
 * read that tried to write is itself a warning (SIMULATION_EVASION); honest tokens' reads raise none (the other scan
 * tests, DevUSD, WETH9, Uniswap, Aave's aTokens, proxies, assert their warnings exactly). A message scan's reads (a
 * permit's, an order's) are judged the same way.
 */
import { type Address, encodeFunctionData, numberToHex, parseAbi, parseEther, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { cowOrderTypedData, eip2612Permit } from '../../../src/devnet/eip712.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import type { ScanMessageResponse } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { orderScanner } from '../messageSupport.ts'
import { devnetClient, expectRealityMatches } from '../protocolSupport.ts'
import { accountDiffs, deployOnDevnet, scanOnDevnet } from '../transactionSupport.ts'

const fx = devnetRolledBackPerTest()
const user = () => fx().accounts[0]?.address as Address
const owner = () => fx().accounts[7]?.address as Address
const DEPOSIT = encodeFunctionData({ abi: parseAbi(['function deposit() payable']), functionName: 'deposit' })

describe('a token whose balanceOf writes a flag the deposit reads', () => {
  it('deposit 1 ETH: the scan shows the ETH going and nothing minted, as it goes when mined; WARN', async () => {
    const wrapper = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('WatchedWrapper'))
    const tx: TxRequest = { from: user(), to: wrapper, data: DEPOSIT, value: numberToHex(parseEther('1')) }

    const response = await scanOnDevnet(fx().rpcUrl, tx)
    expect(accountDiffs(response, user())).toEqual(['Send 1 ETH'])
    expect(response.action).toBe('WARN')
    // The ETH leaves for the owner with nothing back, which the drain check now sees; and the read that tried to write.
    expect(response.warnings.map((warning) => warning.kind)).toEqual(['SUSPECTED_MALICIOUS', 'SIMULATION_EVASION'])
    const evasion = response.warnings.find((warning) => warning.kind === 'SIMULATION_EVASION')
    expect(evasion).toMatchObject({ severity: 'WARNING', data: { contracts: [wrapper.toLowerCase()] } })
    expect(evasion?.message).toMatch(/^WGIFT \(0x[0-9a-f]{4}…[0-9a-f]{4}\) writes to its own state when only read/)

    const ownerBefore = await devnetClient(fx().rpcUrl).getBalance({ address: owner() })
    const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
    expect(executed.get(`${wrapper.toLowerCase()}|native`)).toBeUndefined()
    expect((await devnetClient(fx().rpcUrl).getBalance({ address: owner() })) - ownerBefore).toBe(parseEther('1'))
  })
})

describe('a message whose reads hit that token', () => {
  const scanMessage = (payload: unknown) => orderScanner(user, 'https://app.example', () => fx().rpcUrl)(payload)
  const evasionOf = (response: ScanMessageResponse) =>
    response.warnings.find((warning) => warning.kind === 'SIMULATION_EVASION')

  it('a permit of 5 WGIFT to a contract: the read that tried to write is SIMULATION_EVASION, WARN (NONE before)', async () => {
    const wrapper = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('WatchedWrapper'))
    const permit = eip2612Permit({
      name: 'Wrapped Gift',
      chainId: fx().chainId,
      token: wrapper,
      owner: user(),
      spender: fx().weth.address,
      value: parseEther('5'),
      nonce: 0n,
      deadline: 1_900_000_000,
    })
    const response = await scanMessage(permit)
    expect(response.warnings.map((warning) => [warning.kind, warning.severity])).toEqual([
      ['SIMULATION_EVASION', 'WARNING'],
    ])
    expect(evasionOf(response)?.data).toEqual({ contracts: [wrapper.toLowerCase()] })
    expect(evasionOf(response)?.message).toMatch(/^WGIFT \(0x[0-9a-f]{4}…[0-9a-f]{4}\) writes to its own state/)
    expect(response.action).toBe('WARN')
  })

  it('a CoW order selling 1 WGIFT for 1,000 USDC: the same warning, from the order scan’s reads', async () => {
    const wrapper = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('WatchedWrapper'))
    const order = cowOrderTypedData(fx().chainId, {
      sellToken: wrapper,
      buyToken: fx().erc20.address,
      receiver: zeroAddress,
      sellAmount: parseEther('1').toString(),
      buyAmount: '1000000000',
      validTo: 1_900_000_000,
      appData: `0x${'00'.repeat(32)}`,
      feeAmount: '0',
      kind: 'sell',
      partiallyFillable: false,
      sellTokenBalance: 'erc20',
      buyTokenBalance: 'erc20',
    })
    const response = await scanMessage(order)
    expect(evasionOf(response)).toMatchObject({ severity: 'WARNING', data: { contracts: [wrapper.toLowerCase()] } })
    expect(response.action).toBe('WARN')
  })
})
