/**
 * A scan's reads before the transactions (balances, allowances, metadata) run in the same simulation as the
 * transactions, so a read that could write state could leave a flag the transactions read: WatchedWrapper's
 * `balanceOf` sets one, and its deposit mints honestly only then. The reads run as static calls, so the flag stays
 * unset: the scan shows what a mined deposit does, and sending it for real moves exactly what the scan showed.
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
  it('deposit 1 ETH: the scan shows the ETH going and nothing minted, as it goes when mined', async () => {
    const wrapper = await deployOnDevnet(fx().rpcUrl, owner(), fixtureArtifact('WatchedWrapper'))
    const tx: TxRequest = { from: user(), to: wrapper, data: DEPOSIT, value: numberToHex(parseEther('1')) }

    const response = await scanOnDevnet(fx().rpcUrl, tx)
    expect(accountDiffs(response, user())).toEqual(['Send 1 ETH'])

    const ownerBefore = await devnetClient(fx().rpcUrl).getBalance({ address: owner() })
    const executed = await expectRealityMatches(fx().rpcUrl, response, tx)
    expect(executed.get(`${wrapper.toLowerCase()}|native`)).toBeUndefined()
    expect((await devnetClient(fx().rpcUrl).getBalance({ address: owner() })) - ownerBefore).toBe(parseEther('1'))
  })
})
