import { useEffect, useRef, useState } from 'react'
import type { Decision } from '../../shared/pending.ts'
import type { ShownAction } from '../lib/confirmView.ts'

type Props = {
  action: ShownAction
  /** Continue only after ticking "I understand the risk" (BLOCK, and ERROR when the settings ask for it). */
  needsAcknowledgement: boolean
  sending: Decision | null
  onDecide: (decision: Decision) => void
}

/**
 * Continue and Reject. Reject has focus by default unless the scan found nothing, so a stray Enter never approves a
 * risky request; Escape rejects.
 */
export function DecisionBar({ action, needsAcknowledgement, sending, onDecide }: Props) {
  const [acknowledged, setAcknowledged] = useState(false)
  const reject = useRef<HTMLButtonElement>(null)
  const proceed = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (action === 'PENDING') return
    ;(action === 'NONE' ? proceed : reject).current?.focus()
  }, [action])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onDecide('reject')
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [onDecide])

  const risky = needsAcknowledgement
  const canContinue = action !== 'PENDING' && !sending && (!risky || acknowledged)
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
          disabled={!!sending}
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
