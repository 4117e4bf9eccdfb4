/**
 * User Timing marks for the two moments a person waits for in the confirmation window: the request first on screen,
 * and its results. Nothing reads them unless someone looks: DevTools' Performance panel shows them, and
 * `npm run bench:extension` reads them without attaching a debugger to the window, which would slow what it measures.
 */
import { useLayoutEffect } from 'react'

export const REQUEST_SHOWN = 'preflight:request-shown'
export const RESULTS_SHOWN = 'preflight:results-shown'

const markOnce = (name: string) => {
  if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name)
}

/** Marks the first commit that shows a request (`action` set) and the first that shows results (not PENDING). */
export function useShownMarks(action: string | undefined): void {
  // A layout effect runs right after React wrote the DOM, before the browser paints it.
  useLayoutEffect(() => {
    if (action === undefined) return
    markOnce(REQUEST_SHOWN)
    if (action !== 'PENDING') markOnce(RESULTS_SHOWN)
  }, [action])
}
