import { crx, type ManifestV3Export } from '@crxjs/vite-plugin'
import { defineConfig } from 'vite'
import manifest from './manifest.json' with { type: 'json' }

// The confirmation page is opened by the worker, not named in the manifest, so it is an extra input. No module
// preload: its helper touches `document`, which the service worker does not have when it loads a chunk on demand.
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
    },
  },
})
