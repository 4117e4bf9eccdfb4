import type { MultisigContext, SafeMessageContext } from '../../../engine/index.ts'
import type { ControlChange } from '../lib/controlView.ts'
import { AddressText } from './AddressText.tsx'
import { CopyButton } from './CopyButton.tsx'

/** What the nonce comparison means for the signer: next in line, queued behind others, or already used. */
function nonceStatus(current: string, message: string): { text: string; alert: boolean } {
  const now = BigInt(current)
  const asked = BigInt(message)
  if (asked === now) return { text: 'next to execute', alert: false }
  if (asked > now) {
    const ahead = asked - now
    return {
      text: `queued: ${ahead} ${ahead === 1n ? 'proposal is' : 'proposals are'} ahead of it (simulated on today’s state)`,
      alert: false,
    }
  }
  return { text: 'already executed or replaced: this Safe transaction can never execute', alert: true }
}

/** The Safe a signer acts for, and how many of its owners must sign: the first rows of either panel's facts. */
function SafeFacts({ safe }: { safe: Pick<MultisigContext, 'wallet' | 'version' | 'threshold' | 'owners'> }) {
  return (
    <>
      <dt>Safe</dt>
      <dd>
        <AddressText address={safe.wallet} what="Safe address" />{' '}
        <span className="muted">{safe.version === 'unknown' ? 'version not readable' : `v${safe.version}`}</span>
      </dd>
      <dt>Threshold</dt>
      <dd>
        {safe.threshold} of {safe.owners.length} owners
      </dd>
    </>
  )
}

function HashRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="hash-row">
      <div className="label">
        <span>{label}</span>
        <CopyButton value={value} what={label} />
      </div>
      <div className="hash">{value}</div>
    </div>
  )
}

/** Who controls the Safe before and after, each change a state change row, the most severe in the engine's colour. */
function ControlChanges({ control }: { control: ControlChange[] }) {
  return (
    <>
      <h3 className="control-title">What changes in control</h3>
      <ul className="changes control">
        {control.map((change) => (
          <li
            key={`${change.safe}:${change.field}`}
            className={`change control-change control-${change.severity ?? 'INFO'}`}
            data-testid="state-change"
            data-kind="SAFE_CONFIGURATION_CHANGE"
            data-field={change.field}
            data-severity={change.severity ?? undefined}
          >
            <span className="control-label">{change.label}</span>
            <div className="change-text">{change.text}</div>
          </li>
        ))}
      </ul>
    </>
  )
}

type Props = {
  /** The Safe transaction message's context (hashes, nonce), or null for a transaction scan. */
  multisig: MultisigContext | null
  control: ControlChange[]
}

/**
 * The Safe a signer acts for: first what changes in who controls it (before → after, in words), then the Safe itself
 * and, for a message, the hashes to compare with what the hardware wallet displays.
 */
export function SafePanel({ multisig, control }: Props) {
  const nonce = multisig && nonceStatus(multisig.currentNonce, multisig.messageNonce)
  return (
    <section className="card safe-panel" aria-labelledby="safe-title">
      <h2 id="safe-title">Safe transaction</h2>
      {control.length > 0 && <ControlChanges control={control} />}
      {multisig && nonce && (
        <>
          <dl className="facts">
            <SafeFacts safe={multisig} />
            <dt>Nonce</dt>
            <dd>
              {multisig.messageNonce} <span className="muted">(Safe is at {multisig.currentNonce})</span>
              <div className={nonce.alert ? 'nonce-alert' : 'muted'} data-testid="nonce-status">
                {nonce.text}
              </div>
            </dd>
          </dl>
          <p className="muted" style={{ margin: '8px 0 0' }}>
            Compare these with your hardware wallet before signing:
          </p>
          <HashRow label="safeTxHash" value={multisig.safeTxHash} />
          <HashRow label="Domain hash" value={multisig.domainHash} />
          <HashRow label="Message hash" value={multisig.messageHash} />
        </>
      )}
    </section>
  )
}

/**
 * A Safe message: the Safe that would sign in its own name, what it signs (text, or the hash that hides the dapp's
 * message) and the hashes to compare with the Safe app and the hardware wallet.
 */
export function SafeMessagePanel({ safeMessage }: { safeMessage: SafeMessageContext }) {
  return (
    <section className="card safe-panel" aria-labelledby="safe-message-title" data-testid="safe-message">
      <h2 id="safe-message-title">Safe message</h2>
      <dl className="facts">
        <SafeFacts safe={safeMessage} />
        <dt>Signs</dt>
        <dd data-testid="safe-message-signs">
          {safeMessage.text === null ? (
            <span className="hash">{safeMessage.message}</span>
          ) : (
            <span style={{ whiteSpace: 'pre-wrap' }}>
              {safeMessage.text || <span className="muted">(nothing)</span>}
            </span>
          )}
        </dd>
      </dl>
      <p className="muted" style={{ margin: '8px 0 0' }}>
        Compare these with your Safe app and your hardware wallet before signing:
      </p>
      <HashRow label="SafeMessage hash" value={safeMessage.safeMessageHash} />
      <HashRow label="Domain hash" value={safeMessage.domainHash} />
      <HashRow label="Message hash" value={safeMessage.messageHash} />
    </section>
  )
}
