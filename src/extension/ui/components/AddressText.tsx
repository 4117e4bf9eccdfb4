import { checksum, shortened } from '../lib/format.ts'
import { CopyButton } from './CopyButton.tsx'

type Props = {
  address: string
  what?: string
  /** Set in full where nothing else checked it (no simulation ran, so no look-alike check either). */
  whole?: boolean
}

/** An address shortened for reading, with the full checksummed address on hover and a copy button. */
export function AddressText({ address, what = 'address', whole = false }: Props) {
  const full = checksum(address)
  return (
    <span>
      <span className="mono" title={full}>
        {whole ? full : shortened(full)}
      </span>
      <CopyButton value={full} what={what} />
    </span>
  )
}
