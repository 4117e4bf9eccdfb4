import { describe, expect, it } from 'vitest'
import type { Gate } from '../../../src/extension/inpage/patchProvider.ts'
import { patchProvider } from '../../../src/extension/inpage/patchProvider.ts'

type Provider = {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
  send?: (...args: unknown[]) => unknown
  sendAsync?: (payload: unknown, callback: (error: unknown, response?: unknown) => void) => void
}

/** A wallet that records the `this` and arguments of each call it receives. */
function recordingWallet() {
  const seen: { self: unknown; args: unknown[] }[] = []
  const wallet: Provider = {
    request(...args: unknown[]) {
      seen.push({ self: this, args })
      return Promise.resolve('wallet-answer')
    },
    sendAsync(...args: unknown[]) {
      seen.push({ self: this, args })
      ;(args[1] as (e: unknown, r: unknown) => void)(null, { result: 'async-answer' })
    },
  }
  return { wallet, seen }
}

const allow: Gate = async () => {}
const reject: Gate = async () => {
  throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
}

describe('patchProvider', () => {
  it('passes other methods straight through with the same this and arguments', async () => {
    const { wallet, seen } = recordingWallet()
    let gated = 0
    patchProvider(wallet, async () => {
      gated++
    })
    const args = { method: 'eth_chainId' }
    await expect(wallet.request(args)).resolves.toBe('wallet-answer')
    expect(seen).toEqual([{ self: wallet, args: [args] }])
    expect(gated).toBe(0)
  })

  it('forwards an allowed request as a snapshot taken when the dapp called', async () => {
    const { wallet, seen } = recordingWallet()
    patchProvider(wallet, allow)
    const params = ['0x6869', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8']
    const pending = wallet.request({ method: 'personal_sign', params })
    params[0] = '0xchanged'
    await expect(pending).resolves.toBe('wallet-answer')
    expect(seen[0]?.args[0]).toEqual({ method: 'personal_sign', params: ['0x6869', params[1]] })
  })

  it('rejects with the gate error and never calls the wallet, for request and the callback forms', async () => {
    const { wallet, seen } = recordingWallet()
    patchProvider(wallet, reject)
    await expect(wallet.request({ method: 'eth_sendTransaction', params: [{}] })).rejects.toMatchObject({ code: 4001 })
    const response = await new Promise((resolve) =>
      wallet.sendAsync?.({ id: 3, jsonrpc: '2.0', method: 'eth_sign', params: [] }, (error, reply) =>
        resolve({ error: (error as { code: number }).code, reply }),
      ),
    )
    expect(response).toEqual({
      error: 4001,
      reply: { id: 3, jsonrpc: '2.0', error: { code: 4001, message: 'User rejected the request.' } },
    })
    expect(seen).toEqual([])
  })

  it('gates send(payload) without a callback too, so that form cannot skip the check', async () => {
    const seen: unknown[] = []
    const wallet = {
      request: () => Promise.resolve('unused'),
      send(payload: unknown) {
        seen.push(payload)
        return Promise.resolve('sent')
      },
    }
    patchProvider(wallet, reject)
    await expect(wallet.send({ method: 'eth_sendTransaction', params: [{}] })).rejects.toMatchObject({ code: 4001 })
    expect(seen).toEqual([])
    patchProvider(wallet, allow)
    await expect(wallet.send({ method: 'eth_chainId' })).resolves.toBe('sent')
    expect(seen).toEqual([{ method: 'eth_chainId' }])
  })

  it('answers the callback with an error when the wallet throws instead of calling back', async () => {
    const wallet = {
      request: () => Promise.resolve('unused'),
      sendAsync(_payload: unknown, _callback: (error: unknown, reply: unknown) => void) {
        throw Object.assign(new Error('wallet is locked'), { code: 4100 })
      },
    }
    patchProvider(wallet, allow)
    const answers: unknown[] = []
    await new Promise<void>((resolve) =>
      wallet.sendAsync.call(
        wallet,
        { id: 1, method: 'personal_sign', params: [] },
        (error: unknown, reply: unknown) => {
          answers.push({ code: (error as { code: number }).code, reply })
          resolve()
        },
      ),
    )
    expect(answers).toEqual([
      { code: 4100, reply: { id: 1, jsonrpc: '2.0', error: { code: 4100, message: 'wallet is locked' } } },
    ])
  })

  it('patches once, and keeps a method the wallet reassigns later hooked', async () => {
    const { wallet } = recordingWallet()
    let gated = 0
    const gate: Gate = async () => {
      gated++
    }
    patchProvider(wallet, gate)
    patchProvider(wallet, gate)
    await wallet.request({ method: 'eth_sign', params: [] })
    expect(gated).toBe(1)
    wallet.request = () => Promise.resolve('replaced')
    await expect(wallet.request({ method: 'eth_sign', params: [] })).resolves.toBe('replaced')
    expect(gated).toBe(2)
  })

  it('wraps a frozen provider in a proxy that hooks the same way and forwards the rest', async () => {
    const { wallet, seen } = recordingWallet()
    const frozen = Object.freeze(Object.assign(wallet, { isDev: true }))
    const usable = patchProvider(frozen, reject) as Provider & { isDev: boolean }
    expect(usable).not.toBe(frozen)
    expect(patchProvider(frozen, reject)).toBe(usable)
    expect(patchProvider(usable, reject)).toBe(usable)
    expect(usable.isDev).toBe(true)
    await expect(usable.request({ method: 'eth_chainId' })).resolves.toBe('wallet-answer')
    await expect(usable.request({ method: 'personal_sign', params: [] })).rejects.toMatchObject({ code: 4001 })
    expect(seen).toHaveLength(1)
  })

  it('hooks every wallet in providers[]', async () => {
    const first = recordingWallet()
    const second = recordingWallet()
    const multi = { providers: [first.wallet, second.wallet] }
    patchProvider(multi, reject)
    await expect(second.wallet.request({ method: 'eth_sendTransaction', params: [] })).rejects.toMatchObject({
      code: 4001,
    })
  })
})
