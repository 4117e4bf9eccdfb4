/**
 * The reader the simulation places for native balances and code sizes: its committed runtime code is its source
 * compiled, and an account with an EIP-7702 delegation reads as the person it still is (code size 0), so an approval
 * to one is an approval to a person. It also makes every read of another contract as a static call (readOnly): the
 * target's own answer, its own revert, or WritesState for a read that only succeeds when it may write.
 */
import { readFileSync } from 'node:fs'
import {
  type Address,
  createPublicClient,
  createTestClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseUnits,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { scanTransactions } from '../../../src/engine/index.ts'
import { READER_ADDRESS, READER_CODE, readOnlyCall, WRITES_STATE } from '../../../src/engine/simulation/reads.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { INJECTED_SETTINGS, runtimeCode } from '../../support/solc.ts'
import { deployOnDevnet } from '../transactionSupport.ts'

const SOURCE = new URL('../../../src/engine/simulation/NativeBalanceReader.sol', import.meta.url)
const reader = parseAbi(['function codeSize(address account) view returns (uint256)'])

describe('NativeBalanceReader', () => {
  it('is NativeBalanceReader.sol compiled (solc 0.8.28, optimizer 200, evm paris, no metadata)', () => {
    const source = readFileSync(SOURCE, 'utf8')
    expect(runtimeCode('NativeBalanceReader.sol', source, 'NativeBalanceReader', INJECTED_SETTINGS)).toBe(READER_CODE)
  }, 60_000)

  describe('on the devnet', () => {
    const fx = devnetRolledBackPerTest()
    /** An account the drainer's code is delegated to (EIP-7702: 0xef0100 ‖ the delegate's address). */
    const delegate = async (account: Address) =>
      createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
        address: account,
        bytecode: `0xef0100${fx().drainer.address.slice(2)}`,
      })

    it('reads a delegated account and a plain one as size 0, a contract as its size', async () => {
      const delegated = fx().accounts[7]?.address as Address
      await delegate(delegated)
      const client = createPublicClient({ transport: http(fx().rpcUrl) })
      const codeSize = async (account: Address) => {
        const { data } = await client.call({
          to: READER_ADDRESS,
          data: encodeFunctionData({ abi: reader, functionName: 'codeSize', args: [account] }),
          stateOverride: [{ address: READER_ADDRESS, code: READER_CODE }],
        })
        return BigInt(data ?? '0x')
      }
      expect(await codeSize(delegated)).toBe(0n)
      expect(await codeSize(fx().accounts[6]?.address as Address)).toBe(0n)
      expect(await codeSize(fx().erc20.address)).toBeGreaterThan(0n)
    })

    it('readOnly answers as the target does, reverts as it does, and with WritesState when a read writes', async () => {
      const user = fx().accounts[0]?.address as Address
      const client = createPublicClient({ transport: http(fx().rpcUrl) })
      /** What eth_call answers for readOnly(target, data): the return data, or the revert data. */
      const readOnly = (target: Address, data: Hex): Promise<{ ok: boolean; data: unknown }> =>
        client
          .request({
            method: 'eth_call',
            params: [
              { to: READER_ADDRESS, data: readOnlyCall(target, data) },
              'latest',
              { [READER_ADDRESS]: { code: READER_CODE } },
            ] as never,
          })
          .then(
            (answer) => ({ ok: true, data: answer }),
            (error: { data?: unknown; cause?: { data?: unknown } }) => ({
              ok: false,
              data: error.cause?.data ?? error.data,
            }),
          )
      const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [user] })
      const direct = await client.call({ to: fx().erc20.address, data: balanceOf })
      expect(await readOnly(fx().erc20.address, balanceOf)).toEqual({ ok: true, data: direct.data })
      expect(BigInt(direct.data as Hex)).toBeGreaterThan(0n)
      // A function the token lacks reverts with nothing, as the token does.
      expect(await readOnly(fx().erc20.address, '0xdeadbeef')).toEqual({ ok: false, data: '0x' })
      const watched = await deployOnDevnet(fx().rpcUrl, user, fixtureArtifact('WatchedWrapper'))
      expect(await readOnly(watched, balanceOf)).toEqual({ ok: false, data: WRITES_STATE })
    })

    it('a limited approval to a delegated account → APPROVAL_TO_EOA, WARN', async () => {
      const delegated = fx().accounts[7]?.address as Address
      await delegate(delegated)
      const user = fx().accounts[0]?.address as Address
      const approve = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [delegated, parseUnits('10000', 6)],
      })
      const outcome = await scanTransactions(
        {
          txObjects: [{ from: user, to: fx().erc20.address, data: approve }],
          userAccount: user,
          metadata: { origin: 'https://claim.example' },
        },
        { rpcUrl: fx().rpcUrl },
      )
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
      expect(outcome.response.action).toBe('WARN')
      expect(outcome.response.warnings.map((warning) => warning.kind)).toEqual(['APPROVAL_TO_EOA'])
    })
  })
})
