import { askingParty, sandboxedOrigin } from '../../../engine/index.ts'

/**
 * Who asked, in words: the origin, or a sandboxed page and the site that served it (which it cannot act as), worded
 * as the engine's warnings word it.
 */
export function askingSite(request: { origin: string; sandboxed?: true }): string {
  return askingParty(request.sandboxed ? sandboxedOrigin(request.origin) : request.origin)
}

/** The origin Preflight can be paused for: scheme://host[:port] of an http(s) page, or null for anything else. */
export function pausableOrigin(url: string | undefined): string | null {
  if (!url) return null
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
  } catch {
    return null
  }
}
