import { createRoot } from 'react-dom/client'
import { ANNOUNCED_PARAM } from '../shared/pending.ts'
import { ConfirmApp, Settled } from './confirm/ConfirmApp.tsx'
import { createQueueStore, requestIdFromUrl } from './stores/pendingStore.ts'
import './styles.css'

const id = requestIdFromUrl(location.search)
const announced = new URLSearchParams(location.search).has(ANNOUNCED_PARAM)
const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    id ? <ConfirmApp initialId={id} announced={announced} queue={createQueueStore()} /> : <Settled />,
  )
}
