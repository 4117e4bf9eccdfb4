import { timeAgo } from '../lib/format.ts'
import { lateWalletsStore } from '../stores/lateWalletsStore.ts'

/**
 * The wallets Preflight saw injecting themselves after a page's own scripts had started. Such a page can reach the
 * wallet before Preflight does (docs/threat-model.md); the user should know which wallet and where.
 */
export function LateWallets() {
  const wallets = lateWalletsStore.use((state) => state.value) ?? []
  if (wallets.length === 0) return null
  return (
    <section className="card" data-testid="late-wallets">
      <h2>Wallets that inject late</h2>
      <p className="error-text" style={{ marginTop: 0 }}>
        These wallets appeared after the page's own scripts had started. A page can reach such a wallet before Preflight
        does, and what it sends then is not checked. Prefer a wallet that injects itself at document start, or ask its
        makers to.
      </p>
      <ul>
        {wallets.map((wallet) => (
          <li key={`${wallet.label} ${wallet.origin}`}>
            <strong>{wallet.label}</strong>{' '}
            <span className="muted">
              on {wallet.origin}, {timeAgo(wallet.at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
