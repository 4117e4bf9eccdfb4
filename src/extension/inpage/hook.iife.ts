// MAIN-world hook: runs at document_start in every frame, before the page's scripts. intrinsics.ts must load first: it
// captures every builtin the hook uses before anything the page runs can replace them.
import './intrinsics.ts'
import { connectToRelay } from './channel.ts'
import { beforePageScripts, watchDefinitions, watchEip6963, watchWindowProviders } from './discover.ts'
import { createGate } from './gate.ts'
import { createPatcher } from './patchProvider.ts'

const channel = connectToRelay()
let pageStarted = false
const patcher = createPatcher(createGate(channel), () => pageStarted)
const windowProviders = watchWindowProviders(patcher.register)
watchDefinitions(windowProviders.one, patcher.redefined)
watchEip6963(patcher.register)
beforePageScripts(windowProviders.all, () => {
  pageStarted = true
  channel.closeHandshake()
})
