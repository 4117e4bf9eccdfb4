import { useCallback, useEffect } from 'react'
import type { Decision, PendingRequest } from '../../shared/pending.ts'
import { ActionBanner } from '../components/ActionBanner.tsx'
import { AddressText } from '../components/AddressText.tsx'
import { DecisionBar } from '../components/DecisionBar.tsx'
import { Details } from '../components/Details.tsx'
import { MultisigPanel } from '../components/MultisigPanel.tsx'
import { StateChanges } from '../components/StateChanges.tsx'
import { WarningList } from '../components/WarningList.tsx'
import { confirmView, methodWords } from '../lib/confirmView.ts'
import { chainName } from '../lib/format.ts'
import { decide, useDecision } from '../stores/pendingStore.ts'
import { settingsStore } from '../stores/settingsStore.ts'
import type { StorageStore } from '../stores/storageStore.ts'

function Header({ request }: { request: PendingRequest }) {
  return (
    <header className="card">
      <div className="brand">
        <img src="/icons/icon-32.png" alt="" />
        <span>Preflight</span>
        <span className="muted" style={{ fontWeight: 400 }}>
          · {methodWords(request.method)}
        </span>
      </div>
      <dl className="facts" style={{ marginTop: 8 }}>
        <dt>Site</dt>
        <dd>
          <span className="origin">{request.origin}</span>
          {request.topOrigin && request.topOrigin !== request.origin && (
            <div className="muted">inside {request.topOrigin}</div>
          )}
        </dd>
        <dt>Network</dt>
        <dd>
          {chainName(request.chainId)} <span className="muted">({request.chainId})</span>
        </dd>
        <dt>Account</dt>
        <dd>
          <AddressText address={request.account} what="signing account" />
        </dd>
      </dl>
    </header>
  )
}

/** Shown when there is no pending request for this window's id. */
export function Settled() {
  return (
    <main className="page" data-state="settled">
      <section className="card">
        <p>This request is no longer waiting for a decision: it was answered, or the page that asked has gone.</p>
        <div className="buttons">
          <button type="button" className="small-button" onClick={() => window.close()}>
            Close
          </button>
        </div>
      </section>
    </main>
  )
}

/** The confirmation window for one pending request, live from chrome.storage.session. */
export function ConfirmApp({ id, pending }: { id: string; pending: StorageStore<PendingRequest | null> }) {
  const request = pending.use((state) => state.value)
  const readError = pending.use((state) => state.error)
  const onScanFailure = settingsStore.use((state) => state.value?.onScanFailure ?? 'ask')
  const { sending, error: sendError } = useDecision()
  const onDecide = useCallback((decision: Decision) => decide(id, decision), [id])

  useEffect(() => {
    if (request) document.title = `Preflight · ${request.origin}`
  }, [request])

  if (request === null) return <Settled />
  if (request === undefined) {
    return (
      <main className="page" data-action="PENDING">
        <p className="muted">{readError ?? 'Loading…'}</p>
      </main>
    )
  }
  const view = confirmView(request)
  const needsAcknowledgement =
    view.action === 'BLOCK' || (view.action === 'ERROR' && onScanFailure === 'ask-default-reject')
  return (
    <main className="page" data-action={view.action} aria-busy={view.action === 'PENDING'}>
      <Header request={request} />
      <ActionBanner action={view.action} failure={view.failure} />
      <WarningList warnings={view.warnings} />
      {view.simulationErrors.length > 0 && (
        <section className="card">
          <h2>Simulation</h2>
          {view.simulationErrors.map((text) => (
            <p key={text} className="error-text" style={{ margin: 0 }}>
              {text}
            </p>
          ))}
        </section>
      )}
      {view.action !== 'ERROR' && <StateChanges groups={view.groups} pending={view.action === 'PENDING'} />}
      {view.multisig && <MultisigPanel multisig={view.multisig} />}
      <Details view={view} params={request.params} />
      {sendError && (
        <p className="error-text" role="alert">
          {sendError}
        </p>
      )}
      <DecisionBar
        action={view.action}
        needsAcknowledgement={needsAcknowledgement}
        sending={sending}
        onDecide={onDecide}
      />
    </main>
  )
}
