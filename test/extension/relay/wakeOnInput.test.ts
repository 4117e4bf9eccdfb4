import { describe, expect, it, vi } from 'vitest'
import { type InputTarget, WAKING_INPUT, wakeOnInput } from '../../../src/extension/relay/wakeOnInput.ts'

type Listener = (event: { isTrusted: boolean }) => void

/** A frame the test presses in: `press(type, isTrusted)` runs the listeners as the browser would. */
function fakeFrame() {
  const listeners: { type: string; listener: Listener; options: object }[] = []
  const target: InputTarget = {
    addEventListener: (type, listener, options) => void listeners.push({ type, listener, options }),
  }
  const press = (type: string, isTrusted: boolean) => {
    for (const entry of listeners) if (entry.type === type) entry.listener({ isTrusted })
  }
  return { target, listeners, press }
}

describe('wakeOnInput', () => {
  it('wakes on each trusted pointer or key press once the page has used the wallet, and not before', () => {
    const frame = fakeFrame()
    const wake = vi.fn()
    let used = false
    wakeOnInput(frame.target, () => used, wake)
    frame.press('pointerdown', true)
    frame.press('keydown', true)
    expect(wake).not.toHaveBeenCalled()
    used = true
    frame.press('pointerdown', true)
    frame.press('keydown', true)
    expect(wake).toHaveBeenCalledTimes(2)
  })

  it('ignores the events the page dispatches itself (untrusted), and presses it only moves through', () => {
    const frame = fakeFrame()
    const wake = vi.fn()
    wakeOnInput(frame.target, () => true, wake)
    frame.press('pointerdown', false)
    frame.press('keydown', false)
    frame.press('pointermove', true)
    frame.press('keyup', true)
    expect(wake).not.toHaveBeenCalled()
  })

  it('listens in the capture phase, passively: handlers the page adds later cannot stop it, and scrolling never waits on it', () => {
    const frame = fakeFrame()
    wakeOnInput(
      frame.target,
      () => true,
      () => {},
    )
    expect(frame.listeners.map(({ type, options }) => ({ type, options }))).toEqual(
      WAKING_INPUT.map((type) => ({ type, options: { capture: true, passive: true } })),
    )
  })
})
