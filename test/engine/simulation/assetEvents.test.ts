/** Permit2's allowance events read as ERC-20 approvals kept by Permit2, only from Permit2's own address. */
import { type Address, encodeAbiParameters, encodeEventTopics, type Hex, maxUint48, maxUint160, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { assetEventsFromLogs, PERMIT2_ADDRESS, type SimulatedLog } from '../../../src/engine/simulation/assetEvents.ts'

const OWNER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const TOKEN: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const SPENDER: Address = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD'
const events = parseAbi([
  'event Approval(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration)',
  'event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)',
])

const approvalLog = (address: Address, amount: bigint): SimulatedLog => ({
  address,
  topics: encodeEventTopics({
    abi: events,
    eventName: 'Approval',
    args: { owner: OWNER, token: TOKEN, spender: SPENDER },
  }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint160' }, { type: 'uint48' }], [amount, Number(maxUint48)]),
})
const permitLog = (amount: bigint): SimulatedLog => ({
  address: PERMIT2_ADDRESS,
  topics: encodeEventTopics({
    abi: events,
    eventName: 'Permit',
    args: { owner: OWNER, token: TOKEN, spender: SPENDER },
  }) as Hex[],
  data: encodeAbiParameters([{ type: 'uint160' }, { type: 'uint48' }, { type: 'uint48' }], [amount, 1_900_000_000, 0]),
})

describe('assetEventsFromLogs: Permit2', () => {
  it('reads its Approval (approve) and Permit (a permit submitted on chain) as approvals it keeps', () => {
    const { approvals, movements } = assetEventsFromLogs([approvalLog(PERMIT2_ADDRESS, maxUint160), permitLog(5n)])
    expect(movements).toEqual([])
    const kept = { kind: 'ERC20', token: TOKEN, owner: OWNER, spender: SPENDER, via: PERMIT2_ADDRESS }
    expect(approvals).toEqual([
      { ...kept, amount: maxUint160 },
      { ...kept, amount: 5n },
    ])
  })

  it('ignores the same events from any other contract: only Permit2 keeps allowances it can spend', () => {
    const elsewhere = '0x000000000000000000000000000000000000dEaD'
    expect(assetEventsFromLogs([approvalLog(elsewhere, maxUint160)]).approvals).toEqual([])
  })
})
