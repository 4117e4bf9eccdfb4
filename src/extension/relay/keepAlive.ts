/**
 * Keeps the worker running while a person is using this page with their wallet. Chrome stops an idle extension worker
 * after 30 s, and a stopped worker's first request costs it a start and a cold engine (issue 12): the request a person
 * makes after reading a dapp's page for a minute would meet one. So, for KEEP_ALIVE_FOR_MS after the page last used
 * the wallet (connected, estimated gas, asked for a signature), and only while the page is visible, the relay sends
 * the worker a message every KEEP_ALIVE_EVERY_MS: receiving it restarts Chrome's idle timer, as wallets such as
 * MetaMask do for their own workers. A hidden or idle page lets the worker stop; a page shown again within the window
 * wakes it at once, before the person acts.
 */

/** Under Chrome's 30 s idle timeout, with room for a busy machine's late timer. */
export const KEEP_ALIVE_EVERY_MS = 20_000
/** How long after the page last used the wallet the worker is kept running for it. */
export const KEEP_ALIVE_FOR_MS = 10 * 60_000

/** What keeping alive needs of the page: whether it is visible, and word when that changes. */
export type Visibility = {
  readonly visibilityState: DocumentVisibilityState
  addEventListener(type: 'visibilitychange', listener: (event: { readonly isTrusted: boolean }) => void): void
}

/**
 * Starts keeping the worker alive for the page; `ping` sends the worker a message (reconnecting when the worker was
 * stopped) and says whether it could, so an orphaned relay (the extension reloaded) stops trying.
 */
export function createKeepAlive(ping: () => boolean, page: Visibility) {
  let lastUse = Number.NEGATIVE_INFINITY
  let timer: ReturnType<typeof setInterval> | undefined

  const stop = () => {
    clearInterval(timer)
    timer = undefined
  }
  const tick = () => {
    if (Date.now() - lastUse > KEEP_ALIVE_FOR_MS) return stop()
    if (page.visibilityState === 'visible' && !ping()) stop()
  }
  // The page shares this document and can dispatch the event itself, as often as it likes: only the browser's count.
  page.addEventListener('visibilitychange', (event) => {
    if (event.isTrusted && timer !== undefined) tick()
  })

  return {
    /** The page used the wallet: keep the worker running for it from now on. */
    used() {
      lastUse = Date.now()
      timer ??= setInterval(tick, KEEP_ALIVE_EVERY_MS)
    },
    /** Whether the page has used the wallet since it loaded (see wakeOnInput.ts). */
    hasUsed: () => lastUse > Number.NEGATIVE_INFINITY,
  }
}
