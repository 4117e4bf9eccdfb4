// MAIN-world hook: runs at document_start in every frame. Filled in by the extension issue.
;(globalThis as { __preflightHook?: { version: string } }).__preflightHook = { version: '0.1.0' }
