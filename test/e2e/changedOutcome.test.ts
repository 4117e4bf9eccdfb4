/**
 * Simulation spoofing: a contract pays the user back while the window is open, and its owner switches it to keep
 * everything before the user signs. On Continue the worker scans the transaction again; when the outcome got worse,
 * nothing reaches the wallet and the window shows what changed. Proven on the devnet with a real switched contract,
 * and in Chromium with the built extension: the wallet counts what reaches it, the chain says what the signature did.
 * A contract that never switches but pays back only while it can tell it is simulated is shown before any click: right
 * after the first result the worker scans the transaction again as a block runs it (the second look), and a decision
 * given on the outcome the window no longer shows is not acted on.
 */
import type { Page } from 'playwright-core'
import { type Address, type Hex, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { devnetClient } from '../engine/protocolSupport.ts'
import { deployEvasiveGiveaway, CLAIM as EVASIVE_CLAIM, TELLS } from '../support/evasiveGiveaway.ts'
import { CLAIM, deploySwitchedGiveaway, type SwitchedGiveaway } from '../support/switchedGiveaway.ts'
import { countingWalletPage, forwardedCount } from './support/dapp.ts'
import { callThroughConfirmWindow, clickDecision, pendingOf, shownAction, writeSettings } from './support/extension.ts'
import { startHeldRpc } from './support/heldRpc.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('a transaction whose outcome changes while its window is open', () => {
  let session: E2eSession
  let user: Address
  let giveaway: SwitchedGiveaway
  let client: ReturnType<typeof devnetClient>

  const claim = (value: bigint) =>
    `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${user}', to: '${giveaway.address}', data: '${CLAIM}', value: '0x${value.toString(16)}' }] })`

  const openDapp = (): Promise<Page> =>
    session.open('/counted', countingWalletPage(session.devnet.fixtures.rpcUrl, user))

  beforeAll(async () => {
    session = await startE2eSession()
    const { fixtures } = session.devnet
    user = fixtures.accounts[0]?.address as Address
    client = devnetClient(fixtures.rpcUrl)
    giveaway = await deploySwitchedGiveaway(fixtures.rpcUrl, fixtures.accounts[8]?.address as Address)
  })
  afterAll(async () => {
    await session?.close()
  })

  it('holds a Continue whose outcome turned against the user, shows what changed, and forwards only a new decision', async () => {
    // Through a pass-through that says when the second look has read the chain, so the switch comes after it.
    const rpc = await startHeldRpc(session.devnet.fixtures.rpcUrl)
    await writeSettings(session.context, { rpcUrls: { '31337': rpc.url } })
    onTestFinished(async () => {
      await writeSettings(session.context, { rpcUrls: { '31337': session.devnet.fixtures.rpcUrl } })
      await rpc.close()
    })
    const page = await openDapp()
    const { confirm, result } = await callThroughConfirmWindow(session.context, page, claim(parseEther('0.1')))
    expect(await shownAction(confirm)).toBe('NONE')
    await expect.poll(() => confirm.locator('main').textContent()).toMatch(/You0x\w{4}…\w{4}CopyETH\+0\.1 ETH/)
    await rpc.answered((body) => body.includes('"validation":true'))

    // The owner switches the contract while the user reads the window.
    await giveaway.flip()
    await clickDecision(confirm, 'Continue')

    const changed = confirm.getByTestId('changed-while-shown')
    await changed.waitFor({ timeout: 20_000 })
    expect(await changed.textContent()).toMatch(/nothing was sent to your wallet/)
    const lines = await changed.locator('li').allTextContents()
    expect(lines).toContainEqual(expect.stringMatching(/^Now: Send 0\.1 ETH.*\(it showed: Receive 0\.1 ETH\)$/))
    expect(lines).toContainEqual(expect.stringMatching(/^New warning: .*never names/))
    // The window shows the fresh scan, and the wallet got nothing.
    expect(await shownAction(confirm)).toBe('WARN')
    expect(await forwardedCount(page)).toBe(0)
    expect(confirm.isClosed()).toBe(false)

    // Continuing what is shown now needs the risk acknowledged, and then forwards the same params once.
    await confirm.waitForTimeout(1_000)
    expect(await confirm.getByRole('button', { name: 'Continue' }).isDisabled()).toBe(true)
    const ownerBefore = await client.getBalance({ address: giveaway.owner })
    await clickDecision(confirm, 'Continue', { acknowledge: true })
    const { ok: hash } = await result()
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    await waitForReceipt(client, hash as Hex)
    expect(await forwardedCount(page)).toBe(1)
    // The fresh scan was right: the owner kept the 0.1 ETH.
    expect((await client.getBalance({ address: giveaway.owner })) - ownerBefore).toBe(parseEther('0.1'))
  })

  it('shows before any click that a claim pays back only while simulated, and acts on no decision given before', async () => {
    const { fixtures } = session.devnet
    const owner = fixtures.accounts[9]?.address as Address
    const evasive = await deployEvasiveGiveaway(fixtures.rpcUrl, owner, TELLS.gasPrice)
    const page = await openDapp()
    // The gas a dapp's library sets after estimating (with a margin): what the wallet then signs for.
    const { confirm, result } = await callThroughConfirmWindow(
      session.context,
      page,
      `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${user}', to: '${evasive}', data: '${EVASIVE_CLAIM}', value: '0x${parseEther('0.1').toString(16)}', gas: '0x186a0' }] })`,
    )

    // Nothing changes on chain and nobody clicks: the second look runs the claim as a block would.
    const changed = confirm.getByTestId('changed-while-shown')
    await changed.waitFor({ timeout: 20_000 })
    expect(await changed.textContent()).toMatch(
      /A second look .* found a worse outcome.*nothing was sent to your wallet/,
    )
    expect(await changed.locator('li').allTextContents()).toContainEqual(
      expect.stringMatching(/^New warning: .*-0\.1 ETH for real, where the simulation shows \+0\.1 ETH/),
    )
    expect(await shownAction(confirm)).toBe('BLOCK')
    expect(await forwardedCount(page)).toBe(0)

    // A Continue given on the first look's outcome (a click on its way as the second look landed) is not acted on.
    const { id } = await pendingOf(confirm)
    const stale = await confirm.evaluate(
      (requestId) =>
        chrome.runtime.sendMessage({ type: 'preflight/decision', id: requestId, decision: 'continue', seen: 0 }),
      id,
    )
    expect(stale).toEqual({ ok: false, next: id })
    expect(await forwardedCount(page)).toBe(0)
    expect(await shownAction(confirm)).toBe('BLOCK')

    // Continued knowingly, it goes to the wallet once, and the chain agrees with the probe: the owner keeps 0.1 ETH.
    const ownerBefore = await client.getBalance({ address: owner })
    await clickDecision(confirm, 'Continue', { acknowledge: true })
    const { ok: hash } = await result()
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await waitForReceipt(client, hash as Hex)).status).toBe('success')
    expect(await forwardedCount(page)).toBe(1)
    expect((await client.getBalance({ address: owner })) - ownerBefore).toBe(parseEther('0.1'))
  })

  it('forwards at once when a second scan finds the same outcome', async () => {
    const page = await openDapp()
    const recipient = session.devnet.fixtures.accounts[5]?.address as Address
    const before = await client.getBalance({ address: recipient })
    const { confirm, result } = await callThroughConfirmWindow(
      session.context,
      page,
      `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${user}', to: '${recipient}', value: '0x2386f26fc10000' }] })`,
    )
    expect(await shownAction(confirm)).toBe('NONE')
    await clickDecision(confirm, 'Continue')
    const { ok } = await result()
    await waitForReceipt(client, ok as Hex)
    expect(await forwardedCount(page)).toBe(1)
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseEther('0.01'))
  })

  it('holds a Continue it cannot check again once, and lets the next one go on', async () => {
    const { fixtures } = session.devnet
    const rpc = await startHeldRpc(fixtures.rpcUrl)
    await writeSettings(session.context, { rpcUrls: { '31337': rpc.url } })
    try {
      const page = await openDapp()
      const recipient = fixtures.accounts[5]?.address as Address
      const { confirm, result } = await callThroughConfirmWindow(
        session.context,
        page,
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${user}', to: '${recipient}', value: '0x1' }] })`,
      )
      expect(await shownAction(confirm)).toBe('NONE')
      // The node stops answering: the scan the Continue makes cannot finish.
      rpc.hold()
      await clickDecision(confirm, 'Continue')
      const unchecked = confirm.getByTestId('changed-while-shown')
      await unchecked.waitFor({ timeout: 20_000 })
      expect(await unchecked.textContent()).toMatch(/could not check this transaction again/)
      expect(await unchecked.locator('li').allTextContents()).toEqual(['It did not finish within 5 seconds.'])
      expect(await forwardedCount(page)).toBe(0)

      // Continued again knowing that, it goes on even though the check fails again.
      await clickDecision(confirm, 'Continue', { acknowledge: true })
      const { ok: hash } = await result()
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await forwardedCount(page)).toBe(1)
    } finally {
      rpc.release()
      await writeSettings(session.context, { rpcUrls: { '31337': fixtures.rpcUrl } })
      await rpc.close()
    }
  })
})
