/**
 * The scanner page closes itself after a long idle: open, it keeps the extension's renderer process alive (about
 * 48 MB) while nobody uses a dapp, which Chrome would otherwise end along with the stopped worker.
 */

/** Calls `close` once `idleMs` passed since the last touch; `busy` then (a scan still running) waits another round. */
export function closeWhenIdle(idleMs: number, busy: () => boolean, close: () => void): { touch(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(() => (busy() ? arm() : close()), idleMs)
  }
  arm()
  return { touch: arm }
}
