/** The confirmation window: one small popup window that shows the pending requests one at a time. */
import type { Browser } from 'webextension-polyfill'

const CONFIRM_PAGE = 'src/extension/ui/confirm.html'
const WIDTH = 420
const HEIGHT = 640

/** The page URL the window shows for request `id`. */
function confirmUrl(browser: Browser, id: string): string {
  return `${browser.runtime.getURL(CONFIRM_PAGE)}?id=${encodeURIComponent(id)}`
}

/** Opens the window for request `id` and returns its window id. */
export async function openConfirmWindow(browser: Browser, id: string): Promise<number> {
  const created = await browser.windows.create({
    url: confirmUrl(browser, id),
    type: 'popup',
    width: WIDTH,
    height: HEIGHT,
    focused: true,
  })
  if (created.id === undefined) throw new Error('the browser opened no window')
  return created.id
}

/** Whether window `windowId` is still open (the user may have closed it while the worker was stopped). */
export async function windowExists(browser: Browser, windowId: number): Promise<boolean> {
  return browser.windows.get(windowId).then(
    () => true,
    () => false,
  )
}
