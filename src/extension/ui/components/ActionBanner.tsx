import type { ShownAction } from '../lib/confirmView.ts'

const COPY: Record<ShownAction, { title: string; detail: string }> = {
  PENDING: { title: 'Simulating…', detail: 'Preflight is running this request on a copy of the chain.' },
  NONE: { title: 'No issues found', detail: 'Check the changes below match what you expect.' },
  WARN: { title: 'Review the warnings before you continue', detail: 'Something here deserves a closer look.' },
  BLOCK: {
    title: 'Preflight recommends rejecting this request',
    detail: 'It matches known attacks or would hand over your assets.',
  },
  ERROR: {
    title: 'Preflight could not simulate this request',
    detail: 'You decide without a preview. If unsure, reject.',
  },
}

/** NONE from a scan that reported a problem (a malformed message, a revert): nothing known is wrong, but not all is known. */
const NONE_WITH_PROBLEMS = {
  title: 'Preflight could not check everything',
  detail: 'The scan reported a problem (below) and found no known threat. Read the problem before you decide.',
}

/** NONE for a transaction that fails: what happens is known, and it is nothing but the fee. */
const REVERTS = {
  title: 'This transaction would fail',
  detail: 'Sent anyway, it would change nothing and still cost the network fee. Why it fails is below.',
}

type Props = {
  action: ShownAction
  /** Why the scan failed (ERROR). */
  failure: string | null
  /** Whether the scan reported problems that did not stop it: then NONE does not mean "no issues". */
  problems: boolean
  /** A transaction of the request fails when simulated. */
  reverts?: boolean
  /** Why a Safe's control changes in a way judged CRITICAL (safeTakeoverWords), or null. */
  safeTakeover?: string | null
}

/** The recommended action in words a person understands, with the scan failure's reason when there is one. */
export function ActionBanner({ action, failure, problems, reverts = false, safeTakeover = null }: Props) {
  const unsure = action === 'NONE' && (problems || reverts)
  const copy = unsure
    ? reverts
      ? REVERTS
      : NONE_WITH_PROBLEMS
    : action === 'BLOCK' && safeTakeover
      ? { ...COPY.BLOCK, detail: safeTakeover }
      : COPY[action]
  return (
    <section className={`banner banner-${unsure ? 'WARN' : action}`} role={action === 'PENDING' ? 'status' : 'alert'}>
      <strong>
        {action === 'PENDING' && <span className="spinner" aria-hidden="true" />}
        {copy.title}
      </strong>
      <p>{copy.detail}</p>
      {failure && <p>Why: {failure}</p>}
    </section>
  )
}
