import { useEffect, useState } from 'react'
import browser from 'webextension-polyfill'
import type { HistoryEntry } from '../../shared/pending.ts'
import type { Settings } from '../../shared/settings.ts'
import { chainName, timeAgo } from '../lib/format.ts'
import { askingSite, pausableOrigin } from '../lib/siteOrigin.ts'
import { historyStore } from '../stores/historyStore.ts'
import { settingsStore } from '../stores/settingsStore.ts'

const DECISION_WORDS: Record<HistoryEntry['decision'], string> = {
  continue: 'continued',
  reject: 'rejected',
  closed: 'closed',
}

/** The active tab's origin; the popup's host permissions let it read the URL of http(s) tabs. */
function useActiveOrigin(): string | null | undefined {
  const [origin, setOrigin] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    browser.tabs.query({ active: true, currentWindow: true }).then(
      ([tab]) => setOrigin(pausableOrigin(tab?.url)),
      () => setOrigin(null),
    )
  }, [])
  return origin
}

function Toggles({ settings, origin }: { settings: Settings; origin: string | null | undefined }) {
  const paused = !!origin && settings.pausedOrigins.includes(origin)
  const setEnabled = (enabled: boolean) => settingsStore.write({ ...settings, enabled })
  const setPaused = (pause: boolean) =>
    origin &&
    settingsStore.write({
      ...settings,
      pausedOrigins: pause
        ? [...settings.pausedOrigins.filter((o) => o !== origin), origin]
        : settings.pausedOrigins.filter((o) => o !== origin),
    })
  return (
    <section className="card">
      <label className="switch-row">
        <span>
          <strong>Protection</strong>
          <br />
          <span className="muted">{settings.enabled ? 'On: requests are scanned' : 'Off: nothing is scanned'}</span>
        </span>
        <input
          type="checkbox"
          role="switch"
          checked={settings.enabled}
          aria-checked={settings.enabled}
          onChange={(event) => setEnabled(event.target.checked)}
        />
      </label>
      <hr style={{ border: 0, borderTop: '1px solid var(--border)' }} />
      {origin ? (
        <label className="switch-row">
          <span>
            <strong>Pause on this site</strong>
            <br />
            <span className="muted mono">{origin}</span>
          </span>
          <input
            type="checkbox"
            role="switch"
            checked={paused}
            aria-checked={paused}
            disabled={!settings.enabled}
            onChange={(event) => setPaused(event.target.checked)}
          />
        </label>
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          {origin === undefined ? 'Reading the current tab…' : 'This tab is not a website Preflight scans.'}
        </p>
      )}
    </section>
  )
}

function History({ entries }: { entries: HistoryEntry[] }) {
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Recent scans</h2>
      {!entries.length && (
        <p className="muted" style={{ margin: 0 }}>
          Nothing scanned yet.
        </p>
      )}
      <ul className="history">
        {entries.map((entry) => (
          <li key={entry.id} data-testid="history-entry">
            <span className={`badge badge-${entry.action}`}>{entry.action}</span>
            <span>
              <strong>{entry.summary}</strong>
              <br />
              <span className="muted">
                {askingSite(entry)} · {chainName(entry.chainId)} · {DECISION_WORDS[entry.decision] ?? entry.decision} ·{' '}
                {timeAgo(entry.at)}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The toolbar popup: protection on/off, pause for the current site, and the last scans. */
export function PopupApp() {
  const settings = settingsStore.use((state) => state.value)
  const error = settingsStore.use((state) => state.error)
  const history = historyStore.use((state) => state.value) ?? []
  const origin = useActiveOrigin()
  return (
    <main className="page" style={{ width: 360 }}>
      <div className="switch-row">
        <span className="brand">
          <img src="/icons/icon-32.png" alt="" /> Preflight
        </span>
        <button type="button" className="small-button" onClick={() => browser.runtime.openOptionsPage()}>
          Settings
        </button>
      </div>
      {error && <p className="error-text">{error}</p>}
      {settings && <Toggles settings={settings} origin={origin} />}
      <History entries={history} />
    </main>
  )
}
