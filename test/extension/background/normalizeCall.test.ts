import { keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { normalizeCall } from '../../../src/extension/background/normalizeCall.ts'
import { validateCall } from '../../../src/extension/background/validateCall.ts'
import type { HookCall } from '../../../src/extension/relay/protocol.ts'
import { parseJsonLossless } from '../../../src/extension/shared/losslessJson.ts'
import { decodeAnswer, decodeSignedTx } from '../../../src/extension/shared/signedTx.ts'

const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
/** anvil's first dev key (public test key): signs the raw transactions below. */
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

const call = (method: HookCall['method'], params: unknown, chainId: unknown = '0x7a69'): HookCall => ({
  method,
  params,
  accounts: [ACCOUNT],
  chainId,
  wallet: { label: 'Test', late: false },
})

// The worker has the scanner page decode signed transactions; here the same function runs in the test's process.
async function normal(hookCall: HookCall) {
  const result = await normalizeCall(hookCall, decodeSignedTx)
  if (!result.ok) throw new Error(`refused: ${result.error.message}`)
  return result.call
}

async function refusal(hookCall: HookCall) {
  const result = await normalizeCall(hookCall, decodeSignedTx)
  if (result.ok) throw new Error('accepted')
  return result.error
}

describe('parseJsonLossless', () => {
  it('keeps integers beyond 2^53 exact and leaves strings and safe numbers alone', () => {
    const text =
      '{"big": 115792089237316195423570985008687907853269984665640564039457584007913129639935, "n": 5, "s": "12345678901234567890", "e": "a\\"1", "f": -1.5e3}'
    expect(parseJsonLossless(text)).toEqual({
      big: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      n: 5,
      s: '12345678901234567890',
      e: 'a"1',
      f: -1500,
    })
  })
  it('throws on malformed JSON', () => {
    expect(() => parseJsonLossless('{"a":')).toThrow()
  })
})

describe('normalizeCall: transactions', () => {
  it('fills from and chainId from the wallet and writes every quantity as 0x-hex', async () => {
    expect(
      await normal(call('eth_sendTransaction', [{ to: OTHER, value: 2 ** 60, input: 'deadbeef', gasLimit: '21000' }])),
    ).toEqual({
      method: 'eth_sendTransaction',
      account: ACCOUNT,
      chainId: 31337,
      params: [
        {
          from: ACCOUNT,
          to: OTHER,
          value: '0x1000000000000000',
          input: '0xdeadbeef',
          gasLimit: '0x5208',
          chainId: '0x7a69',
        },
      ],
    })
  })

  it("keeps the fee fields, nonce and access list, reads a field set to null as absent and drops ethers' own options", async () => {
    const tx = {
      from: ACCOUNT.toUpperCase().replace('0X', '0x'),
      to: OTHER,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: '1000000000',
      nonce: 3,
      type: '0x2',
      accessList: [{ address: OTHER, storageKeys: [`0x${'00'.repeat(31)}01`] }],
      feeCurrency: null,
      customData: undefined,
      // ethers' own request options, on an object a dapp hands over as ethers built it: no wallet reads them.
      enableCcipRead: true,
      ccipReadEnabled: false,
      blockTag: 'latest',
    }
    expect((await normal(call('eth_signTransaction', [tx]))).params).toEqual([
      {
        from: ACCOUNT,
        to: OTHER,
        maxFeePerGas: '0x2540be400',
        maxPriorityFeePerGas: '0x3b9aca00',
        nonce: '0x3',
        type: '0x2',
        accessList: [{ address: OTHER, storageKeys: [`0x${'00'.repeat(31)}01`] }],
        chainId: '0x7a69',
      },
    ])
  })

  it("refuses a chain's own transaction fields and types rather than dropping them (the wallet would get another transaction)", async () => {
    const base = { from: ACCOUNT, to: OTHER, value: '0x1' }
    const cases: [Record<string, unknown>, RegExp][] = [
      // viem's Celo formatters: the fee is paid in this token, which the window would not show.
      [{ ...base, type: '0x7b', feeCurrency: '0x765de816845861e75a25fca122bb6898b8b1282a' }, /sets "feeCurrency"/],
      // viem's zkSync formatters: a paymaster pays, with its own input.
      [
        { ...base, type: '0x71', eip712Meta: { gasPerPubdata: '0xc350', paymasterParams: { paymaster: OTHER } } },
        /sets "eip712Meta"/,
      ],
      // zksync-ethers / ethers v5: the same, as customData.
      [{ ...base, customData: { paymasterParams: { paymaster: OTHER } } }, /sets "customData"/],
      [{ ...base, type: '0x7e' }, /type 0x7e, which Preflight cannot check \(it checks types 0x0, 0x1, 0x2\)/],
      [{ ...base, type: '0x71' }, /type 0x71/],
      [{ ...base, type: 3 }, /type 0x3/],
      [{ ...base, type: '0x4' }, /type 0x4/],
    ]
    for (const [tx, message] of cases) {
      expect(await refusal(call('eth_sendTransaction', [tx]))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(message),
      })
    }
    for (const type of ['0x0', '0x1', '0x2']) {
      expect((await normal(call('eth_sendTransaction', [{ ...base, type }]))).params[0]).toMatchObject({ type })
    }
  })

  it("reads MetaMask's contract creation spelling, to '0x' or '' with code, as a creation forwarded without to", async () => {
    for (const to of ['0x', '']) {
      for (const code of [{ data: '0x6000' }, { input: '0x6000' }]) {
        const { params } = await normal(call('eth_sendTransaction', [{ from: ACCOUNT, to, ...code }]))
        expect(params).toEqual([{ from: ACCOUNT, ...code, chainId: '0x7a69' }])
      }
      // Without code there is nothing to create: an address that is not one.
      expect(await refusal(call('eth_sendTransaction', [{ from: ACCOUNT, to, value: '0x1' }]))).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/params\[0\]\.to is not an address/),
      })
    }
  })

  it('refuses what a wallet could execute differently from what is shown', async () => {
    const base = { from: ACCOUNT, to: OTHER }
    const cases: [unknown, number, RegExp][] = [
      [{ ...base, data: '0x01', input: '0x02' }, -32602, /data and input/],
      [{ ...base, gas: '0x5208', gasLimit: '0x5209' }, -32602, /gas and gasLimit/],
      [{ ...base, gasPrice: '0x1', maxFeePerGas: '0x1' }, -32602, /gasPrice and maxFeePerGas/],
      [{ ...base, chainId: '0x1' }, 4901, /chain 1, but the wallet is on chain 31337/],
      [{ ...base, authorizationList: [{}] }, -32602, /EIP-7702/],
      [{ ...base, maxFeePerBlobGas: '0x1' }, -32602, /blob/],
      [{ ...base, value: '-1' }, -32602, /params\[0\]\.value/],
      [{ ...base, to: 'bob.eth' }, -32602, /params\[0\]\.to is not an address/],
      [{ ...base, data: '0x123' }, -32602, /even number/],
      [{ ...base, chainId: (2n ** 60n).toString() }, -32602, /params\[0\]\.chainId is not a chain id/],
    ]
    for (const [tx, code, message] of cases) {
      expect(await refusal(call('eth_sendTransaction', [tx]))).toMatchObject({
        code,
        message: expect.stringMatching(message),
      })
    }
  })

  it("reads wallet_sendTransaction, viem's retry of a refused eth_sendTransaction, as that transaction, refusals too", async () => {
    const tx = { to: OTHER, value: 1 }
    const sent = await normal(call('eth_sendTransaction', [tx]))
    expect(await normal(call('wallet_sendTransaction', [tx]))).toEqual({ ...sent, method: 'wallet_sendTransaction' })
    const delegating = { ...tx, authorizationList: [{}] }
    expect(await refusal(call('wallet_sendTransaction', [delegating]))).toEqual(
      await refusal(call('eth_sendTransaction', [delegating])),
    )
  })

  it('answers a wallet_sendCalls chain id no chain could have with the field, instead of failing unanswered', async () => {
    const batch = { version: '2.0.0', chainId: `0x${(2n ** 60n).toString(16)}`, calls: [{ to: OTHER }] }
    expect(await refusal(call('wallet_sendCalls', [batch]))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\[0\]\.chainId is not a chain id/),
    })
  })

  it('asks the dapp to connect the wallet when it has no account and names none', async () => {
    const noAccount = { ...call('eth_sendTransaction', [{ to: OTHER }]), accounts: [] }
    expect(await refusal(noAccount)).toMatchObject({ code: 4100 })
    // A wallet that did not answer eth_accounts (it failed, or took too long) did not say it has no account.
    for (const method of ['eth_sendTransaction', 'personal_sign'] as const) {
      const unanswered = {
        ...call(method, method === 'personal_sign' ? ['0x6869'] : [{ to: OTHER }]),
        accounts: undefined,
      }
      const error = await refusal(unanswered)
      expect(error.code).toBe(4100)
      expect(error.message).not.toMatch(/empty/)
      expect(error.message).toMatch(/did not answer/)
    }
  })

  it('normalises wallet_sendCalls 1.0 and 2.0.0 call by call and keeps capabilities', async () => {
    const batch = {
      version: '2.0.0',
      id: 'batch-1',
      chainId: '0x7a69',
      atomicRequired: true,
      calls: [{ to: OTHER, value: 1n, data: 'a9059cbb', extra: 1 }, { to: OTHER }],
      capabilities: { paymasterService: { url: 'https://pay.example' } },
    }
    expect((await normal(call('wallet_sendCalls', [batch]))).params).toEqual([
      {
        version: '2.0.0',
        id: 'batch-1',
        chainId: '0x7a69',
        from: ACCOUNT,
        atomicRequired: true,
        calls: [{ to: OTHER, value: '0x1', data: '0xa9059cbb' }, { to: OTHER }],
        capabilities: { paymasterService: { url: 'https://pay.example' } },
      },
    ])
    expect(await refusal(call('wallet_sendCalls', [{ calls: [] }]))).toMatchObject({
      message: expect.stringMatching(/calls .* non-empty/),
    })
  })

  it("refuses a wallet_sendCalls call for another chain than the batch's, which a wallet would send there", async () => {
    const batch = (calls: unknown[], chainId?: string) => ({ version: '1.0', ...(chainId ? { chainId } : {}), calls })
    const onChain1 = { to: OTHER, value: '0x1', chainId: '0x1' }
    expect(await refusal(call('wallet_sendCalls', [batch([{ to: OTHER }, onChain1], '0x7a69')]))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('params[0].calls[1].chainId is chain 1, but the batch is for chain 31337'),
    })
    // With no chain of its own, the batch is the wallet's chain; with neither, the first call's.
    expect(await refusal(call('wallet_sendCalls', [batch([onChain1])]))).toMatchObject({ code: -32602 })
    const unknownChain = call('wallet_sendCalls', [batch([onChain1, { to: OTHER, chainId: 10 }])], null)
    expect((await refusal(unknownChain)).message).toContain(
      'calls[1].chainId is chain 10, but the batch is for chain 1',
    )
    const named = await normal(call('wallet_sendCalls', [batch([onChain1])], null))
    expect(named.chainId).toBe(1)
    expect(named.params).toEqual([{ version: '1.0', chainId: '0x1', from: ACCOUNT, calls: [onChain1] }])
    const same = await normal(call('wallet_sendCalls', [batch([{ to: OTHER, chainId: 31337 }], '0x7a69')]))
    expect(same.params).toMatchObject([{ chainId: '0x7a69', calls: [{ to: OTHER, chainId: '0x7a69' }] }])
  })

  it('decodes eth_sendRawTransaction and finds who signed it; refuses what it cannot decode', async () => {
    const signer = privateKeyToAccount(DEV_KEY)
    const raw = await signer.signTransaction({
      chainId: 31337,
      to: OTHER,
      value: 5n,
      gas: 21000n,
      maxFeePerGas: 2n * 10n ** 9n,
      maxPriorityFeePerGas: 10n ** 9n,
      nonce: 7,
    })
    expect(await normal(call('eth_sendRawTransaction', [raw]))).toEqual({
      method: 'eth_sendRawTransaction',
      account: ACCOUNT,
      chainId: 31337,
      params: [raw],
    })
    const legacy = await signer.signTransaction({
      chainId: 31337,
      to: OTHER,
      value: 1n,
      gas: 21000n,
      gasPrice: 1n,
      nonce: 0,
    })
    expect((await normal(call('eth_sendRawTransaction', [legacy]))).account).toBe(ACCOUNT)
    // EIP-7966's variant, which waits for the receipt, is the same route for the same bytes.
    expect(await normal(call('eth_sendRawTransactionSync', [raw]))).toEqual({
      method: 'eth_sendRawTransactionSync',
      account: ACCOUNT,
      chainId: 31337,
      params: [raw],
    })
    expect(await refusal(call('eth_sendRawTransactionSync', ['0x02deadbeef']))).toMatchObject({ code: -32602 })
    expect(await refusal(call('eth_sendRawTransaction', ['0x02deadbeef']))).toMatchObject({ code: -32602 })
    expect(await refusal(call('eth_sendRawTransaction', [{ raw }]))).toMatchObject({ code: -32602 })
    // The scanner page's answer to the worker carries the same: the transaction, or the refusal as data.
    expect(await decodeAnswer(raw)).toEqual({ ok: true, signed: await decodeSignedTx(raw) })
    expect(await decodeAnswer('0x02deadbeef')).toEqual({
      ok: false,
      error: { code: -32602, message: expect.stringMatching(/could not decode this signed transaction/) },
    })
  })
})

describe('normalizeCall: signatures', () => {
  const typed = { types: { EIP712Domain: [] }, domain: {}, primaryType: 'EIP712Domain', message: {} }

  it('finds the signer and the data in either order, and puts them where each method expects them', async () => {
    expect((await normal(call('eth_signTypedData_v4', [typed, OTHER]))).params).toEqual([OTHER, typed])
    expect((await normal(call('eth_signTypedData_v3', [OTHER, typed]))).params).toEqual([OTHER, typed])
    const legacy = [{ type: 'string', name: 'Message', value: 'Hi' }]
    expect((await normal(call('eth_signTypedData_v1', [OTHER, legacy]))).params).toEqual([legacy, OTHER])
    expect((await normal(call('eth_signTypedData', [legacy, OTHER]))).params).toEqual([legacy, OTHER])
    expect((await normal(call('eth_signTypedData', [OTHER, typed]))).params).toEqual([OTHER, typed])
    expect((await normal(call('eth_signTypedData_v4', [typed]))).params).toEqual([ACCOUNT, typed])
  })

  it('forwards a JSON string re-written from its one parse: no duplicate keys, big integers exact', async () => {
    const text =
      '{"types":{},"domain":{},"primaryType":"P","message":{"to":"a","to":"b","amount":123456789012345678901234567890}}'
    const params = (await normal(call('eth_signTypedData_v4', [OTHER, text]))).params
    expect(params).toEqual([
      OTHER,
      '{"types":{},"domain":{},"primaryType":"P","message":{"to":"b","amount":"123456789012345678901234567890"}}',
    ])
    expect(await refusal(call('eth_signTypedData_v4', [OTHER, '{not json']))).toMatchObject({
      message: expect.stringMatching(/params\[1\] is not valid JSON/),
    })
  })

  it('writes bigints and unsafe integers of an object as exact decimal strings', async () => {
    const data = { ...typed, message: { amount: 2n ** 200n, rough: 2 ** 60 } }
    expect((await normal(call('eth_signTypedData_v4', [OTHER, data]))).params[1]).toMatchObject({
      message: { amount: (2n ** 200n).toString(), rough: (2n ** 60n).toString() },
    })
  })

  it('simulates typed data on the chain its domain binds it to, whatever chain the page says the wallet is on', async () => {
    const chainBound = { ...typed, types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }] } }
    const onOptimism = { ...chainBound, domain: { chainId: 10 } }
    expect((await normal(call('eth_signTypedData_v4', [OTHER, onOptimism], '0x1'))).chainId).toBe(10)
    const asText = JSON.stringify({ ...chainBound, domain: { chainId: '0x89' } })
    expect((await normal(call('eth_signTypedData_v4', [OTHER, asText], '0x1'))).chainId).toBe(137)
    expect((await normal(call('eth_signTypedData_v4', [OTHER, typed], '0x1'))).chainId).toBe(1)
    const noChain = { ...chainBound, domain: { chainId: -3 } }
    expect((await normal(call('eth_signTypedData_v4', [OTHER, noChain], '0x1'))).chainId).toBe(1)
    // Text the wallet's encoder reads as a number (BigInt's forms) binds that chain as the scan reads it.
    for (const written of [' 10', '+10', '0o12', '10 ']) {
      const loose = { ...chainBound, domain: { chainId: written } }
      expect((await normal(call('eth_signTypedData_v4', [OTHER, loose], '0x1'))).chainId).toBe(10)
    }
  })

  it('ignores a domain chainId that types.EIP712Domain does not declare: it is not signed, so it binds no chain', async () => {
    // Safe 1.1.1 and 1.2.0 sign EIP712Domain(address verifyingContract): such a SafeTx executes on every chain.
    const safe = { ...typed, types: { EIP712Domain: [{ name: 'verifyingContract', type: 'address' }] } }
    const claimsOptimism = { ...safe, domain: { verifyingContract: OTHER, chainId: 10 } }
    expect((await normal(call('eth_signTypedData_v4', [OTHER, claimsOptimism], '0x1'))).chainId).toBe(1)
    const noDomainType = { types: {}, domain: { chainId: 10 }, primaryType: 'P', message: {} }
    expect((await normal(call('eth_signTypedData_v4', [OTHER, noDomainType], '0x1'))).chainId).toBe(1)
  })

  it('forwards an ERC-7715 permission request as copied, for the account and chain its first permission names', async () => {
    const permission = {
      chainId: '0x1',
      address: OTHER,
      signer: { type: 'account', data: { address: ACCOUNT } },
      permission: { type: 'native-token-stream', data: { amountPerSecond: 2n ** 70n } },
      expiry: 1900000000,
    }
    const normalised = await normal(call('wallet_grantPermissions', [[permission]], '0x7a69'))
    expect(normalised).toMatchObject({ account: OTHER.toLowerCase(), chainId: 1 })
    expect(normalised.params).toEqual([
      [{ ...permission, permission: { ...permission.permission, data: { amountPerSecond: (2n ** 70n).toString() } } }],
    ])
    const { address: _none, chainId: _wallets, ...bare } = permission
    expect(await normal(call('wallet_requestExecutionPermissions', [[bare]]))).toMatchObject({
      account: ACCOUNT,
      chainId: 31337,
    })
    for (const params of [[], [[]], [['not an object']], [{ chainId: '0x1' }]]) {
      expect(await refusal(call('wallet_grantPermissions', params)), JSON.stringify(params)).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/non-empty list of objects/),
      })
    }
  })

  it("checks every entry of an ERC-7715 request and forwards each one's chain as the minimal hex the window names", async () => {
    const stream = {
      signer: { type: 'account', data: { address: OTHER } },
      permission: { type: 'native-token-stream' },
    }
    const normalised = await normal(
      call('wallet_requestExecutionPermissions', [
        [
          { chainId: '0x7a69', ...stream },
          { chainId: 10, from: OTHER, ...stream },
          { ...stream, address: null },
        ],
      ]),
    )
    expect(normalised).toMatchObject({ account: ACCOUNT, chainId: 31337 })
    expect(normalised.params).toEqual([
      [
        { chainId: '0x7a69', ...stream },
        { chainId: '0xa', from: OTHER, ...stream },
        { ...stream, address: null, chainId: '0x7a69' },
      ],
    ])
    const refused: [unknown[], RegExp][] = [
      [
        [
          { chainId: '0x1', ...stream },
          { chainId: 'ten', ...stream },
        ],
        /params\[0\]\[1\]\.chainId/,
      ],
      [
        [
          { chainId: '0x1', ...stream },
          { chainId: '0x1', from: 'me', ...stream },
        ],
        /params\[0\]\[1\]\.from/,
      ],
      [[{ chainId: '0x1', ...stream, from: OTHER, address: ACCOUNT }], /name different accounts/],
    ]
    for (const [entries, message] of refused) {
      expect(await refusal(call('wallet_grantPermissions', [entries]))).toMatchObject({ code: -32602, message })
    }
    expect(await refusal(call('wallet_grantPermissions', [[stream]], null))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/params\[0\]\[0\]\.chainId is missing/),
    })
  })

  it('puts personal_sign in the standard order and checks eth_sign', async () => {
    expect((await normal(call('personal_sign', [OTHER, '0x6869']))).params).toEqual(['0x6869', OTHER])
    expect((await normal(call('personal_sign', ['0x6869']))).params).toEqual(['0x6869', ACCOUNT])
    expect((await normal(call('eth_sign', [OTHER, '0xAB']))).params).toEqual([OTHER, '0xab'])
    expect(await refusal(call('eth_sign', [OTHER, 'hello']))).toMatchObject({ code: -32602 })
  })

  it('forwards a personal_sign message as sent (wallets differ on bare hex digits) and pads eth_sign as wallets do', async () => {
    const hash = keccak256(toHex('a Safe transaction'))
    const digits = hash.slice(2)
    // MetaMask signs bare hex digits as bytes and wallets that sign with eth-sig-util alone as text: the engine reads
    // them as bytes (the case that can hide a hash), and what the dapp sent is what its wallet gets.
    for (const message of [digits, `0X${digits}`, `0x${digits.slice(1)}`, 'Sign in: 0xab12']) {
      expect((await normal(call('personal_sign', [message, OTHER]))).params, message).toEqual([message, OTHER])
    }
    const odd = `0x${digits.slice(1)}`
    expect((await normal(call('eth_sign', [OTHER, odd.toUpperCase().replace('0X', '0x')]))).params).toEqual([
      OTHER,
      `0x0${digits.slice(1)}`,
    ])
  })

  it('reads the chain the wallet reports in any form, and 0 when it said none', async () => {
    for (const [chainId, expected] of [
      ['0x1', 1],
      [10, 10],
      ['137', 137],
      [null, 0],
      ['mainnet', 0],
      [-5, 0],
    ] as const) {
      expect((await normal(call('personal_sign', ['0x01', OTHER], chainId))).chainId).toBe(expected)
    }
  })
})

describe('validateCall', () => {
  const hookCall = call('personal_sign', ['0x6869', ACCOUNT])
  it('accepts a well-formed call from the page and keeps the wallet label short', () => {
    expect(validateCall(hookCall)).toEqual({ ok: true, call: hookCall })
    const long = validateCall({ ...hookCall, wallet: { label: 'x'.repeat(500), late: 'yes' } })
    expect(long.ok && long.call.wallet).toEqual({ label: 'x'.repeat(80), late: false })
  })
  it("keeps of the wallet's answers only what the worker reads: the first account and the chain, of a sane length", () => {
    const answered = (accounts: unknown, chainId: unknown) => {
      const checked = validateCall({ ...hookCall, accounts, chainId })
      return checked.ok ? { accounts: checked.call.accounts, chainId: checked.call.chainId } : checked
    }
    const huge = 'x'.repeat(1_000_000)
    expect(answered([ACCOUNT, ...Array(10_000).fill(huge)], huge)).toEqual({ accounts: [ACCOUNT], chainId: undefined })
    expect(answered([huge], 31337)).toEqual({ accounts: [], chainId: 31337 })
    expect(answered({ 0: ACCOUNT }, { toString: () => '0x1' })).toEqual({ accounts: undefined, chainId: undefined })
    expect(answered(undefined, '0x7a69')).toEqual({ accounts: undefined, chainId: '0x7a69' })
  })
  it('refuses methods it does not check and params too large to keep, with a -32602 error', () => {
    for (const bad of [{ ...hookCall, method: 'eth_chainId' }, { ...hookCall, params: ['x'.repeat(600_000)] }, null]) {
      expect(validateCall(bad)).toMatchObject({ ok: false, error: { code: -32602 } })
    }
  })
  it('refuses text with a lone surrogate, in a value or a key, naming where: storage would show it as U+FFFD', () => {
    const typed = { types: { EIP712Domain: [] }, domain: {}, primaryType: 'M', message: { note: 'ok \ud800 then' } }
    expect(validateCall(call('eth_signTypedData_v4', [ACCOUNT, typed]))).toMatchObject({
      ok: false,
      error: {
        code: -32602,
        message: expect.stringContaining('params[1].message.note holds text that is not valid Unicode'),
      },
    })
    expect(validateCall(call('personal_sign', ['\udc00', ACCOUNT]))).toMatchObject({ ok: false })
    const key = { ...typed, message: { 'a\udbff': 1, 'a\udbfe': 2 } }
    expect(validateCall(call('eth_signTypedData_v4', [ACCOUNT, key]))).toMatchObject({ ok: false })
    const emoji = { ...typed, message: { note: 'gm \ud83d\ude80' } }
    expect(validateCall(call('eth_signTypedData_v4', [ACCOUNT, emoji]))).toMatchObject({ ok: true })
  })
})
