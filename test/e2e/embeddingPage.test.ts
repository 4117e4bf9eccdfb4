/**
 * A request sent from a frame is judged by the page around it too: a phishing page can have a frame on a clean, fresh
 * domain ask for the signature, and the frame's origin alone says nothing. The phishing page here is the test dapp's
 * server under a hostname on the bundled blocklist, which the browser resolves to this machine (no lookup leaves it).
 */
import type { Frame } from 'playwright-core'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countingWalletPage, walletFrame } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  nextConfirmWindow,
  pendingOf,
  REJECTED,
  shownAction,
  startCall,
  writeSettings,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

/** On eth-phishing-detect's blocklist (moonbirds.tv and its subdomains), as the bundled list has it. */
const PHISHING_HOST = 'claim.moonbirds.tv'

describe('the page around a framed request', () => {
  let session: E2eSession
  let account: string
  let attacker: string

  const send = () =>
    `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${attacker}', value: '0x${parseEther('0.01').toString(16)}' }] })`
  const forwarded = (frame: Frame) => frame.evaluate(() => (window as unknown as { forwarded: number }).forwarded)

  /**
   * Sends the transfer from `frame` with checking paused for `paused`: 'window' when a confirmation window opened for
   * it (then rejected there), 'settled' when it went to the wallet with none.
   */
  const sendWhilePaused = async (frame: Frame, paused: string[]) => {
    const rpcUrls = { '31337': session.devnet.fixtures.rpcUrl }
    await writeSettings(session.context, { rpcUrls, pausedOrigins: paused })
    try {
      const opened = nextConfirmWindow(session.context)
      // A request that goes through with no window leaves this wait to time out unheard.
      opened.catch(() => undefined)
      const result = await startCall(frame, send())
      const first = await Promise.race([opened.then(() => 'window' as const), result().then(() => 'settled' as const)])
      if (first === 'window') {
        const confirm = await opened
        expect(await pendingOf(confirm)).toMatchObject({
          origin: session.dapp.url,
          topOrigin: session.dapp.otherOriginUrl,
        })
        await clickDecision(confirm, 'Reject')
        expect(await result()).toEqual(REJECTED)
      }
      return first
    } finally {
      await writeSettings(session.context, { rpcUrls })
    }
  }

  beforeAll(async () => {
    session = await startE2eSession({ localHosts: [PHISHING_HOST] })
    const { devnet, dapp } = session
    account = (devnet.fixtures.accounts[0]?.address ?? '').toLowerCase()
    attacker = (devnet.fixtures.accounts[7]?.address ?? '').toLowerCase()
    // The frame is on the dapp's server, a clean origin; its wallet counts what reaches it below the hook.
    dapp.page('/framed', countingWalletPage(devnet.fixtures.rpcUrl, account))
    dapp.page('/top', `<!doctype html><title>claim</title><iframe src="${dapp.url}/framed"></iframe>`)
    // The page with a frame of its own site beside the other site's.
    dapp.page(
      '/top-and-own',
      `<!doctype html><title>claim</title><iframe src="/framed"></iframe><iframe src="${dapp.url}/framed"></iframe>`,
    )
  })
  afterAll(() => session?.close())

  it('blocks a plain transfer from a clean frame on a blocklisted page, and forwards nothing', async () => {
    const page = await session.context.newPage()
    await page.goto(`http://${PHISHING_HOST}:${new URL(session.dapp.url).port}/top`)
    const frame = await walletFrame(page, '/framed')
    const { confirm, result } = await callThroughConfirmWindow(session.context, frame, send())
    // The window opens as the request is announced: read what it keeps once it shows results.
    expect(await shownAction(confirm)).toBe('BLOCK')
    const shown = await pendingOf(confirm)
    expect(shown.origin).toBe(session.dapp.url)
    expect(new URL(shown.topOrigin ?? 'http://none').hostname).toBe(PHISHING_HOST)
    const warning = confirm.locator('[data-warning-kind="BLOCKLISTED_DOMAIN_CROSS_ORIGIN"]')
    await expect.poll(() => warning.textContent()).toContain(`inside ${PHISHING_HOST}`)
    await expect.poll(() => confirm.getByText(`inside ${shown.topOrigin}`).count()).toBe(1)
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
    expect(await forwarded(frame)).toBe(0)
  })

  it('the same frame on a clean page is judged by its request alone, and goes through', async () => {
    const page = await session.context.newPage()
    await page.goto(`${session.dapp.otherOriginUrl}/top`)
    const frame = await walletFrame(page, '/framed')
    const { confirm, result } = await callThroughConfirmWindow(session.context, frame, send())
    expect(await shownAction(confirm)).toBe('NONE')
    expect(await pendingOf(confirm)).toMatchObject({ origin: session.dapp.url, topOrigin: session.dapp.otherOriginUrl })
    await clickDecision(confirm, 'Continue')
    expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await forwarded(frame)).toBe(1)
  })

  // A pause is for a site the user trusts, as they visit it. A frame of another site inside it (an ad, a widget, a
  // user's upload served from another host) is not that site, and a page that frames the trusted site is not it either.
  it("a pause for the page reaches its own frames, not another site's frame inside it", async () => {
    const page = await session.context.newPage()
    await page.goto(`${session.dapp.otherOriginUrl}/top-and-own`)
    const own = await walletFrame(page, `${session.dapp.otherOriginUrl}/framed`)
    const other = await walletFrame(page, `${session.dapp.url}/framed`)
    expect(await sendWhilePaused(own, [session.dapp.otherOriginUrl])).toBe('settled')
    expect(await forwarded(own)).toBe(1)
    expect(await sendWhilePaused(other, [session.dapp.otherOriginUrl])).toBe('window')
    expect(await forwarded(other)).toBe(0)
  })

  it('a pause for the framed site does not reach it inside a page that is not paused', async () => {
    const page = await session.context.newPage()
    await page.goto(`${session.dapp.otherOriginUrl}/top`)
    const frame = await walletFrame(page, '/framed')
    expect(await sendWhilePaused(frame, [session.dapp.url])).toBe('window')
    expect(await forwarded(frame)).toBe(0)
  })
})
