import { defineConfig } from 'vitest/config'

// Integration and e2e tests start their own anvil (and Chromium): give them time, and keep to the machine's 2 cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a browser or a server that shares 2 loaded cores: 1 s (vitest's default) is too short.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    maxWorkers: 2,
  },
})
