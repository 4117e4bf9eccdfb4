/** Who sent a message, as the browser reports it: the page never gets to say where it comes from. */
import type { Runtime } from 'webextension-polyfill'

export type RequestSender = { origin: string; topOrigin?: string; sandboxed?: true; tabId: number; frameId: number }

const originOfUrl = (url: string | undefined): string | undefined => {
  if (!url) return undefined
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/** The requesting frame's origin, tab and frame; undefined when the message did not come from a tab. */
export function requestSender(sender: Runtime.MessageSender | undefined): RequestSender | undefined {
  const tabId = sender?.tab?.id
  if (!sender || tabId === undefined || tabId < 0) return undefined
  // Chrome's sender.origin is the frame's real origin, also for about:blank and srcdoc frames whose URL says nothing.
  const reported = (sender as { origin?: string }).origin
  const served = originOfUrl(sender.url)
  // "null" from a document served from a site: a sandbox took that site's origin away, and it stays away here.
  const sandboxed = reported === 'null' && served !== undefined && served !== 'null'
  const origin = reported && reported !== 'null' ? reported : (served ?? reported ?? 'null')
  const frameId = sender.frameId ?? 0
  const top = frameId === 0 ? undefined : originOfUrl(sender.tab?.url)
  return {
    origin,
    ...(top && top !== origin ? { topOrigin: top } : {}),
    ...(sandboxed ? { sandboxed: true } : {}),
    tabId,
    frameId,
  }
}

/** True for the extension's own pages (the confirmation window), the only senders whose decisions count. */
export function isExtensionPage(sender: Runtime.MessageSender | undefined, extensionId: string, baseUrl: string) {
  return sender?.id === extensionId && typeof sender.url === 'string' && sender.url.startsWith(baseUrl)
}
