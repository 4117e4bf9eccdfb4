import './support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import { classifyMethod } from '../../../src/extension/inpage/methods.ts'
import { INTERCEPTED_METHODS } from '../../../src/extension/relay/protocol.ts'

describe('classifyMethod', () => {
  it('reviews every signing method by its exact name and lets other methods pass', () => {
    for (const method of INTERCEPTED_METHODS) expect(classifyMethod(method)).toEqual({ kind: 'intercept', method })
    for (const method of ['eth_chainId', 'eth_call', 'wallet_switchEthereumChain', 'eth_signTypedData_v2x']) {
      expect(classifyMethod(method)).toEqual({ kind: 'pass', prelude: false })
    }
  })

  it('lets the accounts and gas estimates pass as the prelude to a request, spelled exactly', () => {
    for (const method of ['eth_estimateGas', 'eth_requestAccounts', 'eth_accounts']) {
      expect(classifyMethod(method)).toEqual({ kind: 'pass', prelude: true })
    }
    expect(classifyMethod('ETH_ESTIMATEGAS')).toEqual({ kind: 'pass', prelude: false })
    expect(classifyMethod('toString')).toEqual({ kind: 'pass', prelude: false })
  })

  it('refuses a name that differs from a signing method only by case, spaces or invisible characters', () => {
    for (const method of [
      'ETH_SENDTRANSACTION',
      ' personal_sign',
      'eth_sign\t',
      'eth_send\u200bTransaction',
      'Wallet_SendCalls',
      'wallet_sendtransaction',
      'eth_signTypedData_V4\ufeff',
      'eth_sendTransaction\u1680',
      'personal\u180e_sign',
      'eth_\u034fsign',
      'eth_sendTransaction\u{e0020}',
      'eth_s\u0131gnTypedData_v4',
      'wallet_\u017fendCalls',
    ]) {
      expect(classifyMethod(method)).toMatchObject({ kind: 'refuse', code: 4200 })
    }
  })

  it('refuses a method that is not a primitive string, and names that are absurdly long', () => {
    for (const method of [new String('eth_sendTransaction'), { toString: () => 'eth_sign' }, 1, undefined, null]) {
      expect(classifyMethod(method)).toMatchObject({ kind: 'refuse', code: -32600 })
    }
    expect(classifyMethod('x'.repeat(300))).toMatchObject({ kind: 'refuse', code: 4200 })
  })
})
