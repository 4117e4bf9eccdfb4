// Background service worker. Filled in by the extension issue.
chrome.runtime.onInstalled.addListener(() => {})
