/** Pure helpers of transaction scans: amounts, revert reasons, Safe codes, domains, MultiSend, request fields. */
import {
  concat,
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  encodePacked,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  size,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { multiSendAbi } from '../../src/engine/abi/abis.ts'
import { decodeRevert, explainSafeCode } from '../../src/engine/abi/revert.ts'
import { parseAddress, parseAmount } from '../../src/engine/api/validate.ts'
import { formatAmount, isUnlimited, shortAddress } from '../../src/engine/assets/format.ts'
import { actionFor } from '../../src/engine/risk/action.ts'
import { checkDomain, editDistance, originWarnings } from '../../src/engine/risk/phishing.ts'
import { makeWarning, sortWarnings } from '../../src/engine/risk/warnings.ts'
import { decodeMultiSend, expandCalls } from '../../src/engine/safe/calls.ts'
import { prevalidatedSignature } from '../../src/engine/safe/preset.ts'
import { MAX_TX_OBJECTS, parseTransactionsRequest } from '../../src/engine/scan/transactionsRequest.ts'

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('formatAmount', () => {
  it.each([
    [parseEther('1'), 18, '1'],
    [parseUnits('1000', 6), 6, '1,000'],
    [parseUnits('1234567.891', 6), 6, '1,234,567.891'],
    [1n, 18, '<0.000001'],
    [parseUnits('0.1234567', 18), 18, '0.123456'],
    [-parseUnits('2.5', 6), 6, '-2.5'],
    [0n, 6, '0'],
    [123456789012345678901234567890n, 18, '123,456,789,012.345678'],
  ])('%s with %i decimals → %s', (amount, decimals, text) => {
    expect(formatAmount(amount, decimals)).toBe(text)
  })

  it('keeps precision where floats would not: 0.1 + 0.2 of an 18-decimal token is exactly 0.3', () => {
    expect(formatAmount(parseEther('0.1') + parseEther('0.2'), 18)).toBe('0.3')
  })

  it('shortens addresses to 0x1234…abcd and treats half of max uint as unlimited', () => {
    expect(shortAddress(ALICE)).toBe('0x7099…79c8')
    expect(isUnlimited(maxUint256)).toBe(true)
    expect(isUnlimited(maxUint256 / 2n)).toBe(true)
    expect(isUnlimited(parseUnits('1000000000', 18))).toBe(false)
    expect(isUnlimited(2n ** 160n - 1n, 160)).toBe(true)
  })
})

describe('decodeRevert', () => {
  const errorString = (message: string) =>
    encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [message] })

  it('explains Safe GS codes in plain English', () => {
    expect(decodeRevert(errorString('GS013'))).toEqual({
      reason: 'execution reverted: GS013',
      explanation:
        'The transaction would fail. Safe error GS013: the Safe transaction itself failed (its inner call reverted) and neither safeTxGas nor gasPrice was set.',
    })
    expect(explainSafeCode('GS026')).toMatch(/not an owner/)
    expect(explainSafeCode('Ownable: caller is not the owner')).toBeNull()
  })

  it('decodes Error(string), Panic and OpenZeppelin custom errors', () => {
    expect(decodeRevert(errorString('forward failed')).explanation).toBe('The transaction would fail: forward failed.')
    const panic = encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [0x11n] })
    expect(decodeRevert(panic)).toEqual({
      reason: 'execution reverted: Panic(0x11)',
      explanation: 'The transaction would fail: an arithmetic operation overflowed or underflowed.',
    })
    const allowance = encodeErrorResult({
      abi: parseAbi(['error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)']),
      errorName: 'ERC20InsufficientAllowance',
      args: [ALICE, 1n, 2n],
    })
    expect(decodeRevert(allowance).explanation).toBe(
      `The transaction would fail: the spender ${ALICE} is allowed 1 base units of the token but 2 are needed.`,
    )
  })

  it('reports unknown errors by selector and empty reverts as such', () => {
    expect(decodeRevert('0xdeadbeef').reason).toBe('execution reverted: custom error 0xdeadbeef')
    expect(decodeRevert('0x')).toEqual({
      reason: 'execution reverted',
      explanation: 'The transaction reverted without giving a reason.',
    })
  })
})

describe('Safe helpers', () => {
  it('the pre-validated signature is r = owner, s = 0, v = 1 (65 bytes)', () => {
    const signature = prevalidatedSignature(ALICE)
    expect(size(signature)).toBe(65)
    expect(signature).toBe(
      concat([
        encodeAbiParameters([{ type: 'address' }], [ALICE]),
        encodeAbiParameters([{ type: 'uint256' }], [0n]),
        '0x01',
      ]),
    )
  })

  it('unwraps MultiSend batches into their calls, from the caller (delegatecall semantics)', () => {
    const transfer = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 value)']),
      functionName: 'transfer',
      args: [BOB, 5n],
    })
    const packed = concat([
      encodePacked(['uint8', 'address', 'uint256', 'uint256'], [0, BOB, parseEther('1'), 0n]),
      encodePacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [1, ALICE, 0n, BigInt(size(transfer)), transfer],
      ),
    ])
    const data = encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
    expect(decodeMultiSend(data)).toEqual([
      { to: BOB, value: parseEther('1'), data: '0x', delegate: false },
      { to: ALICE, value: 0n, data: transfer, delegate: true },
    ])
    const calls = expandCalls({ from: ALICE, to: BOB, value: 0n, data, depth: 0 })
    expect(calls.map((call) => [call.from, call.to, call.depth, call.delegate])).toEqual([
      [ALICE, BOB, 0, undefined],
      [ALICE, BOB, 1, false],
      [ALICE, ALICE, 1, true],
    ])
  })
})

describe('origin checks against the bundled phishing list', () => {
  it('blocklisted domains and their subdomains are CRITICAL; allowlisted ones pass', () => {
    expect(checkDomain('moonbirds.tv')).toEqual({ kind: 'BLOCKED', match: 'moonbirds.tv' })
    expect(checkDomain('claim.moonbirds.tv')).toEqual({ kind: 'BLOCKED', match: 'moonbirds.tv' })
    expect(checkDomain('metamask.io')).toEqual({ kind: 'ALLOWED' })
    expect(originWarnings('https://claim.moonbirds.tv/mint')).toMatchObject([
      { kind: 'TRUSTED_BLOCKLIST_DOMAIN', severity: 'CRITICAL' },
    ])
  })

  it('look-alikes of popular sites are a COPY_CAT_DOMAIN warning; unrelated sites get nothing', () => {
    expect(checkDomain('metamesk.io')).toEqual({ kind: 'LOOKALIKE', target: 'metamask.io' })
    expect(originWarnings('https://opensae.io')).toMatchObject([{ kind: 'COPY_CAT_DOMAIN', severity: 'WARNING' }])
    expect(originWarnings('https://app.example.org')).toEqual([])
    expect(originWarnings('http://127.0.0.1:5173')).toEqual([])
    expect(editDistance('kitten', 'sitting')).toBe(3)
  })
})

describe('warnings and action', () => {
  it('BLOCK on any critical, WARN on warnings, NONE otherwise; critical sorted first', () => {
    const warning = makeWarning('APPROVAL_TO_EOA', 'WARNING', 'w')
    const critical = makeWarning('KNOWN_MALICIOUS', 'CRITICAL', 'c')
    expect(actionFor([])).toBe('NONE')
    expect(actionFor([warning])).toBe('WARN')
    expect(actionFor([warning, critical])).toBe('BLOCK')
    expect(sortWarnings([warning, critical])).toEqual([critical, warning])
  })
})

describe('parseAmount', () => {
  it('accepts decimal and hex strings and safe integers; rejects the rest naming the field', () => {
    expect(parseAmount('1000', 'value')).toEqual({ ok: true, value: 1000n })
    expect(parseAmount('0x3e8', 'value')).toEqual({ ok: true, value: 1000n })
    expect(parseAmount(7, 'value')).toEqual({ ok: true, value: 7n })
    for (const bad of ['1e18', '-1', '01', '', 1.5, null, `0x1${'0'.repeat(64)}`]) {
      expect(parseAmount(bad, 'txObjects[0].value')).toMatchObject({
        ok: false,
        error: { field: 'txObjects[0].value' },
      })
    }
  })
})

describe('addresses: EIP-55 checksums', () => {
  const lower = ALICE.toLowerCase()
  const badChecksum = ALICE.replace('C51812', 'c51812')

  it('accepts lowercase, uppercase and correctly checksummed addresses, all normalised to the checksum form', () => {
    for (const address of [lower, `0x${lower.slice(2).toUpperCase()}`, ALICE]) {
      expect(parseAddress(address, 'to')).toEqual({ ok: true, value: ALICE })
    }
  })

  it('refuses a mixed-case address whose checksum is wrong, naming the field and the reason', () => {
    expect(parseAddress(badChecksum, 'txObjects[0].to')).toMatchObject({
      ok: false,
      error: { kind: 'INVALID_REQUEST', field: 'txObjects[0].to', message: expect.stringContaining('EIP-55 checksum') },
    })
  })
})

describe('transaction request bounds', () => {
  const request = (tx: Record<string, unknown>, count = 1) => ({
    txObjects: Array.from({ length: count }, () => ({ from: ALICE, to: BOB, ...tx })),
    userAccount: ALICE,
    metadata: { origin: 'https://app.example.org' },
  })

  it('gas above 2^64-1 is a request error, not a node error', () => {
    expect(parseTransactionsRequest(request({ gas: (2n ** 64n).toString() }))).toMatchObject({
      ok: false,
      error: { field: 'txObjects[0].gas', message: expect.stringContaining('2^64-1') },
    })
    expect(parseTransactionsRequest(request({ gas: (2n ** 64n - 1n).toString() })).ok).toBe(true)
  })

  it(`more than ${MAX_TX_OBJECTS} transactions is refused before any work`, () => {
    expect(parseTransactionsRequest(request({}, MAX_TX_OBJECTS)).ok).toBe(true)
    expect(parseTransactionsRequest(request({}, MAX_TX_OBJECTS + 1))).toMatchObject({
      ok: false,
      error: { field: 'txObjects' },
    })
  })
})
