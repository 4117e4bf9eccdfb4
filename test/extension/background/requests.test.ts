import { describe, expect, it } from 'vitest'
import { createPendingStore } from '../../../src/extension/background/pendingStore.ts'
import { createRequests } from '../../../src/extension/background/requests.ts'
import { failingScanner, relayPort, workerBrowser } from './support/workerBrowser.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const personalSign = (text: string) => ({
  method: 'personal_sign',
  params: [text, ACCOUNT],
  accounts: [ACCOUNT],
  chainId: '0x1',
  wallet: { label: 'test wallet', late: false },
})

describe('the worker’s requests', () => {
  it('a request whose page goes away while it waits its turn in the queue is settled, not shown to nobody', async () => {
    // The window takes 300 ms to open for the first page's request; the second page's request queues behind it.
    const { browser } = workerBrowser({ opensMs: 300 })
    const store = createPendingStore(browser.storage.session)
    const requests = createRequests(browser, store, failingScanner)
    const first = relayPort(1, 'https://a.example')
    const second = relayPort(2, 'https://b.example')
    requests.onConnect(first)
    requests.onConnect(second)
    first.send({ type: 'request', rid: 1, call: personalSign('0x61') })
    await new Promise((resolve) => setTimeout(resolve, 50))
    second.send({ type: 'request', rid: 1, call: personalSign('0x62') })
    await expect.poll(() => second.received.length).toBe(1)
    const { id } = second.received[0] as { type: string; id: string }
    second.disconnect()
    await expect.poll(async () => (await store.settled(id))?.decision, { timeout: 3_000 }).toBe('closed')
    expect(await store.get(id)).toBeUndefined()
    const firstId = (first.received[0] as { id: string }).id
    expect(await store.get(firstId)).toBeDefined()
  })

  it('a Continue that wakes a stopped worker is decided on the queue it rebuilt, and the window moves on', async () => {
    // Window lookups take 20 ms, as they can while Chrome is busy: the rebuilt queue is not ready at once.
    const { browser, closeWindow } = workerBrowser({ lookupMs: 20 })
    const before = createRequests(browser, createPendingStore(browser.storage.session), failingScanner)
    const [first, second] = [relayPort(1, 'https://a.example'), relayPort(2, 'https://b.example')]
    before.onConnect(first)
    before.onConnect(second)
    first.send({ type: 'request', rid: 1, call: personalSign('0x61') })
    await expect.poll(() => first.received.length).toBe(1)
    second.send({ type: 'request', rid: 1, call: personalSign('0x62') })
    await expect.poll(() => second.received.length).toBe(1)
    const [a, b] = [first, second].map((port) => (port.received[0] as { id: string }).id) as [string, string]
    const store = createPendingStore(browser.storage.session)
    await expect.poll(async () => (await store.get(b))?.scan.status).toBe('ERROR')
    // The worker stopped; the window's Continue on A starts a new one.
    const after = createRequests(browser, store, failingScanner)
    void after.recover()
    const reply = await after.decide(a, 'continue', 0)
    expect(reply).toEqual({ ok: true, next: b })
    // What the window does when told nothing is next: it closes, and closing it rejects what waits in it.
    if (reply.next === null) {
      closeWindow(100)
      await after.onWindowRemoved(100)
    }
    expect(await store.settled(b)).toBeUndefined()
  })
})
