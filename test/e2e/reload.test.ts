/**
 * A request still ends when the extension is reloaded under it. In its own file: the reload replaces the extension
 * instance, so no other test may share this browser after it.
 */
import type { BrowserContext } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { startTestDevnet } from '../support/devnet.ts'
import { countingWalletPage, type Dapp, forwardedCount, startDapp } from './support/dapp.ts'
import {
  callThroughConfirmWindow,
  type Extension,
  launchExtension,
  serviceWorker,
  shownAction,
  writeSettings,
} from './support/extension.ts'

describe('an extension reload', () => {
  let devnet: Devnet
  let dapp: Dapp
  let extension: Extension
  let context: BrowserContext
  let sendTx: string

  beforeAll(async () => {
    ;[devnet, dapp, extension] = await Promise.all([startTestDevnet(), startDapp(), launchExtension()])
    context = extension.context
    const { fixtures } = devnet
    const account = fixtures.accounts[0]?.address as Hex
    const recipient = fixtures.accounts[5]?.address as Hex
    sendTx = `{ method: 'eth_sendTransaction', params: [{ from: '${account}', to: '${recipient}', value: '0x1' }] }`
    await writeSettings(context, { rpcUrls: { '31337': fixtures.rpcUrl } })
    dapp.page('/counted', countingWalletPage(fixtures.rpcUrl, account))
  })
  afterAll(async () => {
    await extension?.close()
    await Promise.all([dapp?.close(), devnet?.stop()])
  })

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
