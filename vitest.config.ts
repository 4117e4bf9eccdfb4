import { defineConfig } from 'vitest/config'

// Integration and e2e tests start their own anvil (and Chromium): give them time, and keep to the machine's 2 cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
})
