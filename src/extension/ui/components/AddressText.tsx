import { checksum, shortened } from '../lib/format.ts'
import { CopyButton } from './CopyButton.tsx'

/** An address shortened for reading, with the full checksummed address on hover and a copy button. */
export function AddressText({ address, what = 'address' }: { address: string; what?: string }) {
  const full = checksum(address)
  return (
    <span>
      <span className="mono" title={full}>
        {shortened(full)}
      </span>
      <CopyButton value={full} what={what} />
    </span>
  )
}
