/** The gate every patched entry point goes through: what it asks the wallet and the worker, and in which order. */
import './support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import type { RelayChannel } from '../../../src/extension/inpage/channel.ts'
import { createGate } from '../../../src/extension/inpage/gate.ts'
import { askFunctions } from '../../../src/extension/inpage/wallets.ts'
import type { HookCall, Outcome } from '../../../src/extension/relay/protocol.ts'
import { withPlanted } from './support/planted.ts'

/** A wallet whose answers to eth_accounts and eth_chainId wait until the test releases them. */
function slowWallet(events: string[]) {
  const answers: (() => void)[] = []
  const provider = {
    request: ({ method }: { method: string }) =>
      new Promise((resolve) => {
        events.push(`wallet asked ${method}`)
        answers.push(() => resolve(method === 'eth_chainId' ? '0x1' : ['0x00000000000000000000000000000000000000aa']))
      }),
  }
  return {
    provider,
    release: () => {
      for (const answer of answers.splice(0)) answer()
    },
  }
}

function recordingChannel(events: string[]) {
  const calls: HookCall[] = []
  const channel: RelayChannel = {
    scan(call, done) {
      events.push('scan')
      calls.push(call)
      done({ kind: 'forward', params: call.params })
    },
    prelude: () => events.push('prelude'),
    coming: () => events.push('coming'),
    closeHandshake: () => {},
  }
  return { channel, calls }
}

describe('the gate', () => {
  it('announces the call before it asks the wallet, and sends the call once the wallet answered', async () => {
    const events: string[] = []
    const { provider, release } = slowWallet(events)
    const { channel, calls } = recordingChannel(events)
    const gate = createGate(channel)
    const outcome = new Promise<Outcome>((resolve) =>
      gate(
        { provider, info: { label: 'Test wallet', late: false }, askVia: askFunctions(provider) },
        'eth_sendTransaction',
        [{ to: '0x01', value: '0x1' }],
        resolve,
      ),
    )
    await new Promise((resolve) => setTimeout(resolve, 0))
    // The worker hears of the call (and can open its window) while the wallet has not answered yet.
    expect(events).toEqual(['coming', 'wallet asked eth_accounts', 'wallet asked eth_chainId'])
    release()
    expect(await outcome).toEqual({ kind: 'forward', params: [{ to: '0x01', value: '0x1' }] })
    expect(events.at(-1)).toBe('scan')
    expect(calls[0]).toMatchObject({
      method: 'eth_sendTransaction',
      accounts: ['0x00000000000000000000000000000000000000aa'],
      chainId: '0x1',
    })
  })

  it('refuses params it cannot copy without waking the worker or asking the wallet', async () => {
    const events: string[] = []
    const { provider } = slowWallet(events)
    const { channel } = recordingChannel(events)
    const params = [
      {
        get to() {
          throw new Error('hostile getter')
        },
      },
    ]
    const outcome = await new Promise<Outcome>((resolve) =>
      createGate(channel)(
        { provider, info: { label: 'Test wallet', late: false }, askVia: askFunctions(provider) },
        'eth_sendTransaction',
        params,
        resolve,
      ),
    )
    expect(outcome).toMatchObject({ kind: 'error', error: { code: -32602 } })
    expect(events).toEqual([])
  })
  it('refuses a transaction missing a field the page planted on Object.prototype, before the worker or the wallet', async () => {
    const events: string[] = []
    const { provider } = slowWallet(events)
    const { channel } = recordingChannel(events)
    const outcome = await withPlanted(
      { 'get:to': '0x000000000000000000000000000000000000dead' },
      () =>
        new Promise<Outcome>((resolve) =>
          createGate(channel)(
            { provider, info: { label: 'Test wallet', late: false }, askVia: askFunctions(provider) },
            'eth_sendTransaction',
            [{ from: '0x00000000000000000000000000000000000000aa', data: '0x60006000', value: '0x0' }],
            resolve,
          ),
        ),
    )
    expect(outcome).toMatchObject({
      kind: 'error',
      error: { code: -32603, message: expect.stringContaining('no "to"') },
    })
    expect(events).toEqual([])
  })
})
