import '../inpage/support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import {
  ALLOWANCE_MS,
  type ChannelRequest,
  channelAnswer,
  channelError,
  channelForward,
  createAllowances,
  readChannelMessage,
  scopeChain,
} from '../../../src/extension/relay/walletChannel.ts'

const TX = { from: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', to: '0x000000000000000000000000000000000000dead' }
const envelope = (data: unknown, target = 'metamask-contentscript') => ({
  target,
  data: { name: 'metamask-provider', data },
})
const signing = (message: unknown) => {
  const read = readChannelMessage(message)
  if (read.kind !== 'signing') throw new Error(`not a signing request: ${read.kind}`)
  return read.request
}

describe('readChannelMessage', () => {
  it("reads a signing request in MetaMask's envelope, and any wallet's that addresses a content script", () => {
    const request = { jsonrpc: '2.0', id: 3, method: 'eth_sendTransaction', params: [TX] }
    expect(signing(envelope(request))).toEqual({
      target: 'metamask-contentscript',
      name: 'metamask-provider',
      request,
      method: 'eth_sendTransaction',
      params: [TX],
    })
    expect(
      signing(envelope({ id: 1, method: 'personal_sign', params: ['0x68', TX.from] }, 'iron:contentscript')).method,
    ).toBe('personal_sign')
  })

  it('lets through what is no signing request: reads, answers, handshakes, other envelopes', () => {
    for (const message of [
      envelope({ id: 1, method: 'eth_chainId' }),
      envelope({ id: 1, result: '0x1' }),
      envelope('SYN'),
      { target: 'metamask-contentscript', data: 'ACK' },
      envelope({ id: 1, method: 'eth_sendTransaction', params: [TX] }, 'metamask-inpage'),
      { type: 'eth_sendTransaction', params: [TX] },
      envelope([{ id: 1, method: 'eth_chainId' }]),
      'eth_sendTransaction',
      null,
    ]) {
      expect(readChannelMessage(message)).toEqual({ kind: 'other' })
    }
  })

  it('refuses, with an answer for the page, a batch holding a signing request and a look-alike method name', () => {
    expect(
      readChannelMessage(
        envelope([
          { id: 1, method: 'eth_chainId' },
          { id: 2, method: 'eth_signTypedData_v4' },
        ]),
      ),
    ).toMatchObject({ kind: 'refused', target: 'metamask-contentscript', id: null, error: { code: -32600 } })
    expect(readChannelMessage(envelope({ id: 9, method: 'ETH_sendTransaction ', params: [TX] }))).toMatchObject({
      kind: 'refused',
      id: 9,
      error: { code: 4200 },
    })
  })
})

describe('envelopes the wallet reads more leniently than a provider posts', () => {
  const send = { id: 5, method: 'eth_sendTransaction', params: [TX] }

  it('refuses a signing request in an envelope that is an array, or under a stream name that is no plain string', () => {
    const asArray = {
      target: 'metamask-contentscript',
      data: Object.assign([], { name: 'metamask-provider', data: send }),
    }
    const asStringObject = { target: 'metamask-contentscript', data: { name: ['metamask-provider'], data: send } }
    for (const message of [asArray, asStringObject]) {
      expect(readChannelMessage(message)).toMatchObject({
        kind: 'refused',
        name: 'metamask-provider',
        id: 5,
        error: { code: -32600 },
      })
    }
    expect(
      readChannelMessage({ target: 'metamask-contentscript', data: Object.assign([], { name: 'x', data: 'SYN' }) }),
    ).toEqual({ kind: 'other' })
  })

  it('refuses a signing request carried by the named properties of an array, at every level a wallet reads', () => {
    // Structured cloning keeps an array's named properties; a wallet that reads `message.target` finds them.
    const messageAsArray = Object.assign([], envelope(send))
    const requestAsArray = envelope(Object.assign([], send))
    const invokeParamsAsArray = envelope({
      id: 5,
      method: 'wallet_invokeMethod',
      params: Object.assign([], { scope: 'eip155:1', request: { method: 'eth_sendTransaction', params: [TX] } }),
    })
    const invokedRequestAsArray = envelope({
      id: 5,
      method: 'wallet_invokeMethod',
      params: { scope: 'eip155:1', request: Object.assign([], { method: 'eth_sendTransaction', params: [TX] }) },
    })
    for (const message of [messageAsArray, requestAsArray, invokeParamsAsArray, invokedRequestAsArray]) {
      expect(readChannelMessage(message)).toMatchObject({ kind: 'refused', id: 5, error: { code: -32600 } })
    }
    expect(readChannelMessage(Object.assign([], envelope({ id: 1, method: 'eth_chainId' })))).toEqual({
      kind: 'other',
    })
  })
})

describe('a Multichain API call (wallet_invokeMethod)', () => {
  const invoke = (request: unknown, scope = 'eip155:8453') =>
    envelope({ jsonrpc: '2.0', id: 'm', method: 'wallet_invokeMethod', params: { scope, request } })

  it('is read as the signing request it carries, for the chain its scope names', () => {
    const read = signing(invoke({ method: 'eth_signTypedData_v4', params: [TX.from, '{}'] }))
    expect(read).toMatchObject({ method: 'eth_signTypedData_v4', params: [TX.from, '{}'], scope: 'eip155:8453' })
    expect(scopeChain('eip155:8453')).toBe('0x2105')
    expect(scopeChain('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBeUndefined()
    expect(readChannelMessage(invoke({ method: 'eth_getBalance', params: [TX.from] }))).toEqual({ kind: 'other' })
    expect(readChannelMessage(invoke({ method: 'eth_sendtransaction', params: [TX] }))).toMatchObject({
      kind: 'refused',
      id: 'm',
    })
  })

  it('is refused in a batch, and for a scope that names no EVM chain', () => {
    const call = {
      method: 'wallet_invokeMethod',
      params: { scope: 'eip155:1', request: { method: 'eth_sendTransaction', params: [TX] } },
    }
    expect(readChannelMessage(envelope([call]))).toMatchObject({ kind: 'refused', id: null })
    for (const scope of ['eip155:01', 'eip155:0x1', 7, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']) {
      expect(
        readChannelMessage(invoke({ method: 'eth_sendTransaction', params: [TX] }, scope as string)),
      ).toMatchObject({
        kind: 'refused',
        id: 'm',
      })
    }
  })

  it('is forwarded with the params shown inside the same call', () => {
    const read = signing(invoke({ method: 'eth_sendTransaction', params: [TX] }))
    const shown = [{ ...TX, chainId: '0x2105' }]
    expect(channelForward(read, shown)).toEqual(invoke({ method: 'eth_sendTransaction', params: shown }))
  })
})

describe('the envelopes the relay posts', () => {
  const request = signing(envelope({ jsonrpc: '2.0', id: 'a', method: 'eth_sendTransaction', params: [TX] }))

  it('answers the page side of the channel, and forwards with the params shown in place of those posted', () => {
    expect(channelError('metamask-contentscript', 'metamask-provider', 'a', { code: 4001, message: 'no' })).toEqual({
      target: 'metamask-inpage',
      data: { name: 'metamask-provider', data: { jsonrpc: '2.0', id: 'a', error: { code: 4001, message: 'no' } } },
    })
    const shown = [{ ...TX, chainId: '0x1' }]
    expect(channelForward(request, shown)).toEqual(
      envelope({ jsonrpc: '2.0', id: 'a', method: 'eth_sendTransaction', params: shown }),
    )
  })

  it("reads the wallet's answer to the relay's own question, and only that", () => {
    const answer = (id: string, target = 'metamask-inpage') => ({
      target,
      data: { name: 'metamask-provider', data: { jsonrpc: '2.0', id, result: '0x7a69' } },
    })
    expect(channelAnswer(answer('q1'), 'metamask-contentscript', 'q1')).toEqual({ result: '0x7a69' })
    expect(channelAnswer(answer('q2'), 'metamask-contentscript', 'q1')).toBeUndefined()
    expect(channelAnswer(answer('q1', 'metamask-contentscript'), 'metamask-contentscript', 'q1')).toBeUndefined()
  })
})

describe('createAllowances', () => {
  const request = (params: unknown): ChannelRequest =>
    signing(envelope({ id: 1, method: 'eth_sendTransaction', params }))

  it('lets exactly the forwarded request through once, and nothing that differs from it', () => {
    const allowances = createAllowances()
    allowances.allow('eth_sendTransaction', [TX])
    expect(allowances.take(request([{ ...TX, value: '0x1' }]))).toBeUndefined()
    // The provider's message is replaced by the copy shown, whatever the page's world made of it.
    expect(allowances.take(request([{ ...TX, to: new String(TX.to) }]))).toEqual({ kind: 'rebuild', params: [TX] })
    expect(allowances.take(request([TX]))).toBeUndefined()
  })

  it("passes the relay's own post as it is, and no look-alike a wallet would read differently in its place", () => {
    const allowances = createAllowances()
    const own = request([TX])
    allowances.allow('eth_sendTransaction', [TX], own)
    // biome-ignore lint/suspicious/noSparseArray: JSON reads the hole as null, a wallet reading the list finds none
    for (const params of [[{ ...TX, to: new String(TX.to) }], Object.assign([TX], { from: TX.to }), [TX, ,]]) {
      allowances.allow('eth_sendTransaction', JSON.parse(JSON.stringify(params)), own)
      expect(allowances.take(request(params)), JSON.stringify(params)).toBeUndefined()
    }
    expect(allowances.take(own)).toEqual({ kind: 'pass' })
  })

  it('binds an allowance to its route: what went through the provider is no Multichain API call on some chain', () => {
    const allowances = createAllowances()
    allowances.allow('eth_sendTransaction', [TX])
    const invoked = signing(
      envelope({
        id: 1,
        method: 'wallet_invokeMethod',
        params: { scope: 'eip155:56', request: { method: 'eth_sendTransaction', params: [TX] } },
      }),
    )
    expect(allowances.take(invoked)).toBeUndefined()
    allowances.allow('eth_sendTransaction', [TX], invoked)
    expect(allowances.take({ ...invoked, scope: 'eip155:1' })).toBeUndefined()
    expect(allowances.take(invoked)).toEqual({ kind: 'pass' })
    expect(allowances.take(request([TX]))).toEqual({ kind: 'rebuild', params: [TX] })
  })

  it("throws rather than compare params JSON cannot carry, or that share one object past any request's size", () => {
    const allowances = createAllowances()
    expect(() => allowances.take(request([{ value: 1n }]))).toThrow()
    let shared: unknown[] = [TX]
    for (let depth = 0; depth < 40; depth++) shared = [shared, shared]
    const started = performance.now()
    expect(() => allowances.take(request(shared))).toThrow(/too large/)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('forgets an allowance the wallet did not use in time', () => {
    let now = 0
    const allowances = createAllowances(() => now)
    allowances.allow('eth_sendTransaction', [TX])
    now = ALLOWANCE_MS + 1
    expect(allowances.take(request([TX]))).toBeUndefined()
  })
})
