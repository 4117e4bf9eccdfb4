import type { PendingRequest } from '../../shared/pending.ts'

/**
 * Said when the user continued and a fresh scan came out worse than the one they read: what changed, and why that is
 * how a drainer works. Nothing was sent to the wallet; what is below is the fresh scan.
 */
export function ChangedWhileShown({ change }: { change: NonNullable<PendingRequest['changedWhileShown']> }) {
  return (
    <section className="banner banner-BLOCK" role="alert" data-testid="changed-while-shown">
      <strong>What this transaction does changed while you were reading it</strong>
      <p>
        Preflight checked it again as you continued, and nothing was sent to your wallet. Something on chain changed its
        outcome: a contract that shows a harmless result and then switches is how simulation-spoofing drainers work.
        What is below is the outcome now. Continue only if you know why it changed.
      </p>
      <ul>
        {change.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  )
}
