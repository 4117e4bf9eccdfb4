/** The confirmation window: one small popup window that shows the pending requests one at a time. */
import type { Browser } from 'webextension-polyfill'
import { ANNOUNCED_PARAM } from '../shared/pending.ts'

const CONFIRM_PAGE = 'src/extension/ui/confirm.html'
const WIDTH = 420
const HEIGHT = 640

/** The page URL the window shows for request `id`; `announced`: the request is not stored yet (see ANNOUNCED_PARAM). */
function confirmUrl(browser: Browser, id: string, announced: boolean): string {
  const page = `${browser.runtime.getURL(CONFIRM_PAGE)}?id=${encodeURIComponent(id)}`
  return announced ? `${page}&${ANNOUNCED_PARAM}=1` : page
}

/** Opens the window for request `id` and returns its window id. */
export async function openConfirmWindow(browser: Browser, id: string, { announced = false } = {}): Promise<number> {
  const created = await browser.windows.create({
    url: confirmUrl(browser, id, announced),
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
