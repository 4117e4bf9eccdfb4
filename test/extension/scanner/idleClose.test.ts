/** The scanner page's idle close: after the last order and a quiet round, never while a scan runs. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { closeWhenIdle } from '../../../src/extension/scanner/idleClose.ts'

describe('closing the scanner page when idle', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('closes idleMs after the last touch, not before', () => {
    vi.useFakeTimers()
    const close = vi.fn()
    const idle = closeWhenIdle(1_000, () => false, close)
    vi.advanceTimersByTime(900)
    idle.touch()
    vi.advanceTimersByTime(900)
    expect(close).not.toHaveBeenCalled()
    vi.advanceTimersByTime(100)
    expect(close).toHaveBeenCalledOnce()
  })

  it('waits another round while a scan is running, and closes once it has ended', () => {
    vi.useFakeTimers()
    const close = vi.fn()
    let running = true
    closeWhenIdle(1_000, () => running, close)
    vi.advanceTimersByTime(2_500)
    expect(close).not.toHaveBeenCalled()
    running = false
    vi.advanceTimersByTime(500)
    expect(close).toHaveBeenCalledOnce()
  })
})
