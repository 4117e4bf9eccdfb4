/** Finds and launches the system Chromium for tests and tools, with the flags this machine needs. */
import { existsSync, mkdtempSync } from 'node:fs'
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

export const BASE_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** Launches Chromium with a fresh profile, optionally with the unpacked extension in `extensionDir` loaded. */
export async function launchChromium(options: { extensionDir?: string; headless?: boolean } = {}): Promise<{
  context: BrowserContext
  userDataDir: string
}> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'preflight-chromium-'))
  const args = BASE_FLAGS.filter((flag) => options.headless !== false || flag !== '--headless=new')
  if (options.extensionDir) {
    args.push(`--disable-extensions-except=${options.extensionDir}`, `--load-extension=${options.extensionDir}`)
  }
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: findChromium(),
    headless: false,
    args,
    ignoreDefaultArgs: ['--disable-extensions', '--headless'],
  })
  return { context, userDataDir }
}
