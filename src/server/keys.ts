/**
 * API keys (seed §5): the server holds only their SHA-256 hashes, from `--api-key`, `PREFLIGHT_API_KEYS` or a keys
 * file of hashes, so no plaintext key needs to sit on its disk. A key is known in logs and metrics by its key id: the
 * first 8 hex digits of its hash, enough to tell keys apart and useless for guessing one.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

/** The accepted keys, by the hex SHA-256 of each. */
export type KeySet = { readonly hashes: ReadonlySet<string> }

type KeyFileResult = { ok: true; hashes: string[] } | { ok: false; error: string }

/** The hex SHA-256 of a key as the client sends it (UTF-8). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

/** The id a key is known by in logs and metrics. */
export function keyId(hash: string): string {
  return hash.slice(0, 8)
}

/** A key set from plaintext keys and hex hashes together. */
export function keySet(keys: readonly string[], hashes: readonly string[] = []): KeySet {
  return { hashes: new Set([...keys.map(hashKey), ...hashes.map((hash) => hash.toLowerCase())]) }
}

/**
 * The hash of `presented` when it is an accepted key, else null. A Set lookup of the hash is not constant-time, but
 * timing can only tell an attacker about hashes of keys they chose, which says nothing about an accepted key.
 */
export function acceptedKeyHash(keys: KeySet, presented: string | undefined): string | null {
  if (presented === undefined || presented === '' || presented.length > 1024) return null
  const hash = hashKey(presented)
  return keys.hashes.has(hash) ? hash : null
}

/**
 * Reads a keys file: one hex SHA-256 per line (as `printf %s KEY | sha256sum` prints it, file name column allowed),
 * blank lines and `#` comments ignored. Names the line of anything else.
 */
export function readKeysFile(path: string): KeyFileResult {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { ok: false, error: `--api-keys-file ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}` }
  }
  const hashes: string[] = []
  for (const [index, line] of text.split('\n').entries()) {
    const content = line.replace(/#.*/, '').trim()
    if (content === '') continue
    const hash = content.split(/\s+/)[0] ?? ''
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) {
      return {
        ok: false,
        error: `--api-keys-file ${path}, line ${index + 1}: expected a hex SHA-256 of a key (64 hex digits), e.g. from \`printf %s KEY | sha256sum\``,
      }
    }
    hashes.push(hash.toLowerCase())
  }
  if (hashes.length === 0) return { ok: false, error: `--api-keys-file ${path}: no key hashes in it` }
  return { ok: true, hashes }
}
