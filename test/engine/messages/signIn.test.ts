/**
 * Sign-In with Ethereum: messages written by viem's EIP-4361 builder, read and judged against the origin asking; a
 * signature collected on another site passes the named site's own check (viem's SIWE validation), which is the harm.
 */
import { type Address, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { sandboxedOrigin } from '../../../src/engine/api/index.ts'
import { scanMessage } from '../../../src/engine/index.ts'
import { readSignIn, signInWarnings } from '../../../src/engine/messages/index.ts'
import { messageResponseValidator } from '../messageSupport.ts'

// anvil's dev account 0: a key anyone can read, used here only to sign.
const signer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const user = signer.address.toLowerCase() as Address
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** A sign-in as a site writes it with viem. */
function siwe(domain: string, fields: { address?: Address; scheme?: string; uri?: string } = {}): string {
  return createSiweMessage({
    address: fields.address ?? signer.address,
    chainId: 1,
    domain,
    nonce: 'foobarbaz1',
    uri: fields.uri ?? `https://${domain}/login`,
    version: '1',
    issuedAt: new Date('2026-11-26T09:00:00Z'),
    statement: 'Sign in to trade.',
    ...(fields.scheme ? { scheme: fields.scheme } : {}),
  })
}

const judge = (message: string, origin: string, account: Address = user) => {
  const signIn = readSignIn(message)
  if (!signIn) throw new Error('not read as a sign-in')
  return signInWarnings(signIn, origin, account).map((warning) => [warning.kind, warning.severity])
}

describe('readSignIn', () => {
  it('reads the domain, scheme and account of an EIP-4361 message, and nothing from other text', () => {
    expect(readSignIn(siwe('app.uniswap.org'))).toEqual({ scheme: null, domain: 'app.uniswap.org', address: user })
    expect(readSignIn(siwe('localhost:3000', { scheme: 'http' }))).toEqual({
      scheme: 'http',
      domain: 'localhost:3000',
      address: user,
    })
    expect(readSignIn('Welcome to OpenSea!\n\nWallet address:\n0xf39f…')).toBeNull()
    expect(readSignIn('hello')).toBeNull()
  })

  it('reads a header a lenient verifier would accept: CRLF line ends, another letter case, a line before it', () => {
    const crlf = siwe('opensea.io').replaceAll('\n', '\r\n')
    expect(readSignIn(crlf)?.domain).toBe('opensea.io')
    const shouted = siwe('opensea.io').replace(
      'wants you to sign in with your Ethereum account',
      'WANTS YOU TO SIGN IN WITH YOUR ETHEREUM ACCOUNT',
    )
    expect(readSignIn(shouted)?.domain).toBe('opensea.io')
    expect(readSignIn(`Please sign:\n${siwe('opensea.io')}`)).toMatchObject({ domain: 'opensea.io', address: user })
  })
})

describe('signInWarnings', () => {
  it('says nothing of a sign-in to the site asking, its default port written out or not', () => {
    expect(judge(siwe('app.uniswap.org'), 'https://app.uniswap.org')).toEqual([])
    expect(judge(siwe('app.uniswap.org:443'), 'https://app.uniswap.org')).toEqual([])
    expect(judge(siwe('APP.Uniswap.org'), 'https://app.uniswap.org')).toEqual([])
    expect(judge(siwe('localhost:3000', { scheme: 'http' }), 'http://localhost:3000')).toEqual([])
  })

  it('a sign-in to another site is CRITICAL; to another part of the same site, a WARNING', () => {
    expect(judge(siwe('opensea.io'), 'https://opensea-claim.example')).toEqual([
      ['SIGN_IN_DOMAIN_MISMATCH', 'CRITICAL'],
    ])
    expect(judge(siwe('opensea.io'), 'https://opensea.io.claim.example')).toEqual([
      ['SIGN_IN_DOMAIN_MISMATCH', 'CRITICAL'],
    ])
    expect(judge(siwe('uniswap.org'), 'https://app.uniswap.org')).toEqual([['SIGN_IN_DOMAIN_MISMATCH', 'WARNING']])
    expect(judge(siwe('localhost:3001'), 'http://localhost:3000')).toEqual([['SIGN_IN_DOMAIN_MISMATCH', 'WARNING']])
    expect(judge(siwe('opensea.io'), 'file:///home/user/claim.html')).toEqual([['SIGN_IN_DOMAIN_MISMATCH', 'CRITICAL']])
  })

  it('names the site and the page in the message, and warns of a sign-in for another account', () => {
    const [warning] = signInWarnings(readSignIn(siwe('opensea.io')) as never, 'https://claim.example', user as Address)
    expect(warning?.message).toContain('signs you in to opensea.io, but https://claim.example is asking for it')
    expect(warning?.data).toEqual({ domain: 'opensea.io', origin: 'https://claim.example' })
    expect(judge(siwe('opensea.io', { address: OTHER }), 'https://opensea.io')).toEqual([
      ['SIGN_IN_ACCOUNT_MISMATCH', 'WARNING'],
    ])
  })

  it("a sandboxed document's sign-in to the site that served it is CRITICAL, and says the page is sandboxed", () => {
    const asking = sandboxedOrigin('https://opensea.io')
    const [warning] = signInWarnings(readSignIn(siwe('opensea.io')) as never, asking, user as Address)
    expect([warning?.kind, warning?.severity]).toEqual(['SIGN_IN_DOMAIN_MISMATCH', 'CRITICAL'])
    expect(warning?.message).toContain(
      'signs you in to opensea.io, but a sandboxed page served from https://opensea.io is asking for it',
    )
    expect(warning?.data).toEqual({ domain: 'opensea.io', origin: 'sandboxed:https://opensea.io' })
  })
})

describe('a sign-in scanned as personal_sign', () => {
  const validate = messageResponseValidator()
  // Raw messages make no node call: the URL is never reached.
  const options = { rpcUrl: 'http://127.0.0.1:9' }
  const scan = async (message: string, origin: string) => {
    const outcome = await scanMessage(
      { message: { kind: 'SIGN_MESSAGE', rawMessage: message }, userAccount: user, metadata: { origin } },
      options,
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(validate(outcome.response)).toEqual([])
    return outcome.response
  }

  it('blocks a sign-in to opensea.io asked for by another site, whose signature opensea.io would accept', async () => {
    const message = siwe('opensea.io')
    const response = await scan(message, 'https://opensea-rewards.example')
    expect(response.action).toBe('BLOCK')
    expect(response.warnings.map((warning) => warning.kind)).toEqual(['SIGN_IN_DOMAIN_MISMATCH'])
    const signature = await signer.signMessage({ message })
    const fields = parseSiweMessage(message)
    expect(validateSiweMessage({ message: fields, domain: 'opensea.io', address: signer.address })).toBe(true)
    expect(await verifyMessage({ address: signer.address, message, signature })).toBe(true)
  })

  it('blocks it when characters Preflight cannot print hide it as bytes, which opensea.io would still accept', async () => {
    const message = siwe('opensea.io')
    const hidden = [
      message.replace('Sign in to trade.', 'Sign in to trade.\u0000'),
      `${message}\n\u0007`,
      message.replace('Sign in to trade.', 'Sign in to trade.\u202e'),
    ]
    for (const variant of hidden) {
      const time = new Date('2026-11-26T10:00:00Z')
      expect(validateSiweMessage({ message: parseSiweMessage(variant), domain: 'opensea.io', time })).toBe(true)
      const response = await scan(variant, 'https://opensea-rewards.example')
      expect(response.action).toBe('BLOCK')
      expect(response.warnings.map((warning) => warning.kind)).toContain('SIGN_IN_DOMAIN_MISMATCH')
    }
  })

  it('lets the site sign its own users in', async () => {
    const response = await scan(siwe('opensea.io'), 'https://opensea.io')
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
  })
})
