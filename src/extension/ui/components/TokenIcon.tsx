import type { IconInfo } from '../lib/stateChangeView.ts'

/**
 * The asset's icon. Remote image URLs are never loaded: fetching one would tell its host which token you are about to
 * touch, and when. Inline data: images are shown; everything else gets a badge coloured from the asset's address.
 */
export function TokenIcon({ icon }: { icon: IconInfo }) {
  if (icon.imageUrl?.startsWith('data:image/')) {
    return (
      <span className="token-icon" aria-hidden="true">
        <img src={icon.imageUrl} alt="" />
      </span>
    )
  }
  const hue = Number.parseInt(icon.address.slice(2, 8) || '0', 16) % 360
  return (
    <span className="token-icon" aria-hidden="true" style={{ background: `hsl(${hue} 55% 42%)` }}>
      {icon.label.slice(0, 3).toUpperCase()}
    </span>
  )
}
