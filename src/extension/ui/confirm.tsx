import { createRoot } from 'react-dom/client'
import { ConfirmApp, Settled } from './confirm/ConfirmApp.tsx'
import { createQueueStore, requestIdFromUrl } from './stores/pendingStore.ts'
import './styles.css'

const id = requestIdFromUrl(location.search)
const root = document.getElementById('root')
if (root) createRoot(root).render(id ? <ConfirmApp initialId={id} queue={createQueueStore()} /> : <Settled />)
