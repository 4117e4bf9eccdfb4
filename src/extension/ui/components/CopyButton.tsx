import { useState } from 'react'

/** A small button that copies `value` to the clipboard, so a hash can be pasted next to the hardware wallet's. */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [copied, setCopied] = useState(false)
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => {
        setCopied(true)
        setTimeout(() => setCopied(false), 1500)
      },
      () => setCopied(false),
    )
  return (
    <button type="button" className="copy" onClick={copy} aria-label={`Copy ${what}`}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  )
}
