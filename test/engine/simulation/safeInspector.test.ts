/**
 * The SafeInspector the simulation places to read a Safe's configuration: its committed runtime code is its source
 * compiled, and it reads the devnet's Safe as the Safe's own getters and storage say.
 */
import { readFileSync } from 'node:fs'
import { type Address, createPublicClient, getAddress, type Hex, http, parseAbi, zeroAddress } from 'viem'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { notASafeAnswer, SAFE_INSPECTOR_CODE, safeConfigRead } from '../../../src/engine/simulation/safeConfigRead.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { INJECTED_SETTINGS, runtimeCode } from '../../support/solc.ts'

const SOURCE = new URL('../../../src/engine/simulation/SafeInspector.sol', import.meta.url)

describe('SafeInspector', () => {
  it('is SafeInspector.sol compiled (solc 0.8.28, optimizer 200, evm paris, no metadata)', () => {
    const source = readFileSync(SOURCE, 'utf8')
    expect(runtimeCode('SafeInspector.sol', source, 'SafeInspector', INJECTED_SETTINGS)).toBe(SAFE_INSPECTOR_CODE)
  }, 60_000)

  it('reads the devnet Safe as its getters do, and an account without code as nothing', async () => {
    const devnet = await startTestDevnet()
    try {
      const { safe, safeContracts, rpcUrl } = devnet.fixtures
      const client = createPublicClient({ chain: foundry, transport: http(rpcUrl) })
      const answerOf = async (address: Address) => {
        const read = safeConfigRead(address)
        const { data } = await client.call({
          to: read.to,
          data: read.data,
          stateOverride: [{ address: read.to, code: SAFE_INSPECTOR_CODE }],
        })
        return { read, answer: data ?? '0x' }
      }
      const inspect = async (address: Address) => {
        const { read, answer } = await answerOf(address)
        return read.decode(answer)
      }
      const owners = await client.readContract({
        address: safe.address,
        abi: parseAbi(['function getOwners() view returns (address[])']),
        functionName: 'getOwners',
      })
      expect(await inspect(safe.address)).toEqual({
        singleton: safeContracts.singleton,
        owners,
        threshold: 2n,
        nonce: 0n,
        version: '1.4.1',
        modules: [],
        moreModules: false,
        guard: zeroAddress,
        moduleGuard: zeroAddress,
        fallbackHandler: getAddress(safeContracts.fallbackHandler),
      })
      const person = devnet.fixtures.accounts[5]?.address as Address
      expect(await inspect(person)).toEqual({
        singleton: zeroAddress,
        owners: [],
        threshold: 0n,
        nonce: 0n,
        version: null,
        modules: [],
        moreModules: false,
        guard: null,
        moduleGuard: null,
        fallbackHandler: null,
      })
      // The answer for an account without code skips the ABI decoder; the decoder reads the same bytes the same way.
      const { read, answer } = await answerOf(person)
      expect(answer).toBe(notASafeAnswer())
      const sameBytesInCapitals = `0x${answer.slice(2).toUpperCase()}` as Hex
      expect(sameBytesInCapitals).not.toBe(answer)
      expect(read.decode(sameBytesInCapitals)).toEqual(read.decode(answer))
    } finally {
      await devnet.stop()
    }
  })
})
