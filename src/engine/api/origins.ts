/**
 * The origin a sandboxed document asks as. A document a site sandboxes (an upload, an embed) has no origin of its own;
 * it asks as an absolute URL with no host, so nothing that trusts a site's own requests (a sign-in for that site,
 * Blur's orders on blur.io) takes it for the site that served it.
 */
const SANDBOXED = 'sandboxed:'

/** The origin a document the site at `servedFrom` sandboxed asks as. */
export function sandboxedOrigin(servedFrom: string): string {
  return `${SANDBOXED}${servedFrom}`
}

/** Who asks, as a warning says it: the origin, or "a sandboxed page served from …" for a sandboxed document. */
export function askingParty(origin: string): string {
  return origin.startsWith(SANDBOXED) ? `a sandboxed page served from ${origin.slice(SANDBOXED.length)}` : origin
}
