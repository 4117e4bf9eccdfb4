import { crx, type ManifestV3Export } from '@crxjs/vite-plugin'
import { defineConfig } from 'vite'
import { bundledData } from './build-plugins/bundledData.ts'
import { inlineCss } from './build-plugins/inlineCss.ts'
import { prebuiltAbi } from './build-plugins/prebuiltAbi.ts'
import { singleScriptPage } from './build-plugins/singleScriptPage.ts'
import { workerSize } from './build-plugins/workerSize.ts'
import manifest from './manifest.json' with { type: 'json' }

// Engine modules do nothing when imported (DESIGN: a platform-neutral library), and saying so lets the windows import
// a helper such as isUnlimited through the engine's one door without the whole engine following it into their bundle.
const treeshake = { moduleSideEffects: [{ test: /[\\/]src[\\/]engine[\\/]/, sideEffects: false }] }

// The phishing, token, known-spender and Aave token lists are files the engine fetches, not part of the scripts it loads
// (build-plugins/bundledData.ts); the token list keeps what src/engine/assets/tokenList.ts reads, without the bridge
// addresses that are a quarter of its size. The engine runs in the scanner page's own worker, which Vite bundles
// apart from the pages, with plugins of its own: these.
const enginePlugins = () => [
  bundledData({
    'eth-phishing-detect/src/config.json': { name: 'phishing-list' },
    '@uniswap/default-token-list/build/uniswap-default.tokenlist.json': {
      name: 'token-list',
      keep: (list) => ({
        tokens: (list.tokens as Record<string, unknown>[]).map(({ extensions: _bridges, ...token }) => token),
      }),
    },
    './src/engine/risk/data/knownSpenders.json': { name: 'known-spenders', keep: ({ spenders }) => ({ spenders }) },
    './src/engine/risk/data/aaveInterestTokens.json': {
      name: 'aave-interest-tokens',
      keep: ({ tokens }) => ({ tokens }),
    },
  }),
  prebuiltAbi(/[\\/]src[\\/]engine[\\/]/),
]

// Scripts are written in ASCII: one character outside it (an ellipsis in a label) made Chromium decode the whole file
// into two-byte text before V8 could scan it (traced: 7.4 ms for the 230 kB React chunk;
// 2.8 ms for the whole 316 kB window script once ASCII).
const output = { charset: 'ascii' } as const
const target = 'chrome116'

// The confirmation page and the scanner page are opened by the worker, not named in the manifest. The confirmation
// page is built apart, as one script (build-plugins/singleScriptPage.ts); the scanner page is an extra input. Module
// preload links let the other pages fetch every chunk they need at once, not one import level after another; no
// polyfill, which touches `document`, absent in the service worker.
export default defineConfig({
  plugins: [
    ...enginePlugins(),
    crx({ manifest: manifest as ManifestV3Export }),
    workerSize(manifest.background.service_worker),
    inlineCss(),
    singleScriptPage('src/extension/ui/confirm.html', {
      plugins: [...enginePlugins(), inlineCss()],
      build: { target, rollupOptions: { treeshake, output } },
    }),
  ],
  worker: { format: 'es', plugins: enginePlugins, rollupOptions: { treeshake, output } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target,
    sourcemap: false,
    modulePreload: { polyfill: false },
    rollupOptions: { input: { scanner: 'src/extension/scanner/scanner.html' }, treeshake, output },
  },
})
