import type { AskedCall } from '../lib/askedCalls.ts'
import { AddressText } from './AddressText.tsx'

/** What the request asks the wallet to do, as sent: for a window without a simulation to show. */
export function AskedCalls({ calls }: { calls: AskedCall[] }) {
  return (
    <section className="card" aria-labelledby="asked-title" data-testid="asked-calls">
      <h2 id="asked-title">What the request asks (not simulated)</h2>
      {calls.map((call, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one entry per call, in the request's order
        <dl className="facts asked" key={index}>
          {calls.length > 1 && (
            <>
              <dt>Call</dt>
              <dd>
                {index + 1} of {calls.length}
              </dd>
            </>
          )}
          <dt>To</dt>
          <dd>
            {call.to ? <AddressText address={call.to} what="recipient address" whole /> : 'a new contract it creates'}
          </dd>
          <dt>Sends</dt>
          <dd>{call.value}</dd>
          <dt>Data</dt>
          <dd>{call.data}</dd>
        </dl>
      ))}
    </section>
  )
}
