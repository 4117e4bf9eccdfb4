import { describe, expect, it } from 'vitest'
import type { Runtime } from 'webextension-polyfill'
import { requestSender } from '../../../src/extension/background/sender.ts'

const from = (fields: Record<string, unknown>) => requestSender(fields as unknown as Runtime.MessageSender)
const TAB = { id: 4, url: 'https://victim.example/gallery' }

describe('requestSender', () => {
  it('takes the origin the browser reports for the frame, and names the page around a frame from another origin', () => {
    expect(from({ origin: 'https://victim.example', url: 'https://victim.example/a', tab: TAB, frameId: 0 })).toEqual({
      origin: 'https://victim.example',
      tabId: 4,
      frameId: 0,
    })
    // An about:blank frame's URL says nothing; the browser's origin is the one it inherited.
    expect(from({ origin: 'https://widget.example', url: 'about:blank', tab: TAB, frameId: 2 })).toEqual({
      origin: 'https://widget.example',
      topOrigin: 'https://victim.example',
      tabId: 4,
      frameId: 2,
    })
  })

  it('marks a sandboxed document: the site that served it, which it cannot act as', () => {
    // An <iframe sandbox> or a CSP sandbox: the browser reports the origin "null" for a document served from a site.
    expect(from({ origin: 'null', url: 'https://victim.example/uploads/1.html', tab: TAB, frameId: 3 })).toEqual({
      origin: 'https://victim.example',
      sandboxed: true,
      tabId: 4,
      frameId: 3,
    })
    // A data: document has no site to be confused with.
    expect(from({ origin: 'null', url: 'data:text/html,<p>hi', tab: TAB, frameId: 5 })).toEqual({
      origin: 'null',
      topOrigin: 'https://victim.example',
      tabId: 4,
      frameId: 5,
    })
  })

  it('refuses a message that did not come from a tab', () => {
    expect(from({ origin: 'https://victim.example', url: 'https://victim.example/' })).toBeUndefined()
    expect(from({ origin: 'https://victim.example', tab: { id: -1 } })).toBeUndefined()
  })
})
