import { useCallback, useEffect, useState } from 'react'
import { type Decision, type PendingRequest, shownRevision } from '../../shared/pending.ts'
import { ActionBanner } from '../components/ActionBanner.tsx'
import { AddressText } from '../components/AddressText.tsx'
import { AskedCalls } from '../components/AskedCalls.tsx'
import { BatchTerms } from '../components/BatchTerms.tsx'
import { ChangedWhileShown } from '../components/ChangedWhileShown.tsx'
import { DecisionBar } from '../components/DecisionBar.tsx'
import { Details } from '../components/Details.tsx'
import { Fees } from '../components/Fees.tsx'
import { Permissions } from '../components/Permissions.tsx'
import { QueueBar } from '../components/QueueBar.tsx'
import { SafeMessagePanel, SafePanel } from '../components/SafePanel.tsx'
import { SignedMessage } from '../components/SignedMessage.tsx'
import { StateChanges } from '../components/StateChanges.tsx'
import { WarningList } from '../components/WarningList.tsx'
import { askedCalls } from '../lib/askedCalls.ts'
import { batchTerms } from '../lib/batchTerms.ts'
import { confirmView, decisionAction, methodWords, noChangesText } from '../lib/confirmView.ts'
import { safeTakeoverWords } from '../lib/controlView.ts'
import { feeView } from '../lib/feeView.ts'
import { chainInWords, chainName } from '../lib/format.ts'
import { pageText } from '../lib/pageText.ts'
import { permissionEntries, requestScope } from '../lib/permissionView.ts'
import { currentWindowId, decide, type QueueStore, rejectAll, useDecision } from '../stores/pendingStore.ts'
import { settingsStore } from '../stores/settingsStore.ts'
import { useShownMarks } from './shownMarks.ts'

/** Typed data bound to another chain than the wallet's: where the signature works, and where it was checked. */
function OtherChain({ domain, wallet, checkedOn }: NonNullable<PendingRequest['otherChain']> & { checkedOn: number }) {
  return (
    <p className="error-text" data-testid="other-chain" style={{ margin: '4px 0 0' }}>
      This signature is for {chainInWords(domain)}, while the wallet is on {chainInWords(wallet)}: it can be used on{' '}
      {chainInWords(domain)} whatever the wallet shows.
      {checkedOn !== domain &&
        ` Preflight has no node or scan API for it, so it checked this one on ${chainInWords(checkedOn)}: what it does on ${chainInWords(domain)} is not known.`}
    </p>
  )
}

function Header({ request }: { request: PendingRequest }) {
  const scope = requestScope(request)
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
          {request.sandboxed ? (
            <>
              <span className="origin">a sandboxed page</span>
              <div className="muted" data-testid="sandboxed">
                served from {request.origin}, which does not let it act as that site
              </div>
            </>
          ) : (
            <span className="origin">{request.origin}</span>
          )}
          {request.topOrigin && request.topOrigin !== request.origin && (
            <div className="muted">inside {request.topOrigin}</div>
          )}
        </dd>
        <dt>Network</dt>
        <dd data-testid="network">
          {scope.chains.map((chainId) => (
            <div key={chainId}>
              {chainName(chainId)} <span className="muted">({chainId})</span>
            </div>
          ))}
          {request.otherChain && <OtherChain {...request.otherChain} checkedOn={request.chainId} />}
        </dd>
        <dt>Account</dt>
        <dd data-testid="account">
          {scope.accounts.map((account) => (
            <div key={account ?? ''}>
              {account ? (
                <AddressText address={account} what="signing account" />
              ) : (
                'not named: the one your wallet chooses'
              )}
            </div>
          ))}
          {scope.chains.length + scope.accounts.length > 2 && (
            <div className="muted">one for each permission below</div>
          )}
        </dd>
        {request.wallet && (
          <>
            <dt>Wallet</dt>
            <dd data-testid="wallet">
              “<bdi>{pageText(request.wallet.label)}</bdi>” <span className="muted">as the page names it</span>
            </dd>
          </>
        )}
        {request.scan.status !== 'PENDING' && request.scan.backend && (
          <>
            <dt>Scanned by</dt>
            <dd data-testid="scan-backend">
              {request.scan.backend.kind === 'remote'
                ? `the scan API at ${request.scan.backend.host}`
                : `this browser, simulating on the node at ${request.scan.backend.host}`}
            </dd>
          </>
        )}
      </dl>
      {request.wallet?.late && (
        <p className="error-text" data-testid="late-wallet" style={{ margin: '8px 0 0' }}>
          This wallet appeared after the page's own scripts had started, so the page could have reached it before
          Preflight did. Requests it sends this way are checked; requests sent before that could not be.
        </p>
      )}
    </header>
  )
}

type SettledProps = {
  /** The request this window was showing, when it ended without a decision made here. */
  gone?: PendingRequest
  /** How many other requests wait in this window. */
  waiting?: number
  /** Shows the next waiting request. */
  onNext?: () => void
}

/**
 * Shown when the request for this window's id is no longer pending. When others wait, the next one is shown only on
 * request: switching by itself would put a request the user has not read under a click meant for the last one.
 */
export function Settled({ gone, waiting = 0, onNext }: SettledProps) {
  return (
    <main className="page" data-state="settled">
      <section className="card">
        <p>
          {gone ? (
            <>
              The request from <span className="origin">{gone.origin}</span> is no longer waiting for a decision: the
              page that asked has gone, or it was answered elsewhere.
            </>
          ) : (
            'This request is no longer waiting for a decision: it was answered, or the page that asked has gone.'
          )}
        </p>
        {onNext && waiting > 0 && (
          <p className="muted">
            {waiting === 1 ? '1 more request is waiting' : `${waiting} more requests are waiting`}; closing this window
            rejects {waiting === 1 ? 'it' : 'them'}.
          </p>
        )}
        <div className="buttons">
          {onNext && waiting > 0 ? (
            <button type="button" className="small-button primary" onClick={onNext}>
              Show the next request
            </button>
          ) : (
            <button type="button" className="small-button" onClick={() => window.close()}>
              Close
            </button>
          )}
        </div>
      </section>
    </main>
  )
}

/** Pause before a request that replaced another can be decided, so a double click cannot approve it unread. */
const NEXT_REQUEST_ARM_MS = 600

/** The browser window this page is in: requests queued in it carry its id. */
function useCurrentWindowId(): number | undefined {
  const [windowId, setWindowId] = useState<number>()
  useEffect(() => {
    currentWindowId().then(setWindowId, () => undefined)
  }, [])
  return windowId
}

/**
 * How long a window opened for an announced request waits for it before it says the request is not waiting: past the
 * worker's own wait (ANNOUNCED_FOR_MS, 7 s), after which the worker closes a window that holds nothing.
 */
const ANNOUNCED_WAIT_MS = 10_000

type Props = {
  /** The request named in the window's URL when it opened. */
  initialId: string
  /** The window opened before that request was stored (see ANNOUNCED_PARAM): it waits for it. */
  announced?: boolean
  queue: QueueStore
}

/**
 * The confirmation window: shows one pending request, live from chrome.storage.session, with the others queued in
 * the same window; after each decision it moves on to the request the worker names next, and closes when none is left.
 */
export function ConfirmApp({ initialId, announced = false, queue }: Props) {
  const [shownId, setShownId] = useState(initialId)
  /** Waiting for the announced request: until it arrives, the wait ends, or another request here is shown instead. */
  const [awaitingArrival, setAwaitingArrival] = useState(announced)
  /** The wait ended first: if the request still comes, it is armed like one that replaced another. */
  const [waitEnded, setWaitEnded] = useState(false)
  /** The request decided in this window and still on screen until the worker names the next one. */
  const [decidedId, setDecidedId] = useState<string | null>(null)
  /** The first request this window showed: only it may be decided at once; any after it replaced one on screen. */
  const [firstShownId, setFirstShownId] = useState<string | null>(null)
  const requests = queue((state) => state.requests)
  const ended = queue((state) => state.ended)
  const readError = queue((state) => state.error)
  const windowId = useCurrentWindowId()
  const onScanFailure = settingsStore.use((state) => state.value?.onScanFailure ?? 'ask')
  const { sending, error: sendError } = useDecision()

  const show = useCallback((id: string) => {
    history.replaceState(null, '', `?id=${encodeURIComponent(id)}`)
    setShownId(id)
  }, [])
  const onDecide = useCallback(
    async (decision: Decision, seen: number) => {
      if (useDecision.getState().sending) return
      setDecidedId(shownId)
      const next = await decide(shownId, decision, seen)
      // The same request back: its outcome changed as it was continued, and it waits for a new decision.
      if (next === undefined || next === shownId) setDecidedId(null)
      else if (next === null) window.close()
      else show(next)
    },
    [shownId, show],
  )

  const inWindow = (requests ?? []).filter(
    (candidate) => candidate.id === shownId || (windowId !== undefined && candidate.windowId === windowId),
  )
  const decidedHere = decidedId === shownId
  const request = inWindow.find((candidate) => candidate.id === shownId) ?? (decidedHere ? ended[shownId] : undefined)
  const position = inWindow.findIndex((candidate) => candidate.id === shownId) + 1
  const view = request && confirmView(request)
  useShownMarks(view?.action)
  // The decision names the outcome it was made on, so one stored while it travels is shown, not acted on.
  const seen = request ? shownRevision(request) : 0
  const decideShown = useCallback((decision: Decision) => onDecide(decision, seen), [onDecide, seen])

  useEffect(() => {
    if (!awaitingArrival) return
    const timer = setTimeout(() => {
      setAwaitingArrival(false)
      setWaitEnded(true)
    }, ANNOUNCED_WAIT_MS)
    return () => clearTimeout(timer)
  }, [awaitingArrival])
  const arrived = request !== undefined
  const othersHere = inWindow.length
  useEffect(() => {
    if (!awaitingArrival) return
    if (arrived) setAwaitingArrival(false)
    else if (othersHere > 0) {
      // Another page's request joined this window first: it is shown (armed after a pause), the announced one queues.
      setAwaitingArrival(false)
      show(inWindow[0]?.id ?? shownId)
    }
  }, [awaitingArrival, arrived, othersHere, inWindow, show, shownId])

  const requestId = request?.id
  useEffect(() => {
    if (requestId !== undefined && firstShownId === null) setFirstShownId(requestId)
  }, [requestId, firstShownId])

  useEffect(() => {
    if (!request) return
    const place = inWindow.length > 1 ? ` (${position} of ${inWindow.length})` : ''
    document.title = `Preflight${place} · ${request.origin}`
  }, [request, position, inWindow.length])

  const arriving = awaitingArrival && !request && shownId === initialId && !ended[shownId]
  if (requests === undefined || arriving) {
    return (
      <main className="page" data-action="PENDING">
        <p className="muted">{readError ?? 'Loading…'}</p>
      </main>
    )
  }
  if (!request || !view) {
    const next = inWindow[0]
    return <Settled gone={ended[shownId]} waiting={inWindow.length} onNext={next && (() => show(next.id))} />
  }
  const fees = feeView(request)
  const asked = view.action === 'ERROR' ? askedCalls(request) : null
  const permissions = permissionEntries(request)
  const terms = batchTerms(request)
  const changed = request.changedWhileShown
  const needsAcknowledgement =
    changed !== undefined ||
    view.action === 'BLOCK' ||
    (view.action === 'ERROR' && onScanFailure === 'ask-default-reject')
  return (
    <main className="page" data-action={view.action} aria-busy={view.action === 'PENDING'}>
      <QueueBar queue={inWindow} shownId={shownId} onRejectAll={rejectAll} />
      <Header request={request} />
      {changed && <ChangedWhileShown change={changed} />}
      <ActionBanner
        action={view.action}
        failure={view.failure}
        problems={view.simulationErrors.length > 0}
        reverts={view.reverts}
        safeTakeover={safeTakeoverWords(view.control)}
      />
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
      {(view.multisig || view.control.length > 0) && <SafePanel multisig={view.multisig} control={view.control} />}
      {view.safeMessage && <SafeMessagePanel safeMessage={view.safeMessage} />}
      {view.signedMessage && <SignedMessage message={view.signedMessage} />}
      {asked && <AskedCalls calls={asked} />}
      {permissions && <Permissions entries={permissions} />}
      {view.action !== 'ERROR' && (
        <StateChanges groups={view.groups} pending={view.action === 'PENDING'} empty={noChangesText(view)} />
      )}
      {terms && terms.length > 0 && <BatchTerms terms={terms} />}
      {fees && <Fees fees={fees} />}
      <Details view={view} params={request.params} />
      {sending === 'continue' && request.scan.status === 'DONE' && request.scan.kind === 'transactions' && (
        <p className="muted" role="status" data-testid="rechecking">
          Checking the outcome again before it goes to your wallet…
        </p>
      )}
      {sendError && (
        <p className="error-text" role="alert">
          {sendError}
        </p>
      )}
      <DecisionBar
        // A changed outcome is a new decision: the bar starts over, unticked and disarmed for a moment.
        key={`${request.id}:${changed?.at ?? 0}`}
        action={decisionAction(view)}
        needsAcknowledgement={needsAcknowledgement}
        busy={!!sending || decidedHere}
        // The window's own request, shown first, is decided at once; a request named in the URL but shown after
        // another (the other page's request arrived first) is armed after a pause like any that replaced one.
        armAfterMs={
          changed === undefined && shownId === initialId && (firstShownId ?? shownId) === shownId && !waitEnded
            ? 0
            : NEXT_REQUEST_ARM_MS
        }
        onDecide={decideShown}
      />
    </main>
  )
}
