import type { FeeView } from '../lib/feeView.ts'

/** What the transaction can cost in fees, paid whatever else it does, and the nonce where the site fixed it. */
export function Fees({ fees }: { fees: FeeView }) {
  return (
    <section className="card" data-testid="fees">
      <h2>Network fee</h2>
      <dl className="facts">
        <dt>Gas limit</dt>
        <dd>
          {fees.gasLimit ? (
            <>
              {fees.gasLimit.text}
              {fees.gasLimit.source === 'simulation' && <span className="muted"> (estimated; the wallet sets it)</span>}
            </>
          ) : (
            <span className="muted">set by your wallet</span>
          )}
        </dd>
        <dt>Price</dt>
        <dd>{fees.price ?? <span className="muted">set by your wallet</span>}</dd>
        <dt>At most</dt>
        <dd data-testid="fee-worst-case">
          {fees.worstCase ? <strong>{fees.worstCase}</strong> : <span className="muted">set by your wallet</span>}
        </dd>
        {fees.nonce !== null && (
          <>
            <dt>Nonce</dt>
            <dd data-testid="fee-nonce">
              {fees.nonce} <span className="muted">(set by the site)</span>
            </dd>
          </>
        )}
      </dl>
    </section>
  )
}
