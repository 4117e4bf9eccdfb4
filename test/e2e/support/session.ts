/**
 * What most e2e suites run against: a devnet, the test dapp's server and Chromium with the built extension, set to
 * simulate on the devnet. The three start together; when one fails to start, the others are stopped before the error
 * is thrown, so a failed set-up leaves no anvil or Chromium running behind the suite.
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { ChromiumOptions } from '../../../src/devnet/chromium.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { type Dapp, startDapp } from './dapp.ts'
import { type Extension, launchExtension, writeSettings } from './extension.ts'

export type E2eSession = {
  devnet: Devnet
  dapp: Dapp
  extension: Extension
  context: BrowserContext
  /** Opens a new tab at the dapp's `path`, after serving `html` there when given. */
  open(path: string, html?: string): Promise<Page>
  /** Stops Chromium, then the dapp server and the devnet. */
  close(): Promise<void>
}

/**
 * Starts the session; the extension's settings point chain 31337 at the devnet. The browser resolves `localHosts` to
 * this machine, where the dapp's server answers for them too.
 */
export async function startE2eSession(
  options: Pick<ChromiumOptions, 'localHosts' | 'backForwardCache'> = {},
): Promise<E2eSession> {
  const [devnet, dapp, extension] = await Promise.allSettled([
    startTestDevnet(),
    startDapp(),
    launchExtension([], options),
  ])
  const value = <T>(outcome: PromiseSettledResult<T>) => (outcome.status === 'fulfilled' ? outcome.value : undefined)
  const close = async () => {
    await value(extension)?.close()
    await Promise.all([value(dapp)?.close(), value(devnet)?.stop()])
  }
  try {
    for (const outcome of [devnet, dapp, extension]) if (outcome.status === 'rejected') throw outcome.reason
    const started = {
      devnet: value(devnet) as Devnet,
      dapp: value(dapp) as Dapp,
      extension: value(extension) as Extension,
    }
    await writeSettings(started.extension.context, { rpcUrls: { '31337': started.devnet.fixtures.rpcUrl } })
    const { context } = started.extension
    const open = async (path: string, html?: string) => {
      if (html !== undefined) started.dapp.page(path, html)
      const page = await context.newPage()
      await page.goto(`${started.dapp.url}${path}`)
      return page
    }
    return { ...started, context, open, close }
  } catch (error) {
    await close()
    throw error
  }
}
