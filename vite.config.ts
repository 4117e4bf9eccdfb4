import { crx, type ManifestV3Export } from '@crxjs/vite-plugin'
import { defineConfig } from 'vite'
import manifest from './manifest.json' with { type: 'json' }

// The confirmation page is opened by the worker, not named in the manifest, so it is an extra input.
// Engine modules do nothing when imported (DESIGN: a platform-neutral library), and saying so lets the windows import
// a helper such as isUnlimited through the engine's one door without the whole engine following it into their bundle.
// No module preload: its helper touches `document`, which the service worker does not have.
export default defineConfig({
  plugins: [crx({ manifest: manifest as ManifestV3Export })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'chrome111',
    sourcemap: false,
    modulePreload: false,
    rollupOptions: {
      input: { confirm: 'src/extension/ui/confirm.html' },
      treeshake: { moduleSideEffects: [{ test: /[\\/]src[\\/]engine[\\/]/, sideEffects: false }] },
    },
  },
})
