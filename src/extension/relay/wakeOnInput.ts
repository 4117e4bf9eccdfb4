/**
 * A person starts most signing requests with a press: a click fires when the button is released, about a tenth of a
 * second after it went down, and a key press likewise. On a page that has used the wallet, a stopped worker is woken
 * on the press itself (the worker is told only when it is stopped, see workerLink's prelude), so it has started by the
 * time the request leaves the page. Only the browser's events count: the page can dispatch its own, marked untrusted.
 */

/** The input events that come before a request a person starts: a press of any pointer, or of a key. */
export const WAKING_INPUT = ['pointerdown', 'keydown'] as const

/** What waking on input needs of the frame: where the person's presses can be heard first. */
export type InputTarget = {
  addEventListener(
    type: (typeof WAKING_INPUT)[number],
    listener: (event: { readonly isTrusted: boolean }) => void,
    options: { capture: true; passive: true },
  ): void
}

/** Calls `wake` on each trusted press in `target` while `inUse()` says the page has used the wallet. */
export function wakeOnInput(target: InputTarget, inUse: () => boolean, wake: () => void): void {
  const listener = (event: { readonly isTrusted: boolean }) => {
    if (event.isTrusted && inUse()) wake()
  }
  for (const type of WAKING_INPUT) target.addEventListener(type, listener, { capture: true, passive: true })
}
