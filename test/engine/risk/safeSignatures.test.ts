/**
 * Safe signatures by hash, found in calldata wherever a transaction reaches them: an owner's approveHash sent
 * directly, from a nested Safe's execTransaction or inside a MultiSend, and SignMessageLib delegate-called only at
 * Safe's own addresses with bytes that are no text.
 */
import {
  type Address,
  concat,
  encodeFunctionData,
  encodePacked,
  type Hex,
  hexToBytes,
  keccak256,
  pad,
  size,
  toEventSelector,
  toHex,
  zeroAddress,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { multiSendAbi, safeAbi, signMessageLibAbi } from '../../../src/engine/abi/abis.ts'
import { unreadableBytes } from '../../../src/engine/risk/index.ts'
import { hashSignatureWarnings } from '../../../src/engine/risk/safeSignatures.ts'
import { type Call, expandCalls } from '../../../src/engine/safe/index.ts'
import { safeMessageHash } from '../../../src/engine/safe/versions.ts'

const OWNER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CHILD_SAFE: Address = '0x1111111111111111111111111111111111111111'
const PARENT_SAFE: Address = '0x2222222222222222222222222222222222222222'
/** SignMessageLib 1.4.1 and 1.3.0 where safe-deployments lists them. */
const SIGN_MESSAGE_LIB: Address = '0xd53cd0aB83D845Ac265BE939c57F53AD838012c9'
const SIGN_MESSAGE_LIB_130: Address = '0xA65387F16B013cf2Af4605Ad8aA5ec25a2cbA3a2'
/** Safe 1.4.1's MultiSend. */
const MULTI_SEND: Address = '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526'
const CHAIN = 31337
const HASH = keccak256(toHex('a transaction the request names only by its hash'))

const approveHash = encodeFunctionData({ abi: safeAbi, functionName: 'approveHash', args: [HASH] })
const signMessage = (data: Hex) =>
  encodeFunctionData({ abi: signMessageLibAbi, functionName: 'signMessage', args: [data] })

/** What a transaction from the owner to `to` with `data` reaches, as the engine unwraps it. */
const reached = (to: Address, data: Hex): Call[] => expandCalls({ from: OWNER, to, value: 0n, data, depth: 0 })
const childExec = (to: Address, data: Hex, operation = 0) =>
  execTransactionData({ ...plainSafeTx(to, 0n, 0n, data), operation })
const packed = (operation: number, to: Address, data: Hex) =>
  encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [operation, to, 0n, BigInt(size(data)), data])

describe('hashSignatureWarnings', () => {
  it('finds an owner’s approveHash sent directly, naming the Safe, the owner and the hash', () => {
    const [warning, ...rest] = hashSignatureWarnings(reached(PARENT_SAFE, approveHash), [], CHAIN)
    expect(rest).toEqual([])
    expect(warning).toMatchObject({ kind: 'MULTISIG_BLIND_SIGNATURE', severity: 'WARNING' })
    expect(warning?.data).toEqual({ safe: PARENT_SAFE.toLowerCase(), owner: OWNER.toLowerCase(), approvedHash: HASH })
  })

  it('finds approveHash given by a nested Safe: the child Safe approves for the parent', () => {
    const warnings = hashSignatureWarnings(reached(CHILD_SAFE, childExec(PARENT_SAFE, approveHash)), [], CHAIN)
    expect(warnings.map((warning) => warning.data)).toEqual([
      { safe: PARENT_SAFE.toLowerCase(), owner: CHILD_SAFE.toLowerCase(), approvedHash: HASH },
    ])
  })

  it('finds both inside a MultiSend batch, and SignMessageLib at any Safe release’s address', () => {
    const batch = encodeFunctionData({
      abi: multiSendAbi,
      functionName: 'multiSend',
      args: [concat([packed(0, PARENT_SAFE, approveHash), packed(1, SIGN_MESSAGE_LIB_130, signMessage(HASH))])],
    })
    const warnings = hashSignatureWarnings(reached(CHILD_SAFE, childExec(MULTI_SEND, batch, 1)), [], CHAIN)
    expect(warnings.map((warning) => warning.data)).toEqual([
      { safe: PARENT_SAFE.toLowerCase(), owner: CHILD_SAFE.toLowerCase(), approvedHash: HASH },
      { safe: CHILD_SAFE.toLowerCase(), signs: HASH },
    ])
  })

  it('leaves SignMessageLib alone when it signs text, is called without delegatecall, or is not Safe’s', () => {
    const text = signMessage(toHex('I agree to the terms of app.example.org'))
    expect(hashSignatureWarnings(reached(CHILD_SAFE, childExec(SIGN_MESSAGE_LIB, text, 1)), [], CHAIN)).toEqual([])
    expect(
      hashSignatureWarnings(reached(CHILD_SAFE, childExec(SIGN_MESSAGE_LIB, signMessage(HASH), 0)), [], CHAIN),
    ).toEqual([])
    // Someone else's code by delegatecall is CRITICAL in safeControl.ts; it is no Safe signature here.
    expect(hashSignatureWarnings(reached(CHILD_SAFE, childExec(zeroAddress, signMessage(HASH), 1)), [], CHAIN)).toEqual(
      [],
    )
  })
})

describe('hashSignatureWarnings, from the simulated events', () => {
  const approveHashLog = (safe: Address, owner: Address, hash: Hex) => ({
    address: safe,
    topics: [toEventSelector('ApproveHash(bytes32,address)'), hash, pad(owner)],
    data: '0x' as Hex,
  })
  const signMsgLog = (safe: Address, hash: Hex) => ({
    address: safe,
    topics: [toEventSelector('SignMsg(bytes32)'), hash],
    data: '0x' as Hex,
  })

  it('finds an approval or an on-chain signature the calldata does not show (a module, a smart account)', () => {
    const calls = reached(CHILD_SAFE, '0x')
    const warnings = hashSignatureWarnings(
      calls,
      [approveHashLog(PARENT_SAFE, CHILD_SAFE, HASH), signMsgLog(CHILD_SAFE, HASH)],
      CHAIN,
    )
    expect(warnings.map((warning) => warning.data)).toEqual([
      { safe: PARENT_SAFE.toLowerCase(), owner: CHILD_SAFE.toLowerCase(), approvedHash: HASH },
      { safe: CHILD_SAFE.toLowerCase() },
    ])
    for (const warning of warnings)
      expect(warning.message).toContain('by a route Preflight does not read from the calldata')
  })

  it('says once what the calldata already shows, and still finds a second action the calldata does not show', () => {
    const signsText = childExec(SIGN_MESSAGE_LIB, signMessage(toHex('I agree to the terms of app.example.org')), 1)
    const calls = reached(CHILD_SAFE, signsText)
    const textHash = safeMessageHash('1.4.1', CHAIN, CHILD_SAFE, toHex('I agree to the terms of app.example.org'))
    // The text's own SignMsg is shown (and readable); a second one, for a permit's hash, is not.
    expect(hashSignatureWarnings(calls, [signMsgLog(CHILD_SAFE, textHash)], CHAIN)).toEqual([])
    const hidden = hashSignatureWarnings(calls, [signMsgLog(CHILD_SAFE, textHash), signMsgLog(CHILD_SAFE, HASH)], CHAIN)
    expect(hidden.map((warning) => warning.message)).toEqual([expect.stringContaining(`SafeMessage hash is ${HASH}`)])
    // One owner's approval shown does not stand for another owner's.
    const approvals = hashSignatureWarnings(
      reached(PARENT_SAFE, approveHash),
      [approveHashLog(PARENT_SAFE, OWNER, HASH), approveHashLog(PARENT_SAFE, CHILD_SAFE, HASH)],
      CHAIN,
    )
    expect(approvals.map((warning) => (warning.data as { owner: string }).owner)).toEqual([
      OWNER.toLowerCase(),
      CHILD_SAFE.toLowerCase(),
    ])
  })

  it('says once what the calldata already shows', () => {
    const calls = reached(CHILD_SAFE, childExec(PARENT_SAFE, approveHash))
    const warnings = hashSignatureWarnings(calls, [approveHashLog(PARENT_SAFE, CHILD_SAFE, HASH)], CHAIN)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.message).not.toContain('by a route Preflight does not read from the calldata')
  })

  it('finds a Safe before 1.3.0 signing through its own signMessage', () => {
    const warnings = hashSignatureWarnings(reached(CHILD_SAFE, childExec(CHILD_SAFE, signMessage(HASH))), [], CHAIN)
    expect(warnings.map((warning) => warning.data)).toEqual([{ safe: CHILD_SAFE.toLowerCase(), signs: HASH }])
  })
})

describe('unreadableBytes', () => {
  it('takes any 32 bytes for a hash, even bytes ground until they decode as text', () => {
    expect(unreadableBytes(HASH)?.what).toBe(`whatever message has the hash ${HASH}`)
    const readable = toHex('Sign in to app.example.org now!!')
    expect(hexToBytes(readable)).toHaveLength(32)
    expect(unreadableBytes(readable)?.what).toBe(`whatever message has the hash ${readable}`)
  })

  it('names an EIP-712 encoding by the hash wallets show, counts other bytes, and is silent for text', () => {
    const encoding = concat(['0x1901', keccak256(toHex('domain')), keccak256(toHex('struct'))])
    expect(unreadableBytes(encoding)?.what).toBe(`the EIP-712 message with the hash ${keccak256(encoding)}`)
    expect(unreadableBytes('0x00ff01')).toEqual({
      what: '3 bytes that are neither text nor a message Preflight can read',
      check: 'tells you what these bytes are',
    })
    expect(unreadableBytes(toHex('Sign in to app.example.org'))).toBeNull()
  })
})
