// ISOLATED-world relay between the hook and the service worker. Filled in by the extension issue.
document.documentElement?.setAttribute('data-preflight-relay', 'ready')
