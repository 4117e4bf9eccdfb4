import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  erc721Abi,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseSignature,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPortInUse } from '../../src/devnet/anvil.ts'
import { artifactsPath, compileFixtures, formatArtifacts } from '../../src/devnet/compile.ts'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { EIP2612_PERMIT_FIELDS } from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { freePort, startTestDevnet } from '../support/devnet.ts'
import { listenOnFreePort } from '../support/net.ts'

const safeAbi = parseAbi([
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function VERSION() view returns (string)',
  'function nonce() view returns (uint256)',
])
const permitAbi = parseAbi([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner) view returns (uint256)',
])
const erc1155Abi = parseAbi(['function balanceOf(address account, uint256 id) view returns (uint256)'])

describe('preflight devnet', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let fixturesDir: string
  let fixturesFile: string
  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })

  beforeAll(async () => {
    fixturesDir = mkdtempSync(join(tmpdir(), 'preflight-fixtures-'))
    fixturesFile = join(fixturesDir, 'f.json')
    devnet = await startTestDevnet({ fixturesFile })
    fixtures = devnet.fixtures
  })
  afterAll(async () => {
    await devnet?.stop()
    rmSync(fixturesDir, { recursive: true, force: true })
  })

  it('writes a fixtures file with the keys DESIGN.md names', () => {
    const written = JSON.parse(readFileSync(fixturesFile, 'utf8')) as Fixtures
    expect(written).toEqual(fixtures)
    expect(written.chainId).toBe(31337)
    expect(written.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(written.accounts).toHaveLength(10)
    expect(written.accounts[0]).toEqual({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    expect(written.safe).toMatchObject({ threshold: 2, version: '1.4.1' })
    expect(written.erc20).toMatchObject({ symbol: 'USDC', decimals: 6 })
    expect(written.erc721.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })

  // How fast it starts is measured by the benchmark and printed at start; here only that it is recorded.
  it('records its startup time in whole milliseconds', () => {
    expect(Number.isInteger(fixtures.startupMs)).toBe(true)
    expect(fixtures.startupMs).toBeGreaterThan(0)
  })

  it('has a 2-of-3 Safe v1.4.1 owned by dev accounts 0, 1 and 2, holding 100 ETH', async () => {
    const c = client()
    const safe = fixtures.safe.address
    const owners = await c.readContract({ address: safe, abi: safeAbi, functionName: 'getOwners' })
    expect(owners).toEqual(fixtures.accounts.slice(0, 3).map((a) => a.address))
    expect(owners).toEqual(fixtures.safe.owners)
    expect(await c.readContract({ address: safe, abi: safeAbi, functionName: 'getThreshold' })).toBe(2n)
    expect(await c.readContract({ address: safe, abi: safeAbi, functionName: 'VERSION' })).toBe('1.4.1')
    expect(await c.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(0n)
    expect(await c.getBalance({ address: safe })).toBe(parseEther('100'))
  })

  it('funds the Safe and account 0 with the 6-decimal stablecoin and WETH', async () => {
    const c = client()
    const owner0 = fixtures.accounts[0]?.address as Address
    const usd = fixtures.erc20.address
    expect(await c.readContract({ address: usd, abi: erc20Abi, functionName: 'decimals' })).toBe(6)
    expect(await c.readContract({ address: usd, abi: erc20Abi, functionName: 'symbol' })).toBe('USDC')
    const balanceOf = (token: Address, account: Address) =>
      c.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
    expect(await balanceOf(usd, fixtures.safe.address)).toBe(1_000_000_000_000n)
    expect(await balanceOf(usd, owner0)).toBe(10_000_000_000n)
    expect(await balanceOf(fixtures.weth.address, owner0)).toBe(parseEther('10'))
    expect(await balanceOf(fixtures.weth.address, fixtures.safe.address)).toBe(parseEther('10'))
    // 20 wrapped by the fixtures, 100 in each Uniswap pool.
    expect(await c.getBalance({ address: fixtures.weth.address })).toBe(parseEther('220'))
  })

  it('mints the NFTs and ERC-1155 items to their owners', async () => {
    const c = client()
    for (const token of fixtures.erc721.tokens) {
      const owner = await c.readContract({
        address: fixtures.erc721.address,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [BigInt(token.tokenId)],
      })
      expect(owner).toBe(token.owner)
    }
    expect(fixtures.erc721.tokens.some((t) => t.owner === fixtures.safe.address)).toBe(true)
    for (const b of fixtures.erc1155.balances) {
      const balance = await c.readContract({
        address: fixtures.erc1155.address,
        abi: erc1155Abi,
        functionName: 'balanceOf',
        args: [b.owner, BigInt(b.id)],
      })
      expect(balance).toBe(BigInt(b.amount))
    }
  })

  it('accepts an EIP-2612 permit signed by account 0', async () => {
    const c = client()
    const signer = privateKeyToAccount(fixtures.accounts[0]?.privateKey as `0x${string}`)
    const spender = fixtures.accounts[5]?.address as Address
    const relayer = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(fixtures.accounts[4]?.privateKey as `0x${string}`),
    })
    const token = fixtures.erc20.address
    const nonce = await c.readContract({
      address: token,
      abi: permitAbi,
      functionName: 'nonces',
      args: [signer.address],
    })
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600)
    const signature = await signer.signTypedData({
      domain: { name: fixtures.erc20.name, version: '1', chainId: fixtures.chainId, verifyingContract: token },
      types: { Permit: EIP2612_PERMIT_FIELDS },
      primaryType: 'Permit',
      message: { owner: signer.address, spender, value: maxUint256, nonce, deadline },
    })
    const { v, r, s } = parseSignature(signature)
    const hash = await relayer.writeContract({
      address: token,
      abi: permitAbi,
      functionName: 'permit',
      args: [signer.address, spender, maxUint256, deadline, Number(v), r, s],
    })
    expect((await waitForReceipt(c, hash)).status).toBe('success')
    const allowance = await c.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [signer.address, spender],
    })
    expect(allowance).toBe(maxUint256)
    expect(
      await c.readContract({ address: token, abi: permitAbi, functionName: 'nonces', args: [signer.address] }),
    ).toBe(nonce + 1n)
  })

  it('deploys a drainer that sends what it is given to the attacker', async () => {
    const c = client()
    const code = await c.getCode({ address: fixtures.drainer.address })
    expect(code?.length).toBeGreaterThan(2)
    expect(fixtures.drainer.attacker).toBe(fixtures.accounts[8]?.address)
  })
})

describe('committed contract artifacts', () => {
  it('match a fresh compile of the fixture sources', () => {
    expect(readFileSync(artifactsPath, 'utf8')).toBe(formatArtifacts(compileFixtures()))
  })
})

/** Resolves with the child's stdout once it contains `marker`; rejects if the child exits or `ms` pass first. */
function outputUntil(child: ChildProcessWithoutNullStreams, marker: string, ms: number): Promise<string> {
  let stdout = ''
  let stderr = ''
  const onStderr = (chunk: Buffer) => {
    stderr += chunk
  }
  child.stderr.on('data', onStderr)
  return new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      stdout += chunk
      if (stdout.includes(marker)) finish(() => resolve(stdout))
    }
    const onExit = (code: number | null) =>
      finish(() =>
        reject(new Error(`exited with ${code} before printing "${marker}"; stdout: ${stdout} stderr: ${stderr}`)),
      )
    const timer = setTimeout(
      () => finish(() => reject(new Error(`no "${marker}" within ${ms} ms; stdout: ${stdout} stderr: ${stderr}`))),
      ms,
    )
    const finish = (settle: () => void) => {
      clearTimeout(timer)
      child.stdout.off('data', onData)
      child.stderr.off('data', onStderr)
      child.off('exit', onExit)
      settle()
    }
    child.stdout.on('data', onData)
    child.once('exit', onExit)
  })
}

describe('preflight devnet command', () => {
  const bin = join(import.meta.dirname, '../../bin/preflight.mjs')

  it('lists the commands in --help', async () => {
    const { stdout } = await promisify(execFile)('node', [bin, '--help'])
    for (const command of ['devnet', 'serve', 'scan', 'demo']) expect(stdout).toContain(`preflight ${command}`)
  })

  it('writes the fixtures file, keeps running, and stops anvil on SIGTERM', async () => {
    // anvil has to be told its port, so this one is picked free just before.
    const port = await freePort()
    const dir = mkdtempSync(join(tmpdir(), 'preflight-cli-'))
    const file = join(dir, 'f.json')
    const child = spawn('node', [bin, 'devnet', '--port', String(port), '--fixtures', file], { stdio: 'pipe' })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      const out = await outputUntil(child, 'Ctrl+C', 30_000)
      expect(out).toMatch(/devnet ready in \d+ ms/)
      const fixtures = JSON.parse(readFileSync(file, 'utf8')) as Fixtures
      expect(fixtures.rpcUrl).toBe(`http://127.0.0.1:${port}`)
      const c = createPublicClient({ transport: http(fixtures.rpcUrl) })
      expect(await c.getChainId()).toBe(31337)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      await expect(c.getChainId()).rejects.toThrow()
    } finally {
      // SIGTERM (not SIGKILL) so that the command still stops its anvil when the test failed half-way.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('stops its anvil and exits 0 on a SIGTERM that comes while it is still deploying the fixtures', async () => {
    const port = await freePort()
    const child = spawn('node', [bin, 'devnet', '--port', String(port)], { stdio: 'pipe' })
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    )
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    try {
      // anvil listens some hundreds of milliseconds before the fixtures are deployed and the ready line printed.
      await expect.poll(() => isPortInUse(port), { timeout: 30_000, interval: 10 }).toBe(true)
      expect(stdout).not.toContain('devnet ready')
      child.kill('SIGTERM')
      expect(await exited).toEqual([0, null])
      expect(await isPortInUse(port)).toBe(false)
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    }
  })

  it('forks a running chain with --fork-url: its state, the fixtures again, the protocols at the same addresses', async () => {
    const origin = await startTestDevnet()
    const port = await freePort()
    const dir = mkdtempSync(join(tmpdir(), 'preflight-fork-'))
    const file = join(dir, 'f.json')
    const args = [bin, 'devnet', '--port', String(port), '--fixtures', file, '--fork-url', origin.fixtures.rpcUrl]
    const child = spawn('node', args, { stdio: 'pipe' })
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    try {
      const out = await outputUntil(child, 'Ctrl+C', 60_000)
      expect(out).toContain(`forked from http://127.0.0.1:${origin.fixtures.rpcUrl.split(':').at(-1)}/…`)
      const forked = JSON.parse(readFileSync(file, 'utf8')) as Fixtures
      const c = createPublicClient({ transport: http(forked.rpcUrl) })
      expect(await c.getChainId()).toBe(31337)
      // The origin's state is there: its Safe, which the fork's fixtures did not create.
      expect(forked.safe.address).not.toBe(origin.fixtures.safe.address)
      expect(await c.getCode({ address: origin.fixtures.safe.address })).toMatch(/^0x[0-9a-f]{10,}/)
      // The protocols were found, not deployed again, and the fork's own holders were funded.
      expect(forked.uniswapV3).toEqual(origin.fixtures.uniswapV3)
      expect(forked.uniswapV2).toEqual(origin.fixtures.uniswapV2)
      expect(forked.erc20.address).toBe(origin.fixtures.erc20.address)
      const usdc = (account: Address) =>
        c.readContract({ address: forked.erc20.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
      expect(await usdc(forked.safe.address)).toBe(1_000_000_000_000n)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      await origin.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a fork block number that is not a number, and one without --fork-url', async () => {
    const run = (args: string[]) => promisify(execFile)('node', [bin, 'devnet', ...args]).catch((e) => e)
    const bad = await run(['--fork-url', 'http://127.0.0.1:1', '--fork-block-number', 'latest'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--fork-block-number must be a block number (a whole number), got "latest"')
    const alone = await run(['--fork-block-number', '5'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain('--fork-block-number needs --fork-url')
    const notUrl = await run(['--fork-url', 'mainnet'])
    expect(notUrl.code).toBe(2)
    expect(notUrl.stderr).toContain("--fork-url must be a node's URL")
  })

  it('fails with a clear message when the port is in use', async () => {
    const server = createServer()
    const port = await listenOnFreePort(server)
    try {
      const result = await promisify(execFile)('node', [bin, 'devnet', '--port', String(port)]).catch((e) => e)
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`)
    } finally {
      server.close()
    }
  })
})
