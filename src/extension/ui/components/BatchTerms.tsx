import type { BatchTerm } from '../lib/batchTerms.ts'

/** What a batch asks of the wallet beyond its calls, each in words, marked where the simulation does not show it. */
export function BatchTerms({ terms }: { terms: BatchTerm[] }) {
  return (
    <section className="card" aria-labelledby="batch-terms-title" data-testid="batch-terms">
      <h2 id="batch-terms-title">What the batch asks of your wallet</h2>
      <ul className="terms">
        {terms.map((term) => (
          <li key={`${term.call ?? 0}:${term.name}`} data-term={term.name}>
            <div className="term-head">
              <span className="term-name">
                <span className="mono">{term.name}</span>
                {term.call !== null && <span className="muted"> (call {term.call})</span>}
              </span>
              {term.unsimulated && <span className="tag">not simulated</span>}
            </div>
            <p>
              {term.text}
              {term.optional && <span className="muted"> Optional: the wallet may go without it.</span>}
            </p>
          </li>
        ))}
      </ul>
    </section>
  )
}
