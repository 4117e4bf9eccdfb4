import { useEffect, useRef, useState } from 'react'
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

/**
 * False until `ready` has been true for `ms` without a pointer or key press in the window: each press meanwhile starts
 * the wait over. A page that has its user click or press keys over and over where the window opens (a game, "click to
 * claim") cannot have one of those land on Continue as the results appear; the user who stops to read arms it.
 */
function useQuietAfter(ready: boolean, ms: number): boolean {
  const [quiet, setQuiet] = useState(false)
  useEffect(() => {
    if (!ready) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const stop = () => {
      window.removeEventListener('pointerdown', restart, true)
      window.removeEventListener('keydown', restart, true)
    }
    const restart = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        stop()
        setQuiet(true)
      }, ms)
    }
    window.addEventListener('pointerdown', restart, true)
    window.addEventListener('keydown', restart, true)
    restart()
    return () => {
      clearTimeout(timer)
      stop()
      setQuiet(false)
    }
  }, [ready, ms])
  return quiet
}

/**
 * Continue and Reject. Reject has focus by default unless the scan found nothing, so a stray Enter never approves a
 * risky request; Escape rejects. A request that follows another in the same window arms its buttons only after a
 * moment, so a double click or a repeated key meant for the previous request cannot decide it; Continue arms only
 * after a quiet moment once the results show (see useQuietAfter).
 */
export function DecisionBar({ action, needsAcknowledgement, busy, armAfterMs, onDecide }: Props) {
  const [acknowledged, setAcknowledged] = useState(false)
  const armed = useArmed(armAfterMs)
  const quiet = useQuietAfter(action !== 'PENDING', QUIET_MS)
  const reject = useRef<HTMLButtonElement>(null)
  const proceed = useRef<HTMLButtonElement>(null)

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
    <footer className="decision">
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
          onClick={() => onDecide('continue')}
        >
          Continue
        </button>
      </div>
    </footer>
  )
}
