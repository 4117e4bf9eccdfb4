import type { PendingRequest } from '../../shared/pending.ts'

const CHANGED = {
  title: 'What this transaction does changed while you were reading it',
  detail:
    'Preflight checked it again as you continued, and nothing was sent to your wallet. Something on chain changed ' +
    'its outcome: a contract that shows a harmless result and then switches is how simulation-spoofing drainers ' +
    'work. What is below is the outcome now. Continue only if you know why it changed.',
}

const SECOND_LOOK = {
  title: 'A second look at this transaction found a worse outcome',
  detail:
    'Right after showing it, Preflight ran this transaction again as a block runs it (with real fees and gas), and ' +
    'nothing was sent to your wallet. The outcome came out worse than the first look: a contract that pays back only ' +
    'while it is simulated, or switches once the window is open, is how drainers work. What is below is the second ' +
    'look. Continue only if you know why they differ.',
}

const UNCHECKED = {
  title: 'Preflight could not check this transaction again',
  detail:
    'As you continued, Preflight tried to check that its outcome is still what is below, and could not, so nothing ' +
    'was sent to your wallet. What is below is from when the window opened: if it changed since, Preflight cannot ' +
    'tell. A switched contract can make its own check fail. Continue only if you trust this site.',
}

/**
 * Said when a fresh scan (the second look, or the user's Continue) came out worse than the one they read, or could
 * not be made as they continued: what changed (or why it could not be checked), and why that matters. Nothing was
 * sent to the wallet.
 */
export function ChangedWhileShown({ change }: { change: NonNullable<PendingRequest['changedWhileShown']> }) {
  const copy = change.unchecked ? UNCHECKED : change.secondLook ? SECOND_LOOK : CHANGED
  return (
    <section className="banner banner-BLOCK" role="alert" data-testid="changed-while-shown">
      <strong>{copy.title}</strong>
      <p>{copy.detail}</p>
      <ul>
        {change.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  )
}
