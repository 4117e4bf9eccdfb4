/** Finds and launches the system Chromium (for the demo, tests and tools), with the flags this machine needs. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

const BASE_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** The browser binary: CHROME_PATH when set, else the first usual path that exists; throws a clear error when none. */
export function findChromium(): string {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH is set to ${fromEnv}, which does not exist`)
    return fromEnv
  }
  const found = CANDIDATES.find((path) => existsSync(path))
  if (!found) {
    throw new Error(
      `no Chromium found (looked at ${CANDIDATES.join(', ')}). Install it (Debian: apt-get install -y chromium) or set CHROME_PATH.`,
    )
  }
  return found
}

export type LaunchedChromium = {
  context: BrowserContext
  /** Closes the browser and deletes its profile directory. */
  close(): Promise<void>
}

export type ChromiumOptions = {
  extensionDir?: string
  otherExtensionDirs?: string[]
  headless?: boolean
  /** Hostnames the browser resolves to this machine (e.g. a blocklisted site a test serves), without a DNS lookup. */
  localHosts?: string[]
  /** Keeps Chrome's back/forward cache, on in every user's browser, which Playwright turns off by default. */
  backForwardCache?: boolean
}

/** The flags this machine needs, with the unpacked extensions of `options` loaded. */
export function chromiumArgs(options: ChromiumOptions = {}): string[] {
  const args = BASE_FLAGS.filter((flag) => options.headless !== false || flag !== '--headless=new')
  const extensions = [...(options.extensionDir ? [options.extensionDir] : []), ...(options.otherExtensionDirs ?? [])]
  if (extensions.length > 0) {
    const list = extensions.join(',')
    args.push(`--disable-extensions-except=${list}`, `--load-extension=${list}`)
  }
  // Resolved, not routed: a page on such a host is on this machine's network, as the test servers it frames are.
  if (options.localHosts?.length) {
    args.push(`--host-resolver-rules=${options.localHosts.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`)
  }
  return args
}

/**
 * Launches Chromium with a fresh temporary profile, optionally with the unpacked extension in `extensionDir` (and
 * any in `otherExtensionDirs`, such as a wallet) loaded. Close it with `close()`, which also deletes the profile.
 */
export async function launchChromium(options: ChromiumOptions = {}): Promise<LaunchedChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'preflight-chromium-'))
  const removeProfile = () => rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10 })
  const args = chromiumArgs(options)
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: findChromium(),
      headless: false,
      args,
      ignoreDefaultArgs: [
        '--disable-extensions',
        '--headless',
        ...(options.backForwardCache ? ['--disable-back-forward-cache'] : []),
      ],
    })
  } catch (error) {
    removeProfile()
    throw error
  }
  return {
    context,
    close: async () => {
      await context.close()
      removeProfile()
    },
  }
}
