/**
 * A document a site sandboxes (an upload, an embed: `<iframe sandbox>` or a CSP sandbox) has no origin of its own: the
 * browser reports "null". Preflight used to show it as the site that served it, so a script in a user's upload on
 * victim.example could ask for a sign-in to victim.example and be judged as victim.example itself: no warning, and a
 * pause for that site let it through with no window. In Chromium with the built extension, on the devnet.
 */
import { getAddress, type Hex, stringToHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countingWalletPage, walletFrame } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  nextConfirmWindow,
  pendingOf,
  REJECTED,
  serviceWorker,
  shownAction,
  startCall,
  writeSettings,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('a request from a sandboxed document', () => {
  let session: E2eSession
  let account: Hex
  let signIn: string

  const sign = () => `ethereum.request({ method: 'personal_sign', params: ['${signIn}', '${account}'] })`

  beforeAll(async () => {
    session = await startE2eSession()
    const { devnet, dapp } = session
    account = getAddress(devnet.fixtures.accounts[0]?.address ?? '')
    const host = new URL(dapp.url).host
    // A sign-in to the site itself (EIP-4361), as its own login page would ask for one.
    signIn = stringToHex(
      `${host} wants you to sign in with your Ethereum account:\n${account}\n\nSign in to the gallery.\n\n` +
        `URI: ${dapp.url}\nVersion: 1\nChain ID: 31337\nNonce: 32891756\nIssued At: 2026-11-26T18:00:00.000Z`,
    )
    const wallet = countingWalletPage(devnet.fixtures.rpcUrl, account)
    dapp.page('/login', wallet)
    // The site's gallery shows a user's upload in a sandbox (scripts allowed, the site's origin not).
    dapp.page('/upload', wallet)
    dapp.page(
      '/gallery',
      `<!doctype html><title>gallery</title><iframe sandbox="allow-scripts" src="/upload"></iframe>`,
    )
    // The same upload written inline: a sandboxed srcdoc has no URL of the site's, so the browser names no site at all.
    const inline = wallet.replaceAll('&', '&amp;').replaceAll('"', '&quot;')
    dapp.page(
      '/gallery-inline',
      `<!doctype html><title>gallery</title><iframe sandbox="allow-scripts" srcdoc="${inline}"></iframe>`,
    )
  })
  afterAll(() => session?.close())

  it('passes the sign-in when the site itself asks for it', async () => {
    const page = await session.open('/login')
    const { confirm, result } = await callThroughConfirmWindow(session.context, page, sign())
    expect(await shownAction(confirm)).toBe('NONE')
    await clickDecision(confirm, 'Continue')
    const signature = (await result()).ok as Hex
    expect(await verifyMessage({ address: account, message: { raw: signIn as Hex }, signature })).toBe(true)
  })

  it('blocks the same sign-in from an upload the site sandboxes, and says where it was served from', async () => {
    const page = await session.open('/gallery')
    const frame = await walletFrame(page, '/upload')
    const { confirm, result } = await callThroughConfirmWindow(session.context, frame, sign())
    expect(await shownAction(confirm)).toBe('BLOCK')
    expect(await pendingOf(confirm)).toMatchObject({ origin: session.dapp.url, sandboxed: true })
    await expect
      .poll(() => confirm.locator('[data-warning-kind="SIGN_IN_DOMAIN_MISMATCH"]').textContent())
      .toContain(`but a sandboxed page served from ${session.dapp.url} is asking for it`)
    expect(await confirm.getByTestId('sandboxed').textContent()).toBe(
      `served from ${session.dapp.url}, which does not let it act as that site`,
    )
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
    // The popup's history says who asked the same way.
    const popup = await session.context.newPage()
    await popup.goto(new URL('src/extension/ui/popup.html', (await serviceWorker(session.context)).url()).href)
    await expect
      .poll(() => popup.getByTestId('history-entry').first().textContent())
      .toContain(`a sandboxed page served from ${session.dapp.url}`)
    await popup.close()
  })

  it('does not let a pause for the site through to its sandboxed upload', async () => {
    const rpcUrls = { '31337': session.devnet.fixtures.rpcUrl }
    await writeSettings(session.context, { rpcUrls, pausedOrigins: [session.dapp.url] })
    try {
      // Paused for the site: its own page's request goes to the wallet with no window.
      const page = await session.open('/login')
      const signature = (await (await startCall(page, sign()))()).ok as Hex
      expect(await verifyMessage({ address: account, message: { raw: signIn as Hex }, signature })).toBe(true)
      // Its sandboxed upload still gets the window.
      const frame = await walletFrame(await session.open('/gallery'), '/upload')
      const { confirm, result } = await callThroughConfirmWindow(session.context, frame, sign())
      expect(await shownAction(confirm)).toBe('BLOCK')
      await clickDecision(confirm, 'Reject')
      expect(await result()).toEqual(REJECTED)
      // So does the upload written inline (srcdoc), which the browser reports as "null" with no site behind it.
      const inline = await walletFrame(await session.open('/gallery-inline'), 'about:srcdoc')
      const opened = nextConfirmWindow(session.context)
      // A request that goes through with no window leaves this wait to time out unheard.
      opened.catch(() => undefined)
      const inlineResult = await startCall(inline, sign())
      const first = await Promise.race([
        opened.then(() => 'window' as const),
        inlineResult().then(() => 'settled' as const),
      ])
      expect(first).toBe('window')
      const inlineConfirm = await opened
      expect(await pendingOf(inlineConfirm)).toMatchObject({ origin: 'null', topOrigin: session.dapp.url })
      await clickDecision(inlineConfirm, 'Reject')
      expect(await inlineResult()).toEqual(REJECTED)
    } finally {
      await writeSettings(session.context, { rpcUrls })
    }
  })
})
