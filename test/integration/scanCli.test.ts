import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { type Address, encodeFunctionData, erc20Abi, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import type { ScanMessageResponse, ScanTransactionsResponse } from '../../src/engine/index.ts'
import { startTestDevnet } from '../support/devnet.ts'

const bin = join(import.meta.dirname, '../../bin/preflight.mjs')

/** Runs `preflight scan …` with `stdin` piped in; resolves with the exit code and both streams. */
function preflightScan(
  args: string[],
  stdin: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [bin, 'scan', ...args], { stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(stdin)
  })
}

describe('preflight scan', () => {
  let devnet: Devnet
  let user: Address
  beforeAll(async () => {
    devnet = await startTestDevnet()
    user = devnet.fixtures.accounts[0]?.address as Address
  })
  afterAll(() => devnet?.stop())

  it('scans transactions from stdin and prints the response', async () => {
    const { fixtures } = devnet
    const request = {
      txObjects: [
        {
          from: user,
          to: fixtures.erc20.address,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [fixtures.accounts[3]?.address as Address, 1_000_000_000n],
          }),
        },
      ],
      userAccount: user,
      metadata: { origin: 'https://app.example' },
    }
    const { code, stdout } = await preflightScan(['transactions', '--rpc', fixtures.rpcUrl], JSON.stringify(request))
    expect(code).toBe(0)
    const response = JSON.parse(stdout) as ScanTransactionsResponse
    expect(response.action).toBe('NONE')
    const mine = response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address]
    expect(mine?.map((c) => c.humanReadableDiff)).toEqual(['Send 1,000 USDC'])
  })

  it('scans a message from stdin', async () => {
    const request = {
      message: { kind: 'PERSONAL_SIGN', rawMessage: '0x48656c6c6f' },
      userAccount: user,
      metadata: { origin: 'https://app.example' },
    }
    const { code, stdout } = await preflightScan(['message', '--rpc', devnet.fixtures.rpcUrl], JSON.stringify(request))
    expect(code).toBe(0)
    const response = JSON.parse(stdout) as ScanMessageResponse
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.decodedMessage?.fields[0]?.value).toBe('Hello')
  })

  it('names the wrong field and exits 2 on a bad request', async () => {
    const request = { txObjects: [{ from: user, to: 'nope', value: parseEther('1').toString() }], userAccount: user }
    const { code, stdout, stderr } = await preflightScan(
      ['transactions', '--rpc', devnet.fixtures.rpcUrl],
      JSON.stringify(request),
    )
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain('txObjects[0].to')
  })

  it('rejects input that is not JSON, and a missing --rpc', async () => {
    const notJson = await preflightScan(['transactions', '--rpc', devnet.fixtures.rpcUrl], '{"txObjects": [')
    expect(notJson.code).toBe(2)
    expect(notJson.stderr).toContain('not valid JSON')
    const noRpc = await preflightScan(['message'], '{}')
    expect(noRpc.code).toBe(2)
    expect(noRpc.stderr).toContain('--rpc URL is required')
  })

  it('checks --chain against the node before scanning', async () => {
    const request = JSON.stringify({
      message: { kind: 'PERSONAL_SIGN', rawMessage: '0x48656c6c6f' },
      userAccount: user,
      metadata: { origin: 'https://app.example' },
    })
    const rpc = devnet.fixtures.rpcUrl
    const devnetChain = await preflightScan(['message', '--rpc', rpc, '--chain', 'ethereum/devnet'], request)
    expect(devnetChain.code).toBe(0)
    const wrongChain = await preflightScan(['message', '--rpc', rpc, '--chain', 'ethereum/mainnet'], request)
    expect(wrongChain.code).toBe(1)
    expect(wrongChain.stderr).toContain('serves chain 31337, but ethereum/mainnet is chain 1')
    const unknown = await preflightScan(['message', '--rpc', rpc, '--chain', 'nowhere/land'], request)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('--chain "nowhere/land" is not a known CHAIN/NETWORK')
  })

  it('exits 1 with the reason when the node cannot be reached', async () => {
    const request = {
      txObjects: [{ from: user, to: user, value: '1' }],
      userAccount: user,
      metadata: { origin: 'https://app.example' },
    }
    const { code, stderr } = await preflightScan(
      ['transactions', '--rpc', 'http://127.0.0.1:9'],
      JSON.stringify(request),
    )
    expect(code).toBe(1)
    expect(stderr).toMatch(/127\.0\.0\.1:9/)
  })
})
