/**
 * Sign-In with Ethereum (EIP-4361) in a raw message: the site the signature logs in to, judged against the site that
 * asks for it. A page that gets a user's sign-in for another site can log in there as the user; EIP-4361 asks wallets
 * to match the message's domain with the requesting origin, and this is that check.
 */
import { hexToBytes } from 'viem'
import { type Address, askingParty, type Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import type { RawMessage } from './rawMessage.ts'

/** A sign-in request: the scheme and domain (authority) it names, and the account, when its next line holds one. */
export type SignIn = { scheme: string | null; domain: string; address: Address | null }

/** The EIP-4361 header, which ends the message's first line after `[scheme://]domain`. */
const HEADER = ' wants you to sign in with your ethereum account:'
const ADDRESS_LINE = /^0x[0-9a-fA-F]{40}$/

/**
 * The sign-in a message asks for, or null. Read on any line, in any letter case: a verifier that accepts a message a
 * stricter reading here would pass over must not get past the check.
 */
export function readSignIn(text: string): SignIn | null {
  const lines = text.split(/\r\n|\r|\n/)
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).trim()
    const at = line.toLowerCase().indexOf(HEADER)
    if (at < 0) continue
    const named = line.slice(0, at).trim()
    const separator = named.indexOf('://')
    const next = (lines[index + 1] ?? '').trim()
    return {
      scheme: separator < 0 ? null : named.slice(0, separator),
      domain: separator < 0 ? named : named.slice(separator + 3),
      address: ADDRESS_LINE.test(next) ? (next.toLowerCase() as Address) : null,
    }
  }
  return null
}

/**
 * The sign-in a raw message's bytes ask for, read as UTF-8 even when they are not all printable: a verifier accepts a
 * control character in the statement or after the last field, and the message must not pass as unreadable bytes.
 */
export function signInOf(message: RawMessage): SignIn | null {
  return readSignIn(message.text ?? new TextDecoder().decode(hexToBytes(message.bytes)))
}

/** The host (with a port other than the scheme's default) a URL-like value names, lowercase, or null. */
function hostOf(url: string): string | null {
  try {
    const host = new URL(url).host.toLowerCase()
    return host === '' ? null : host.replace(/\.$/, '').replace(/\.:/, ':')
  } catch {
    return null
  }
}

/** Whether one host is the other or a subdomain of it, ports aside: two parts of one site. */
function sameSite(a: string, b: string): boolean {
  const name = (host: string) => host.replace(/:\d+$/, '')
  const [x, y] = [name(a), name(b)]
  return x === y || x.endsWith(`.${y}`) || y.endsWith(`.${x}`)
}

/** Warnings for a sign-in: for another site than the one asking (CRITICAL, WARNING within one site), or another account. */
export function signInWarnings(signIn: SignIn, origin: string, account: Address): Warning[] {
  const warnings: Warning[] = []
  const asking = hostOf(origin)
  const scheme = signIn.scheme ?? (asking === null ? 'https' : new URL(origin).protocol.slice(0, -1))
  const target = hostOf(`${scheme}://${signIn.domain}`)
  const named = signIn.domain === '' ? 'a site it does not name' : signIn.domain
  const data = { domain: signIn.domain, origin }
  if (asking === null || target === null || (asking !== target && !sameSite(asking, target))) {
    warnings.push(
      makeWarning(
        'SIGN_IN_DOMAIN_MISMATCH',
        'CRITICAL',
        `This signs you in to ${named}, but ${askingParty(origin)} is asking for it. Whoever gets this signature can log in to ` +
          `${named} as you. Do not sign it unless you are on ${named} itself.`,
        data,
      ),
    )
  } else if (asking !== target) {
    warnings.push(
      makeWarning(
        'SIGN_IN_DOMAIN_MISMATCH',
        'WARNING',
        `This signs you in to ${named}, and ${origin}, another part of the same site, is asking for it. Sign it only ` +
          `if you expected to sign in to ${named}.`,
        data,
      ),
    )
  }
  if (signIn.address !== null && signIn.address !== account.toLowerCase()) {
    warnings.push(
      makeWarning(
        'SIGN_IN_ACCOUNT_MISMATCH',
        'WARNING',
        `This sign-in names the account ${shortAddress(signIn.address)}, not ${shortAddress(account)}, which is ` +
          'asked to sign it. Honest sites name the account that signs.',
        { address: signIn.address, account: account.toLowerCase() },
      ),
    )
  }
  return warnings
}
