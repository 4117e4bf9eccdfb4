import { differingRuns } from '../lib/addressDiff.ts'
import { checksum } from '../lib/format.ts'

/** The address a request sends to above the one it mimics, in full, with the characters that differ marked. */
export function LookalikeAddresses({ address, lookalikeOf }: { address: string; lookalikeOf: string }) {
  const sendsTo = checksum(address)
  const sentBefore = checksum(lookalikeOf)
  const row = (label: string, shown: string, other: string) => (
    <>
      <dt>{label}</dt>
      <dd className="mono">
        {differingRuns(shown, other).map((run, index) =>
          // biome-ignore lint/suspicious/noArrayIndexKey: runs are positional and never reordered.
          run.differs ? <mark key={index}>{run.text}</mark> : <span key={index}>{run.text}</span>,
        )}
      </dd>
    </>
  )
  return (
    <dl className="lookalike" data-testid="lookalike-addresses">
      {row('This sends to', sendsTo, sentBefore)}
      {row('You sent to', sentBefore, sendsTo)}
    </dl>
  )
}
