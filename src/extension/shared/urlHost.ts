/** The host a URL names (a node's, a scan API's, a paymaster's), never its path or query, where keys are often put. */
export function urlHost(url: string): string | null {
  try {
    return new URL(url).host || null
  } catch {
    return null
  }
}
