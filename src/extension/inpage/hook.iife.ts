// MAIN-world hook: runs at document_start in every frame, before the page's scripts.
import { connectToRelay } from './channel.ts'
import { watchEip6963, watchWindowEthereum } from './discover.ts'
import { createGate } from './gate.ts'
import { patchProvider } from './patchProvider.ts'

const gate = createGate(connectToRelay())
const hook = (provider: unknown) => patchProvider(provider, gate)
watchWindowEthereum(hook)
watchEip6963(hook)
