import { isAddress } from 'viem'
import { chainInWords } from '../lib/format.ts'
import type { PermissionEntry } from '../lib/permissionView.ts'
import { AddressText } from './AddressText.tsx'

/** The words for the fields ERC-7715 defines; any other field is shown under its own name. */
const LABELS: Record<string, string> = {
  to: 'Given to',
  signer: 'Given to',
  permission: 'Permission',
  permissions: 'Permissions',
  rules: 'Rules',
  expiry: 'Expiry',
}

/** Nesting shown as lists; anything deeper is shown as its JSON text. */
const MAX_DEPTH = 4

/** Invisible and reordering characters, shown as escapes so a value reads as the wallet reads it. */
const HIDDEN = /[\p{Cc}\p{Cf}]/gu

const visible = (text: string) =>
  text.replace(HIDDEN, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)

/** A value as sent: addresses in full, objects and lists as nested lists of their fields. */
function Value({ value, depth }: { value: unknown; depth: number }) {
  if (typeof value === 'string' && isAddress(value, { strict: false }))
    return <AddressText address={value} what="address" whole />
  if (value === null || typeof value !== 'object') {
    return <span className="mono hash">{typeof value === 'string' ? visible(value) : String(value)}</span>
  }
  if (depth >= MAX_DEPTH) return <span className="mono hash">{visible(JSON.stringify(value))}</span>
  return (
    <ul className="args">
      {Object.entries(value).map(([key, inner]) => (
        <li key={key}>
          <span className="muted">{visible(key)}:</span> <Value value={inner} depth={depth + 1} />
        </li>
      ))}
    </ul>
  )
}

/**
 * Every entry of an ERC-7715 permission request with its chain, the account it is granted from, who it is given to
 * and what it allows, as the wallet will receive them: an entry after the first can be for another chain or account.
 */
export function Permissions({ entries }: { entries: PermissionEntry[] }) {
  return (
    <section className="card" aria-labelledby="permissions-title">
      <h2 id="permissions-title">
        {entries.length === 1 ? 'The permission asked for' : `The ${entries.length} permissions asked for`}
      </h2>
      {entries.map((entry, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one entry per permission, in the request's order
        <dl className="facts asked" key={index} data-testid="permission">
          {entries.length > 1 && (
            <>
              <dt>Permission</dt>
              <dd>
                {index + 1} of {entries.length}
              </dd>
            </>
          )}
          <dt>Network</dt>
          <dd>{chainInWords(entry.chainId)}</dd>
          <dt>Account</dt>
          <dd>
            {entry.account ? (
              <AddressText address={entry.account} what="granting account" whole />
            ) : (
              'not named: the one your wallet chooses'
            )}
          </dd>
          {entry.fields.map(([key, value]) => (
            <FieldRow key={key} name={key} value={value} />
          ))}
        </dl>
      ))}
    </section>
  )
}

function FieldRow({ name, value }: { name: string; value: unknown }) {
  return (
    <>
      <dt>{LABELS[name] ?? visible(name)}</dt>
      <dd>
        <Value value={value} depth={0} />
      </dd>
    </>
  )
}
