import { createRoot } from 'react-dom/client'
import { PopupApp } from './popup/PopupApp.tsx'
import './styles.css'

const root = document.getElementById('root')
if (root) createRoot(root).render(<PopupApp />)
