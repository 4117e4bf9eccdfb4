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
