/**
 * A scan's reads before the transactions (balances, allowances, metadata) run in the same simulation as the
 * transactions, so a read that could write state could leave a flag the transactions read: WatchedWrapper's
 * `balanceOf` sets one, and its deposit mints honestly only then. The reads run as static calls, so the flag stays
 * unset: the scan shows what a mined deposit does, and sending it for real moves exactly what the scan showed. The
 * read that tried to write is itself a warning (SIMULATION_EVASION); honest tokens' reads raise none (the other scan
 * tests, DevUSD, WETH9, Uniswap, Aave's aTokens, proxies, assert their warnings exactly).
 */
import { type Address, encodeFunctionData, numberToHex, parseAbi, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
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
