/**
 * Regenerates src/extension/inpage/walletGlobals.json: the window globals wallets publish their EVM provider under
 * besides window.ethereum (`okxwallet`, `phantom.ethereum`, ...), which dapps and wallet-specific connectors call
 * directly, so the hook must patch them too. Read from web3-onboard's injected-wallets module (a devDependency, pinned
 * below), never typed in by hand: each wallet's `getInterface` says which global it hands the dapp as its provider;
 * and from Coinbase's wallet SDK v3, whose `walletExtension` getter names the globals it calls the Coinbase extension
 * at. Run `npx tsx test/tools/walletGlobals.ts` (it downloads the pinned SDK with `npm pack`); bump the devDependency
 * (and the versions below) to take a newer list.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const OUTPUT = new URL('../../src/extension/inpage/walletGlobals.json', import.meta.url)
const PACKAGE = '@web3-onboard/injected-wallets'
const VERSION = '2.11.3'
const COINBASE_SDK = '@coinbase/wallet-sdk@3.9.3'

/** window.ethereum (with its providers[]) is hooked on its own route; the list holds the other globals. */
const ALREADY_HOOKED = 'ethereum'

/** Where getInterface hands over the provider: `provider: <expr>`, `provider = <expr>`, `createEIP1193Provider(<expr>`. */
const PROVIDER_EXPRESSION = /(?:\bprovider\s*[:=](?!=)|createEIP1193Provider\()\s*([^,;\n}]+)/g
/** A global path read from window: `window.a.b` or `window[InjectedNameSpace.X].b`, and whether it is then called. */
const WINDOW_PATH = /window(?:\.([\w$]+)|\[InjectedNameSpace\.(\w+)\])((?:\.[\w$]+)*)(\s*\()?/g

type Found = { globals: Record<string, string>; skipped: string[] }

function generate(root: string, namespaces: Record<string, string>, labels: Record<string, string>): Found {
  const text = readFileSync(join(root, 'dist/wallets.js'), 'utf8')
  // Each wallet module is a top-level `const name = { label: ..., getInterface: ..., ... };`.
  const modules = text.split(/^const \w+ = \{$/m).slice(1)
  const globals: Record<string, string> = {}
  const skipped: string[] = []
  for (const module of modules) {
    const body = module.slice(0, module.search(/^\};$/m))
    const labelKey = /^\s+label: ProviderLabel\.(\w+),$/m.exec(body)?.[1]
    const label = labelKey ? labels[labelKey] : undefined
    const start = body.indexOf('getInterface:')
    if (!label || start < 0) continue
    const getInterface = body.slice(start, body.indexOf('platforms:', start) >>> 0)
    for (const [, expression] of getInterface.matchAll(PROVIDER_EXPRESSION)) {
      // In `window.xfi && window.xfi.ethereum` the provider is the last path read.
      const paths = [...(expression as string).matchAll(WINDOW_PATH)]
      const last = paths.at(-1)
      if (!last) continue
      const [, name, namespace, rest, called] = last
      const top = name ?? (namespace ? namespaces[namespace] : undefined)
      if (!top) throw new Error(`${PACKAGE}: ${label} reads an unknown namespace ${namespace}`)
      const path = `${top}${rest}`
      if (called) skipped.push(`${label}: window.${path}() makes a provider (no global to hook)`)
      else if (top !== ALREADY_HOOKED) globals[path] = label
    }
  }
  if (Object.keys(globals).length === 0) throw new Error(`${PACKAGE}: no wallet globals found in dist/wallets.js`)
  return { globals, skipped }
}

/** The globals Coinbase's SDK v3 reads the Coinbase extension at (`get walletExtension()` in CoinbaseWalletSDK.js). */
function fromCoinbaseSdk(): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'wallet-globals-'))
  try {
    const file = execFileSync('npm', ['pack', COINBASE_SDK, '--silent', '--pack-destination', directory], {
      encoding: 'utf8',
    })
    execFileSync('tar', ['xzf', join(directory, file.trim()), '-C', directory])
    const text = readFileSync(join(directory, 'package/dist/CoinbaseWalletSDK.js'), 'utf8')
    const body = /get walletExtension\(\) \{([^}]*)\}/.exec(text)?.[1] ?? ''
    const paths = [...body.matchAll(WINDOW_PATH)]
      .filter(([, , , , called]) => !called)
      .map(([, name, , rest]) => `${name}${rest}`)
    if (paths.length === 0) throw new Error(`${COINBASE_SDK}: no walletExtension getter in dist/CoinbaseWalletSDK.js`)
    return [...new Set(paths)]
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

const require = createRequire(import.meta.url)
const root = dirname(require.resolve(`${PACKAGE}/package.json`))
const installed = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version
if (installed !== VERSION) throw new Error(`${PACKAGE}: ${installed} is installed, this tool reads ${VERSION}`)
const types = (await import(pathToFileURL(join(root, 'dist/types.js')).href)) as {
  InjectedNameSpace: Record<string, string>
  ProviderLabel: Record<string, string>
}
const { globals, skipped } = generate(root, types.InjectedNameSpace, types.ProviderLabel)
for (const path of fromCoinbaseSdk()) globals[path] ??= 'Coinbase Wallet'
// Paths as arrays, so the hook builds its tree at document_start without splitting strings.
const sorted = Object.entries(globals)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([path, wallet]) => ({ wallet, path: path.split('.') }))
const note =
  `Generated by test/tools/walletGlobals.ts from ${PACKAGE}@${VERSION} (dist/wallets.js, each wallet's ` +
  `getInterface) and ${COINBASE_SDK} (its walletExtension getter); do not edit by hand. The window globals wallets ` +
  'publish their EVM provider under besides window.ethereum (each a path from window), and the wallet each is read for.'
const sources = [`${PACKAGE}@${VERSION}`, COINBASE_SDK]
writeFileSync(OUTPUT, `${JSON.stringify({ note, sources, globals: sorted }, null, 2)}\n`)
// In the repository's own format, so `biome check` passes on a fresh run.
execFileSync('npx', ['biome', 'format', '--write', fileURLToPath(OUTPUT)], { stdio: 'ignore' })
console.log(`wrote ${sorted.length} wallet globals`)
for (const line of skipped) console.log(`skipped ${line}`)
