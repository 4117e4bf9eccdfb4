/**
 * A request still ends when the extension is reloaded under it. In its own file: the reload replaces the extension
 * instance, so no other test may share this browser after it.
 */
import type { BrowserContext } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { countingWalletPage, type Dapp, forwardedCount } from './support/dapp.ts'
import { callThroughConfirmWindow, serviceWorker, shownAction } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

describe('an extension reload', () => {
  let devnet: Devnet
  let dapp: Dapp
  let context: BrowserContext
  let session: E2eSession
  let sendTx: string

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, dapp, context } = session)
    const { fixtures } = devnet
    const account = fixtures.accounts[0]?.address as Hex
    const recipient = fixtures.accounts[5]?.address as Hex
    sendTx = `{ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0x1' }] }`
    dapp.page('/counted', countingWalletPage(fixtures.rpcUrl, account))
  })
  afterAll(() => session?.close())

  it('answers an open request with an error when the extension is reloaded under it', async () => {
    const page = await context.newPage()
    await page.goto(`${dapp.url}/counted`)
    const { confirm, result } = await callThroughConfirmWindow(context, page, `ethereum.request(${sendTx})`)
    await shownAction(confirm)
    await (await serviceWorker(context)).evaluate(() => chrome.runtime.reload())

    expect(await result()).toMatchObject({ code: 4900, message: expect.stringContaining('reloaded or removed') })
    expect(await forwardedCount(page)).toBe(0)
  })
})
