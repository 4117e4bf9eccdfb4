import type { PendingRequest } from '../../shared/pending.ts'
import { methodWords } from '../lib/confirmView.ts'
import { askingSite } from '../lib/siteOrigin.ts'

type Props = {
  /** The requests waiting in this window, oldest first (the shown one among them). */
  queue: PendingRequest[]
  shownId: string
  /**
   * Rejects every waiting request at once (a page flooding the window). Named "Refuse all": the window's own
   * buttons are "Continue" and "Reject" (DESIGN), and no other button's name may contain either.
   */
  onRejectAll: () => void
}

/**
 * Where the shown request stands in the queue, who else is waiting, and what closing the window does. Waiting
 * requests are listed but cannot be decided out of turn: each is decided only while its own scan is on screen, and
 * in arrival order, the order the dapps expect their answers in (an approval before the swap that needs it).
 */
export function QueueBar({ queue, shownId, onRejectAll }: Props) {
  if (queue.length < 2) return null
  const position = queue.findIndex((request) => request.id === shownId) + 1
  const waiting = queue.filter((request) => request.id !== shownId)
  return (
    <section className="card queue" aria-label="Request queue">
      <p className="queue-position" data-testid="queue-position">
        <strong>
          Request {position} of {queue.length}
        </strong>{' '}
        <span className="muted">· the next one shows after you decide this one</span>
      </p>
      <details>
        <summary>{waiting.length === 1 ? '1 more request waiting' : `${waiting.length} more requests waiting`}</summary>
        <ol className="queue-list">
          {waiting.map((request) => (
            <li key={request.id} data-testid="queued-request">
              <span className="origin">{askingSite(request)}</span>{' '}
              <span className="muted">· {methodWords(request.method)}</span>
            </li>
          ))}
        </ol>
      </details>
      <p className="muted" data-testid="close-note">
        Closing this window rejects all {queue.length} requests.
      </p>
      <button type="button" className="small-button" onClick={onRejectAll}>
        Refuse all {queue.length}
      </button>
    </section>
  )
}
