/** The API versions the server speaks (seed §9) and how a request picks one. */

export const API_VERSIONS = ['2022-06-01', '2023-03-08', '2023-05-17', '2023-06-05'] as const

export type ApiVersion = (typeof API_VERSIONS)[number]

/**
 * Used when `X-Api-Version` is absent. The seed leaves this open; the reference files give 2023-06-05 as the header's
 * default and the seed's examples use it, so a client that sends no header gets the newest shape.
 */
export const DEFAULT_API_VERSION: ApiVersion = '2023-06-05'

type VersionChoice = { ok: true; version: ApiVersion } | { ok: false; error: string }

/** Picks the version named by the `X-Api-Version` header value; unknown values are refused, naming the supported ones. */
export function chooseVersion(header: string | undefined): VersionChoice {
  if (header === undefined || header.trim() === '') return { ok: true, version: DEFAULT_API_VERSION }
  const value = header.trim()
  const version = API_VERSIONS.find((known) => known === value)
  if (version) return { ok: true, version }
  return {
    ok: false,
    error: `X-Api-Version: unsupported value "${value.slice(0, 40)}"; supported: ${API_VERSIONS.join(', ')}`,
  }
}
