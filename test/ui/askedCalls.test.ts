/**
 * A window whose scan failed (the node is down) showed the request only as raw JSON, its amount in hex wei
 * ("0xde0b6b3a7640000"): what it asks is now said in words, read from the params the wallet will receive.
 */
import { encodeFunctionData, erc20Abi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { askedCalls } from '../../src/extension/ui/lib/askedCalls.ts'

const TO = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'
const TOKEN = '0x6289c48bb5e754a035aaa485e66487fdf8219edf'
const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [TO, 100n] })

describe('what a request asks, without a simulation', () => {
  it('says the recipient and the amount of a plain send, in ETH', () => {
    const params = [{ from: TO, to: TO, value: '0xde0b6b3a7640000' }]
    expect(askedCalls({ method: 'eth_sendTransaction', params, chainId: 31337 })).toEqual([
      { to: TO, value: '1 ETH', data: 'none' },
    ])
  })

  it('names the function a call makes and its size, and a deployment as such', () => {
    const params = [{ from: TO, to: TOKEN, data: transfer }]
    expect(askedCalls({ method: 'eth_sendTransaction', params, chainId: 137 })).toEqual([
      { to: TOKEN, value: '0 POL', data: 'function 0xa9059cbb, 68 bytes' },
    ])
    const deployment = [{ from: TO, input: '0x6080604052' }]
    expect(askedCalls({ method: 'eth_signTransaction', params: deployment, chainId: 1 })).toEqual([
      { to: null, value: '0 ETH', data: 'function 0x60806040, 5 bytes' },
    ])
  })

  it('lists each call of a batch', () => {
    const params = [
      {
        from: TO,
        calls: [
          { to: TO, value: '0x1' },
          { to: TOKEN, data: transfer },
        ],
      },
    ]
    expect(askedCalls({ method: 'wallet_sendCalls', params, chainId: 1 })).toEqual([
      { to: TO, value: '0.000000000000000001 ETH', data: 'none' },
      { to: TOKEN, value: '0 ETH', data: 'function 0xa9059cbb, 68 bytes' },
    ])
  })

  it('reads a signed transaction', async () => {
    const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
    const raw = await account.signTransaction({
      chainId: 1,
      to: TO,
      value: parseEther('2.5'),
      gas: 21000n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
      nonce: 0,
    })
    expect(askedCalls({ method: 'eth_sendRawTransaction', params: [raw], chainId: 31337 })).toEqual([
      { to: TO, value: '2.5 ETH', data: 'none' },
    ])
  })

  it('is nothing for a signature', () => {
    expect(askedCalls({ method: 'personal_sign', params: ['0x68656c6c6f', TO], chainId: 1 })).toBeNull()
  })
})
