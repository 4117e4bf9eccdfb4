// MAIN-world hook: runs at document_start in every frame, before the page's scripts. intrinsics.ts must load first: it
// captures every builtin the hook uses before anything the page runs can replace them.
import './intrinsics.ts'
import { connectToRelay } from './channel.ts'
import { beforePageScripts, watchDefinitions, watchEip6963, watchWindowEthereum } from './discover.ts'
import { createGate } from './gate.ts'
import { createPatcher } from './patchProvider.ts'

const channel = connectToRelay()
let pageStarted = false
const patcher = createPatcher(createGate(channel), () => pageStarted)
const checkWindowEthereum = watchWindowEthereum(patcher.register)
watchDefinitions(checkWindowEthereum, patcher.redefined)
watchEip6963(patcher.register)
beforePageScripts(checkWindowEthereum, () => {
  pageStarted = true
  channel.closeHandshake()
})
