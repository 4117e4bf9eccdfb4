import type { MultisigContext } from '../../../engine/index.ts'
import { AddressText } from './AddressText.tsx'
import { CopyButton } from './CopyButton.tsx'

/** What the nonce comparison means for the signer: next in line, queued behind others, or already used. */
function nonceStatus(current: string, message: string): { text: string; alert: boolean } {
  const now = BigInt(current)
  const asked = BigInt(message)
  if (asked === now) return { text: 'next to execute', alert: false }
  if (asked > now)
    return { text: `queued: ${asked - now} earlier Safe transaction(s) must execute first`, alert: false }
  return { text: 'already used: this Safe transaction can never execute', alert: true }
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

/** The Safe a signer is asked to sign for, and the hashes to compare with what the hardware wallet displays. */
export function MultisigPanel({ multisig }: { multisig: MultisigContext }) {
  const nonce = nonceStatus(multisig.currentNonce, multisig.messageNonce)
  return (
    <section className="card" aria-labelledby="safe-title">
      <h2 id="safe-title">Safe transaction</h2>
      <dl className="facts">
        <dt>Safe</dt>
        <dd>
          <AddressText address={multisig.wallet} what="Safe address" />{' '}
          <span className="muted">v{multisig.version}</span>
        </dd>
        <dt>Threshold</dt>
        <dd>
          {multisig.threshold} of {multisig.owners.length} owners
        </dd>
        <dt>Nonce</dt>
        <dd>
          {multisig.messageNonce} <span className="muted">(Safe is at {multisig.currentNonce})</span>
          <div className={nonce.alert ? 'nonce-alert' : 'muted'}>{nonce.text}</div>
        </dd>
      </dl>
      <p className="muted" style={{ margin: '8px 0 0' }}>
        Compare these with your hardware wallet before signing:
      </p>
      <HashRow label="safeTxHash" value={multisig.safeTxHash} />
      <HashRow label="Domain hash" value={multisig.domainHash} />
      <HashRow label="Message hash" value={multisig.messageHash} />
    </section>
  )
}
