import { Fragment } from 'react'
import { formatDollars } from '../lib/format.ts'
import { type AccountGroup, dollarTotals, splitGroups } from '../lib/stateChangeView.ts'
import { AddressText } from './AddressText.tsx'
import { TokenIcon } from './TokenIcon.tsx'

/** State changes grouped by account, the user's (or their Safe's) first; each row is one asset moving or approved. */
type Props = {
  groups: AccountGroup[]
  pending: boolean
  /** What to say when nothing changes, where "no asset changes" would reassure wrongly (a Safe message). */
  empty?: string
}

export function StateChanges({ groups, pending, empty = 'No asset changes were found.' }: Props) {
  const { own, others } = splitGroups(groups)
  return (
    <section className="card" aria-labelledby="changes-title">
      <h2 id="changes-title">What changes</h2>
      {pending && <p className="muted">Waiting for the simulation…</p>}
      {!pending && !groups.length && <p className="muted">{empty}</p>}
      {own.map((group) => (
        <Group key={group.account} group={group} />
      ))}
      {others.length > 0 && (
        <details className="others" data-testid="other-accounts">
          <summary>Changes to other accounts ({others.length})</summary>
          {others.map((group) => (
            <Group key={group.account} group={group} />
          ))}
        </details>
      )}
    </section>
  )
}

/** One account's changes: its label and address, a row per asset, and its dollar totals. */
function Group({ group }: { group: AccountGroup }) {
  return (
    <div className="group" data-account={group.account.toLowerCase()}>
      <div className="group-head">
        <span className="tag">{group.label}</span>
        <AddressText address={group.account} what="account address" />
      </div>
      <ul className="changes">
        {group.rows.map((row, index) => (
          <li
            // Rows have no identity beyond their position in the engine's list.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is never reordered
            key={index}
            className={`change change-${row.direction}`}
            data-testid="state-change"
            data-kind={row.kind}
          >
            <TokenIcon icon={row.icon} />
            <div>
              <div className="change-text">
                <Isolated text={row.text} asset={row.assetText} />
              </div>
              {row.party && (
                <div className="change-sub">
                  {row.party.label}{' '}
                  {'address' in row.party ? (
                    <AddressText address={row.party.address} what={`${row.party.label} address`} />
                  ) : (
                    row.party.who
                  )}
                </div>
              )}
              {row.note && <div className="change-sub">{row.note}</div>}
              {row.canTake && (
                <div className="change-sub can-take" data-testid="can-take">
                  <Isolated text={row.canTake} asset={row.assetText} />
                </div>
              )}
            </div>
            <span className="usd">{row.usd ?? ''}</span>
          </li>
        ))}
      </ul>
      <Totals group={group} />
    </div>
  )
}

/** "You send ≈ $1,203.50 · you receive ≈ $1,190.00", saying when some of the assets have no price to count. */
function Totals({ group }: { group: AccountGroup }) {
  const totals = dollarTotals(group.rows)
  if (!totals) return null
  const who = group.isUser ? 'You' : group.label === 'Safe' ? 'The Safe' : 'This account'
  const [send, receive] = group.isUser ? ['send', 'receive'] : ['sends', 'receives']
  const part = (verb: string, dollars: number, unpriced: number) =>
    `${verb} ≈ ${formatDollars(dollars)}${unpriced ? ` + ${unpriced} without a price` : ''}`
  return (
    <p className="totals" data-testid="dollar-totals">
      {who} {part(send, totals.send, totals.unpricedSend)} · {part(receive, totals.receive, totals.unpricedReceive)}
    </p>
  )
}

/**
 * `text` with the asset's own words in <bdi>, wherever they occur: a symbol or name in a right-to-left script keeps its
 * direction to itself instead of reordering the amount and words around it.
 */
function Isolated({ text, asset }: { text: string; asset: string | null }) {
  if (!asset || !text.includes(asset)) return <>{text}</>
  return (
    <>
      {text.split(asset).map((part, index) => (
        // The parts of one fixed string, never reordered.
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts have no identity beyond their position
        <Fragment key={index}>
          {index > 0 && <bdi>{asset}</bdi>}
          {part}
        </Fragment>
      ))}
    </>
  )
}
