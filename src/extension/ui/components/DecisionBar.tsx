import { type RefObject, useCallback, useEffect, useRef, useState } from 'react'
import type { Decision } from '../../shared/pending.ts'
import type { ShownAction } from '../lib/confirmView.ts'

type Props = {
  action: ShownAction
  /** Continue only after ticking "I understand the risk" (BLOCK, and ERROR when the settings ask for it). */
  needsAcknowledgement: boolean
  /** A decision is on its way (or made): neither button does anything. */
  busy: boolean
  /** Both buttons stay disabled this long after mounting (a request that replaced another in the same window). */
  armAfterMs: number
  onDecide: (decision: Decision) => void
}

/** False for `ms` after mounting, then true. */
function useArmed(ms: number): boolean {
  const [armed, setArmed] = useState(ms <= 0)
  useEffect(() => {
    if (ms <= 0) return
    const timer = setTimeout(() => setArmed(true), ms)
    return () => clearTimeout(timer)
  }, [ms])
  return armed
}

/** How long Continue waits, once the results show, for a moment without a press in the window before it arms. */
const QUIET_MS = 600

/** How far Continue may shift (layout rounding as text settles) without counting as moved: less than a click can miss. */
const MOVE_TOLERANCE_PX = 1

/**
 * A press this soon after Continue was shown armed was aimed at an armed button, though it lands on a disabled one:
 * the window says it did nothing. Later presses on a disabled Continue need no word; the person saw it was not armed.
 */
const JUST_ARMED_MS = 500

/**
 * Where an element sits in the window, what a click lands on. The decision bar sticks to the window's bottom on a long
 * request, so the user's own scrolling does not move it; Continue itself is watched, not the bar, since a change
 * inside the bar can move it while the bar stays put.
 */
function placeOf(element: HTMLElement | null): number[] {
  if (!element) return []
  const box = element.getBoundingClientRect()
  return [box.left, box.top, box.width, box.height]
}

/** Whether two places differ by a click's worth: a side by MOVE_TOLERANCE_PX or more, or one place missing. */
function differ(one: number[], other: number[]): boolean {
  if (one.length !== other.length) return true
  return one.some((value, index) => Math.abs(value - (other[index] as number)) >= MOVE_TOLERANCE_PX)
}

/**
 * False until `ready` has been true for `ms` without a pointer or key press in the window and without `watched`
 * moving: each press meanwhile, and each move at any time, starts the wait over. A page that has its user click or
 * press keys over and over where the window opens (a game, "click to claim") cannot have one of those land on Continue
 * as the results appear; nor can a page that times a second request, whose queue bar pushes the buttons down, have a
 * click aimed at what was there land on Continue as it moves under it. The user who stops to read arms it.
 * `takeClick` says whether a click on `watched` acts, from the moment of the click, before React has rendered what the
 * press found; `ignored` counts the presses on `watched`, shown armed or just before, that did not act. A press that
 * starts the wait over is counted as it starts, since the click that follows can reach a button React has already
 * disabled, which does nothing at all; a click that finds the window not quiet after its press did is counted then.
 */
function useQuietAfter(
  ready: boolean,
  ms: number,
  watched: RefObject<HTMLElement | null>,
): { quiet: boolean; takeClick: () => boolean; ignored: number } {
  const [quiet, setQuiet] = useState(false)
  const [ignored, setIgnored] = useState(0)
  const quietNow = useRef(false)
  // The press on `watched` that led to the coming click is already counted as ignored.
  const pressCounted = useRef(false)
  useEffect(() => {
    if (!ready) return
    let timer: ReturnType<typeof setTimeout> | undefined
    let place = placeOf(watched.current)
    // When Continue last stopped being shown armed.
    let disarmedAt = Number.NEGATIVE_INFINITY
    const restart = () => {
      if (quietNow.current) disarmedAt = performance.now()
      quietNow.current = false
      setQuiet(false)
      clearTimeout(timer)
      timer = setTimeout(() => {
        quietNow.current = true
        setQuiet(true)
      }, ms)
    }
    // Checked at each press too: a layout change and the click it moves Continue under can come before the next frame.
    const moved = () => {
      const now = placeOf(watched.current)
      if (!differ(now, place)) return false
      place = now
      return true
    }
    const onPress = (event: Event) => {
      pressCounted.current = false
      if (!moved() && quietNow.current) return
      const target = watched.current
      const shownArmed = !!target && (!target.matches(':disabled') || performance.now() - disarmedAt < JUST_ARMED_MS)
      restart()
      const activates = !(event instanceof KeyboardEvent) || event.key === 'Enter' || event.key === ' '
      if (activates && shownArmed && event.target instanceof Node && target?.contains(event.target)) {
        pressCounted.current = true
        setIgnored((count) => count + 1)
      }
    }
    const onLayout = () => {
      if (moved()) restart()
    }
    const layout = new ResizeObserver(onLayout)
    layout.observe(document.documentElement)
    if (watched.current) layout.observe(watched.current)
    window.addEventListener('resize', onLayout)
    window.addEventListener('scroll', onLayout, true)
    window.addEventListener('pointerdown', onPress, true)
    window.addEventListener('keydown', onPress, true)
    restart()
    return () => {
      clearTimeout(timer)
      layout.disconnect()
      window.removeEventListener('resize', onLayout)
      window.removeEventListener('scroll', onLayout, true)
      window.removeEventListener('pointerdown', onPress, true)
      window.removeEventListener('keydown', onPress, true)
      quietNow.current = false
      setQuiet(false)
    }
  }, [ready, ms, watched])
  const takeClick = useCallback(() => {
    const counted = pressCounted.current
    pressCounted.current = false
    if (quietNow.current) return true
    if (!counted) setIgnored((count) => count + 1)
    return false
  }, [])
  return { quiet, takeClick, ignored }
}

/**
 * Continue and Reject. Reject has focus by default unless the scan found nothing, so a stray Enter never approves a
 * risky request; Escape rejects. A request that follows another in the same window arms its buttons only after a
 * moment, so a double click or a repeated key meant for the previous request cannot decide it; Continue arms only
 * after a quiet moment once the results show, and again after the buttons move (see useQuietAfter).
 */
export function DecisionBar({ action, needsAcknowledgement, busy, armAfterMs, onDecide }: Props) {
  const [acknowledged, setAcknowledged] = useState(false)
  const armed = useArmed(armAfterMs)
  const reject = useRef<HTMLButtonElement>(null)
  const proceed = useRef<HTMLButtonElement>(null)
  // Presses of Continue it did not act on: the person who made one sees nothing happen, so the window says why.
  const { quiet, takeClick, ignored: ignoredPresses } = useQuietAfter(action !== 'PENDING', QUIET_MS, proceed)

  useEffect(() => {
    if (action === 'PENDING' || !armed) return
    if (action !== 'NONE') reject.current?.focus()
    else if (quiet) proceed.current?.focus()
  }, [action, armed, quiet])

  useEffect(() => {
    if (!armed) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDecide('reject')
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onDecide, armed])

  const risky = needsAcknowledgement
  const idle = armed && !busy
  const canContinue = action !== 'PENDING' && quiet && idle && (!risky || acknowledged)
  return (
    <footer className="decision" data-ignored-presses={ignoredPresses}>
      {risky && (
        <label className="ack">
          <input type="checkbox" checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)} />
          <span>I understand the risk and want to continue anyway</span>
        </label>
      )}
      <div className="buttons">
        <button
          ref={reject}
          type="button"
          className={risky || action !== 'NONE' ? 'primary' : ''}
          disabled={!idle}
          onClick={() => onDecide('reject')}
        >
          Reject
        </button>
        <button
          ref={proceed}
          type="button"
          className={risky ? 'danger-secondary' : action === 'NONE' ? 'primary' : ''}
          disabled={!canContinue}
          onClick={() => {
            if (takeClick()) onDecide('continue')
          }}
        >
          Continue
        </button>
      </div>
      {ignoredPresses > 0 && (
        <p className="muted" role="status" data-testid="continue-ignored">
          The window changed as you pressed, so Continue did nothing. Check what it shows, then press Continue again.
        </p>
      )}
    </footer>
  )
}
