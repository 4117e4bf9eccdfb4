/**
 * Every route a page reaches its wallet by is intercepted (late window.ethereum, providers[], EIP-6963 including a
 * frozen provider, legacy send/sendAsync, a cross-origin iframe), everything else passes through untouched, and a
 * scan that cannot run leaves the decision to the user.
 */
import type { BrowserContext, Page } from 'playwright-core'
import {
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint48,
  maxUint256,
  stringToHex,
  verifyMessage,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { eip2612Permit } from '../../src/devnet/eip712.ts'
import { DEFAULT_SETTINGS } from '../../src/extension/shared/settings.ts'
import { startUnreachableEndpoint } from '../support/net.ts'
import { type Dapp, walletPage } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  clickDecision,
  pendingOf,
  queuedIds,
  REJECTED,
  serviceWorker,
  shownAction,
  shownId,
  startCall,
  watchServiceWorkers,
  writeSettings,
} from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

const SIGNATURE = /^0x[0-9a-f]{130}$/

describe('intercepting every route to the wallet', () => {
  let devnet: Devnet
  let dapp: Dapp
  let context: BrowserContext
  let session: E2eSession
  let account: string
  let wallet: string
  let rpcSettings: { rpcUrls: Record<string, string> }

  const open = async (path: string): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(`${dapp.url}${path}`)
    return page
  }
  const sign = (provider: string, text = '0x6869') =>
    `${provider}.request({ method: 'personal_sign', params: ['${text}', '${account}'] })`

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, dapp, context } = session)
    // Preflight forwards addresses in lower case, one way of writing them for the window and the wallet alike.
    account = (devnet.fixtures.accounts[0]?.address ?? '').toLowerCase()
    wallet = `DevWallet.createDevWallet(${JSON.stringify({ rpcUrl: devnet.fixtures.rpcUrl, account })})`
    rpcSettings = { rpcUrls: { '31337': devnet.fixtures.rpcUrl } }
    dapp.page('/announced', walletPage(`DevWallet.announceDevWallet(${wallet})`))
    dapp.page(
      '/late',
      walletPage(`addEventListener('load', () => setTimeout(() => { window.ethereum = ${wallet} }, 50))`),
    )
    dapp.page('/providers', walletPage(`window.ethereum = { providers: [${wallet}] }`))
    dapp.page(
      '/eip6963',
      walletPage(`
        window.announced = []
        addEventListener('eip6963:announceProvider', (event) => announced.push(event.detail))
        window.plain = ${wallet}
        window.frozen = Object.freeze(${wallet})
        DevWallet.announceDevWallet(plain, { windowEthereum: false, info: { name: 'Plain', rdns: 'test.plain' } })
        DevWallet.announceDevWallet(frozen, { windowEthereum: false, info: { name: 'Frozen', rdns: 'test.frozen' } })
      `),
    )
    dapp.page('/top', `<!doctype html><title>top</title><iframe src="${dapp.otherOriginUrl}/framed"></iframe>`)
    dapp.page('/framed', walletPage(`DevWallet.announceDevWallet(${wallet})`))
    dapp.page(
      '/recorder',
      walletPage(`
        window.calls = []
        window.ethereum = { request(args) { calls.push({ self: this === window.ethereum, method: args.method, params: args.params === window.lastArgs.params }); return Promise.resolve('answer') } }
      `),
    )
  })
  afterAll(() => session?.close())

  it('intercepts a provider assigned to window.ethereum after the page loaded', async () => {
    const page = await open('/late')
    await page.waitForFunction(() => 'ethereum' in window && window.ethereum !== undefined)
    const { confirm, result } = await callThroughConfirmWindow(context, page, sign('ethereum'))
    expect(await pendingOf(confirm)).toMatchObject({
      method: 'personal_sign',
      origin: dapp.url,
      params: ['0x6869', account],
    })
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('intercepts the wallets in window.ethereum.providers[]', async () => {
    const page = await open('/providers')
    const { confirm, result } = await callThroughConfirmWindow(context, page, sign('ethereum.providers[0]'))
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('intercepts EIP-6963 providers, patching a plain one in place and wrapping a frozen one', async () => {
    const page = await open('/eip6963')
    const seen = await page.evaluate(() => {
      const list = (window as unknown as { announced: { info: { name: string }; provider: unknown }[] }).announced
      const w = window as unknown as { plain: unknown; frozen: unknown }
      return {
        names: list.map((detail) => detail.info.name),
        plainIsSame: list.some((detail) => detail.provider === w.plain),
        allFrozen: list.every((detail) => Object.isFrozen(detail)),
        windowEthereum: (window as { ethereum?: unknown }).ethereum !== undefined,
      }
    })
    expect(seen).toEqual({ names: ['Plain', 'Frozen'], plainIsSame: true, allFrozen: true, windowEthereum: false })

    for (const name of ['Plain', 'Frozen']) {
      const { confirm, result } = await callThroughConfirmWindow(
        context,
        page,
        sign(`announced.find((d) => d.info.name === '${name}').provider`),
      )
      await clickDecision(confirm, 'Reject')
      expect(await result()).toEqual(REJECTED)
    }
  })

  it('intercepts the legacy sendAsync, send(payload, callback), send(method, params) and send(payload) forms', async () => {
    const page = await open('/announced')
    const callbackForm = (fn: string) => `new Promise((resolve) =>
      ethereum.${fn}({ id: 7, jsonrpc: '2.0', method: 'personal_sign', params: ['0x6869', '${account}'] },
        (error, response) => resolve({ error: error && { code: error.code }, response })))`

    const viaSendAsync = await callThroughConfirmWindow(context, page, callbackForm('sendAsync'))
    await clickDecision(viaSendAsync.confirm, 'Reject')
    expect((await viaSendAsync.result()).ok).toEqual({
      error: { code: 4001 },
      response: { id: 7, jsonrpc: '2.0', error: REJECTED },
    })

    const viaSend = await callThroughConfirmWindow(context, page, callbackForm('send'))
    await shownAction(viaSend.confirm)
    await clickDecision(viaSend.confirm, 'Continue')
    const answered = (await viaSend.result()).ok as { error: null; response: { id: number; result: string } }
    expect(answered.error).toBeNull()
    expect(answered.response).toMatchObject({ id: 7, result: expect.stringMatching(SIGNATURE) })

    const legacySend = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.send('personal_sign', ['0x6869', '${account}'])`,
    )
    await clickDecision(legacySend.confirm, 'Reject')
    expect(await legacySend.result()).toEqual(REJECTED)

    const payloadOnly = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.send({ id: 8, jsonrpc: '2.0', method: 'personal_sign', params: ['0x6869', '${account}'] })`,
    )
    await clickDecision(payloadOnly.confirm, 'Reject')
    expect(await payloadOnly.result()).toEqual(REJECTED)
  })

  it('intercepts eth_signTypedData_v3, scans it, and forwards the original request on Continue', async () => {
    const { fixtures } = devnet
    const permit = eip2612Permit({
      name: fixtures.erc20.name,
      chainId: fixtures.chainId,
      token: fixtures.erc20.address,
      owner: account as Hex,
      spender: fixtures.drainer.address,
      value: maxUint256,
      nonce: 0n,
      deadline: maxUint48,
    })
    const page = await open('/announced')
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v3', params: ['${account}', ${JSON.stringify(JSON.stringify(permit))}] })`,
    )
    expect(await shownAction(confirm)).toBe('WARN')
    // A JSON string is forwarded as the window read it: parsed once, written out again.
    expect(await pendingOf(confirm)).toMatchObject({
      method: 'eth_signTypedData_v3',
      params: [account, JSON.stringify(permit)],
    })
    await expect
      .poll(() => confirm.getByTestId('state-change').allInnerTexts())
      .toContainEqual(expect.stringContaining(`unlimited ${fixtures.erc20.symbol}`))
    await clickDecision(confirm, 'Continue')
    // The dev wallet forwards to anvil, which does not implement v3: its own answer proves the request reached it.
    expect(await result()).toEqual({ code: -32603, message: 'Not implemented' })
  })

  it('intercepts personal_sign in either parameter order and shows the decoded text', async () => {
    const text = 'Sign in to the Preflight test dapp'
    const message = stringToHex(text)
    const page = await open('/announced')
    /** Opens the decoded message and says whether the text reads there. */
    const showsText = async (confirm: Page) => {
      await shownAction(confirm)
      const details = confirm.locator('details', { hasText: 'Message:' })
      await details.locator('summary').click()
      return details.getByText(text).isVisible()
    }

    const standard = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'personal_sign', params: ['${message}', '${account}'] })`,
    )
    expect(await showsText(standard.confirm)).toBe(true)
    await clickDecision(standard.confirm, 'Continue')
    const signature = (await standard.result()).ok as Hex
    expect(await verifyMessage({ address: account as Hex, message: text, signature })).toBe(true)

    const swapped = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'personal_sign', params: ['${account}', '${message}'] })`,
    )
    expect(await pendingOf(swapped.confirm)).toMatchObject({ params: [message, account] })
    expect(await showsText(swapped.confirm)).toBe(true)
    await clickDecision(swapped.confirm, 'Reject')
    expect(await swapped.result()).toEqual(REJECTED)
  })

  it('shows a message whose invisible right-to-left mark draws "1 → 500" as "500 → 1" as bytes, with a warning', async () => {
    const text = 'Swap: \u200F1 → 500 USDC'
    const page = await open('/announced')
    // How Chromium draws that text where the window showed it, a <pre>: the 5 of 500 left of the 1 it follows.
    const drawnAt = await page.evaluate((shown) => {
      const pre = document.body.appendChild(document.createElement('pre'))
      pre.textContent = shown
      const range = document.createRange()
      const x = (part: string) => {
        const at = shown.indexOf(part)
        range.setStart(pre.firstChild as Text, at)
        range.setEnd(pre.firstChild as Text, at + part.length)
        return range.getBoundingClientRect().x
      }
      return { one: x('1'), five: x('5') }
    }, text)
    expect(drawnAt.five).toBeLessThan(drawnAt.one)

    const { confirm, result } = await callThroughConfirmWindow(context, page, sign('ethereum', stringToHex(text)))
    expect(await shownAction(confirm)).toBe('WARN')
    const warning = confirm.locator('[data-warning-kind="RELIABLE_SIMULATION_NOT_POSSIBLE"]')
    expect(await warning.textContent()).toContain('change the order in which it is displayed')
    const signed = confirm.getByTestId('signed-message')
    expect(await signed.getByRole('heading').textContent()).toBe('You sign these bytes')
    expect(await signed.locator('pre').textContent()).toBe(stringToHex(text))
    await clickDecision(confirm, 'Continue')
    const signature = (await result()).ok as Hex
    expect(await verifyMessage({ address: account as Hex, message: text, signature })).toBe(true)
  })

  it('blocks eth_sign of a bare 32-byte hash as blind signing', async () => {
    const page = await open('/announced')
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_sign', params: ['${account}', '${keccak256(stringToHex('any transaction'))}'] })`,
    )
    expect(await shownAction(confirm)).toBe('BLOCK')
    expect(await confirm.locator('[data-warning-kind="ETH_SIGN_TX_HASH"]').count()).toBe(1)
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('shows a hash sent to personal_sign without its 0x as the hash it is to MetaMask, and forwards it as sent', async () => {
    const hash = keccak256(stringToHex('a Safe transaction'))
    const bare = hash.slice(2)
    const page = await open('/announced')
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'personal_sign', params: ['${bare}', '${account}'] })`,
    )
    expect(await shownAction(confirm)).toBe('BLOCK')
    expect(await confirm.locator('[data-warning-kind="ETH_SIGN_TX_HASH"]').count()).toBe(1)
    expect(await pendingOf(confirm)).toMatchObject({ params: [bare, account] })
    await clickDecision(confirm, 'Continue', { acknowledge: true })
    // The dev wallet hands personal_sign to anvil, which reads bare hex digits as bytes, as MetaMask does.
    const signature = (await result()).ok as Hex
    expect(await verifyMessage({ address: account as Hex, message: { raw: hash }, signature })).toBe(true)
  })

  it('stops an ERC-7715 permission request, says it cannot be simulated, and forwards it as shown', async () => {
    const page = await open('/announced')
    const permission = {
      chainId: '0x7a69',
      signer: { type: 'account', data: { address: devnet.fixtures.accounts[6]?.address } },
      permission: {
        type: 'erc20-token-periodic',
        data: { tokenAddress: devnet.fixtures.erc20.address, periodAmount: '0xde0b6b3a7640000', periodDuration: 86400 },
      },
      expiry: 1900000000,
    }
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'wallet_grantPermissions', params: [[${JSON.stringify(permission)}]] })`,
    )
    expect(await shownAction(confirm)).toBe('ERROR')
    const pending = await pendingOf(confirm)
    expect(pending).toMatchObject({ method: 'wallet_grantPermissions', params: [[permission]], chainId: 31337 })
    expect(pending.scan).toMatchObject({ status: 'ERROR', error: { kind: 'NOT_CHECKED' } })
    await expect.poll(() => confirm.getByText(/spend your tokens or make calls for you later/).count()).toBe(1)
    await clickDecision(confirm, 'Continue')
    // The dev wallet passes what it does not know to anvil, whose refusal proves the request reached the wallet.
    expect(await result()).toMatchObject({ code: -32601 })
  })

  it('intercepts wallet_sendCalls and scans the whole batch', async () => {
    const { fixtures } = devnet
    const recipient = fixtures.accounts[6]?.address as Hex
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, 5n * 10n ** BigInt(fixtures.erc20.decimals)],
    })
    const batch = {
      version: '2.0.0',
      chainId: '0x7a69',
      from: account,
      atomicRequired: true,
      calls: [
        { to: recipient, value: '0xde0b6b3a7640000' },
        { to: fixtures.erc20.address, data: transfer },
      ],
    }
    const page = await open('/announced')
    const { confirm, result } = await callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'wallet_sendCalls', params: [${JSON.stringify(batch)}] })`,
    )
    expect(await shownAction(confirm)).toBe('NONE')
    const mine = confirm.locator(`[data-account="${account.toLowerCase()}"]`).getByTestId('state-change')
    await expect
      .poll(() => mine.allInnerTexts())
      .toEqual([expect.stringContaining('−1 ETH'), expect.stringContaining(`−5 ${fixtures.erc20.symbol}`)])
    // anvil has no wallet_sendCalls, so this batch is rejected here rather than forwarded.
    await clickDecision(confirm, 'Reject')
    expect(await result()).toEqual(REJECTED)
  })

  it('intercepts a request from a cross-origin iframe and names both origins from the browser', async () => {
    const page = await open('/top')
    const frame = page.frames().find((candidate) => candidate.url().startsWith(dapp.otherOriginUrl))
    if (!frame) throw new Error('the iframe did not load')
    await frame.waitForFunction(() => 'ethereum' in window)
    const { confirm, result } = await callThroughConfirmWindow(context, frame, sign('ethereum'))
    expect(await pendingOf(confirm)).toMatchObject({ origin: dapp.otherOriginUrl, topOrigin: dapp.url })
    await shownAction(confirm)
    await clickDecision(confirm, 'Continue')
    expect((await result()).ok).toMatch(SIGNATURE)
  })

  it('passes other methods through untouched: same this, same method and params, same result, no window', async () => {
    const page = await open('/recorder')
    let windows = 0
    const count = () => windows++
    context.on('page', count)
    const answer = await page.evaluate(async () => {
      const w = window as unknown as { ethereum: { request(a: unknown): Promise<unknown> }; lastArgs: unknown }
      w.lastArgs = { method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', 'latest'] }
      return w.ethereum.request(w.lastArgs)
    })
    expect(answer).toBe('answer')
    // The wallet gets a copy of the request object (read once, so a getter cannot change it), holding the same params.
    expect(await page.evaluate(() => (window as unknown as { calls: unknown[] }).calls)).toEqual([
      { self: true, method: 'eth_getBalance', params: true },
    ])
    context.off('page', count)
    expect(windows).toBe(0)
  })

  it('wakes a stopped worker when the page estimates gas, as libraries do before a transaction, and passes it through', async () => {
    // Earlier tests' pages used the wallet, and Playwright shows every page as visible: their keep-alive messages
    // (every 20 s) would wake the stopped worker at a random moment of this test.
    for (const other of context.pages()) await other.close()
    const page = await open('/announced')
    const workers = await watchServiceWorkers(page)
    try {
      const call = (method: string, params: unknown[]) =>
        page.evaluate(
          ([name, args]) =>
            (window as unknown as { ethereum: { request(a: unknown): Promise<unknown> } }).ethereum.request({
              method: name,
              params: args,
            }),
          [method, params] as const,
        )
      await workers.stopAll()
      const startsBefore = workers.starts()
      // Other read methods do not wake it: the page's reads stay its own business.
      expect(await call('eth_chainId', [])).toBe('0x7a69')
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(workers.starts()).toBe(startsBefore)
      // A plain transfer costs 21,000 gas: the wallet's own answer, untouched.
      const to = devnet.fixtures.accounts[5]?.address ?? ''
      expect(await call('eth_estimateGas', [{ from: account, to, value: '0x1' }])).toBe('0x5208')
      await expect.poll(() => workers.starts(), { timeout: 10_000 }).toBeGreaterThan(startsBefore)
    } finally {
      await workers.detach()
    }
  })

  it('leaves the define functions it watches looking and behaving like the builtins', async () => {
    const page = await open('/announced')
    const seen = await page.evaluate(() => {
      const describe = (fn: unknown) => {
        const f = fn as { name: string; length: number }
        return [f.name, f.length, Function.prototype.toString.call(fn).includes('[native code]')]
      }
      const target = {}
      Object.defineProperty(target, 'a', { value: 1, enumerable: true })
      Object.defineProperties(target, { b: { value: 2, enumerable: true } })
      return {
        defineProperty: describe(Object.defineProperty),
        defineProperties: describe(Object.defineProperties),
        reflect: describe(Reflect.defineProperty),
        result: [Reflect.defineProperty(Object.freeze({}), 'x', { value: 1 }), JSON.stringify(target)],
        threw: (() => {
          try {
            Object.defineProperty(1 as unknown as object, 'x', {})
            return false
          } catch (error) {
            return error instanceof TypeError
          }
        })(),
      }
    })
    expect(seen).toEqual({
      defineProperty: ['defineProperty', 3, true],
      defineProperties: ['defineProperties', 2, true],
      reflect: ['defineProperty', 3, true],
      result: [false, '{"a":1,"b":2}'],
      threw: true,
    })
  })

  it('passes intercepted methods through when Preflight is off or paused for the site', async () => {
    const page = await open('/announced')
    let windows = 0
    const count = () => windows++
    context.on('page', count)
    try {
      await writeSettings(context, { ...rpcSettings, enabled: false })
      expect((await (await startCall(page, sign('ethereum')))()).ok).toMatch(SIGNATURE)
      await writeSettings(context, { ...rpcSettings, pausedOrigins: [dapp.url] })
      expect((await (await startCall(page, sign('ethereum')))()).ok).toMatch(SIGNATURE)
    } finally {
      context.off('page', count)
      await writeSettings(context, rpcSettings)
    }
    expect(windows).toBe(0)
  })

  it('shows ERROR when the scan backend is down, and lets the user decide', async () => {
    const down = await startUnreachableEndpoint()
    await writeSettings(context, { rpcUrls: { ...DEFAULT_SETTINGS.rpcUrls, '31337': down.url } })
    try {
      const page = await open('/announced')
      const { confirm, result } = await callThroughConfirmWindow(
        context,
        page,
        `ethereum.request({ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${account}', value: '0x1' }] })`,
      )
      expect(await shownAction(confirm)).toBe('ERROR')
      const pending = await pendingOf(confirm)
      expect(pending.scan).toMatchObject({ status: 'ERROR', error: { kind: 'RPC_ERROR' } })
      await clickDecision(confirm, 'Continue')
      expect((await result()).ok).toMatch(/^0x[0-9a-f]{64}$/)
    } finally {
      await writeSettings(context, rpcSettings)
      await down.close()
    }
  })

  it('queues concurrent requests in one window and settles each separately, exactly once', async () => {
    const page = await open('/announced')
    const { confirm, result: a } = await callThroughConfirmWindow(context, page, sign('ethereum', '0x61'))
    let windows = 0
    const count = () => windows++
    context.on('page', count)
    try {
      const b = await startCall(page, sign('ethereum', '0x62'))
      await expect.poll(() => confirm.getByTestId('queue-position').textContent()).toContain('Request 1 of 2')
      const [first, second] = await queuedIds(context)
      expect(shownId(confirm)).toBe(first)

      await shownAction(confirm)
      await clickDecision(confirm, 'Continue')
      expect((await a()).ok).toMatch(SIGNATURE)
      // The same window moves on to the second request.
      await expect.poll(() => shownId(confirm)).toBe(second)
      expect(await pendingOf(confirm)).toMatchObject({ params: ['0x62', account] })
      await clickDecision(confirm, 'Reject')
      expect(await b()).toEqual(REJECTED)
    } finally {
      context.off('page', count)
    }
    expect(windows).toBe(0)
  })

  it('closes the window and forgets the request when the page that asked goes away', async () => {
    const page = await open('/announced')
    const { confirm } = await callThroughConfirmWindow(context, page, sign('ethereum'))
    const { id } = await pendingOf(confirm)
    const closed = new Promise((resolve) => confirm.once('close', resolve))
    await page.close()
    await closed
    const worker = await serviceWorker(context)
    expect(
      await worker.evaluate(async (key) => (await chrome.storage.session.get(key))[key], `pending:${id}`),
    ).toBeUndefined()
  })

  it('keeps the private channel private: a page asking for the relay port later gets nothing', async () => {
    const page = await open('/announced')
    const ports = await page.evaluate(() => {
      let received = 0
      addEventListener('preflight:relay-port', (event) => {
        received += (event as MessageEvent).ports.length
      })
      dispatchEvent(new Event('preflight:hook-ready'))
      return received
    })
    expect(ports).toBe(0)
  })
})
