/**
 * The control events and who they count against, on logs written out here: which shapes are read, whose loss of
 * control is warned about, and the contracts a request creates (no code before it) left alone. The devnet test
 * (test/engine/scan/contractControl.test.ts) proves the same against OpenZeppelin's contracts executed for real.
 */
import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  pad,
  toEventSelector,
  zeroAddress,
  zeroHash,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { contractControlAbi } from '../../../src/engine/abi/index.ts'
import { contractControlWarnings } from '../../../src/engine/risk/contractControl.ts'
import {
  type ControlEvent,
  controlEvents,
  readKeys,
  type SimulatedLog,
  type SimulationResult,
} from '../../../src/engine/simulation/index.ts'

const USER: Address = '0x1111111111111111111111111111111111111111'
const SAFE: Address = '0x5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe'
const OTHER: Address = '0x2222222222222222222222222222222222222222'
const CONTRACT: Address = '0xc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0'
const TIMELOCK: Address = '0x7777777777777777777777777777777777777777'

type EventName =
  | 'OwnershipTransferred'
  | 'OwnershipTransferStarted'
  | 'RoleGranted'
  | 'RoleRevoked'
  | 'Upgraded'
  | 'LogSetOwner'
  | 'LogSetAuthority'

function log(eventName: EventName | 'BeaconUpgraded', args: Record<string, unknown>, address = CONTRACT): SimulatedLog {
  const topics = encodeEventTopics({ abi: contractControlAbi, eventName, args } as never) as Hex[]
  return { address, topics, data: '0x' }
}

function adminChanged(previousAdmin: Address, newAdmin: Address): SimulatedLog {
  const topics = encodeEventTopics({ abi: contractControlAbi, eventName: 'AdminChanged' }) as Hex[]
  const data = encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [previousAdmin, newAdmin])
  return { address: CONTRACT, topics, data }
}

/** A simulation whose one transaction logged `logs`; `codeSizes` are the before-reads of code sizes. */
function result(logs: SimulatedLog[], codeSizes: Record<Address, bigint> = { [CONTRACT]: 100n }): SimulationResult {
  const before = new Map<string, unknown>(
    Object.entries(codeSizes).map(([address, size]) => [readKeys.codeSize(address as Address), size]),
  )
  return {
    chainId: 1,
    outcomes: [{ logs } as never],
    controls: controlEvents(logs),
    reads: { before, after: new Map() },
    safes: new Map([[SAFE.toLowerCase(), { owners: [USER] } as never]]),
  } as unknown as SimulationResult
}

const warn = (logs: SimulatedLog[], codeSizes?: Record<Address, bigint>) =>
  contractControlWarnings(result(logs, codeSizes), [], USER).map((warning) => warning.data)

describe('control events', () => {
  it('reads each event, and skips the shapes that only share a name', () => {
    const owner = log('OwnershipTransferred', { previousOwner: USER, newOwner: OTHER })
    const events: ControlEvent[] = controlEvents([
      owner,
      log('RoleGranted', { role: zeroHash, account: OTHER, sender: USER }),
      log('Upgraded', { implementation: OTHER }),
      adminChanged(USER, OTHER),
      // A non-standard event of the same name with one topic fewer, and an "address" topic with high bits set.
      { ...owner, topics: owner.topics.slice(0, 2) },
      { ...owner, topics: [owner.topics[0] as Hex, pad('0x01', { size: 32, dir: 'right' }), owner.topics[2] as Hex] },
    ])
    expect(events.map((event) => event.kind)).toEqual(['owner', 'roleGranted', 'implementation', 'admin'])
    expect(events[0]).toEqual({ kind: 'owner', contract: getAddress(CONTRACT), from: USER, to: OTHER, title: 'owner' })
  })
})

describe('contract control warnings', () => {
  it('warns when control goes to anyone but the user, whoever gives it: the user, a Safe, a timelock it drives', () => {
    expect(warn([log('OwnershipTransferred', { previousOwner: USER, newOwner: OTHER })])).toEqual([
      { contract: CONTRACT, contractControl: 'owner', previous: USER, next: OTHER, role: null },
    ])
    expect(warn([log('OwnershipTransferred', { previousOwner: SAFE, newOwner: OTHER })])).toHaveLength(1)
    expect(warn([log('OwnershipTransferred', { previousOwner: TIMELOCK, newOwner: OTHER })])).toHaveLength(1)
    expect(warn([log('RoleGranted', { role: zeroHash, account: OTHER, sender: TIMELOCK })])).toHaveLength(1)
    // Another Safe the request names, even one it executes for, is not the user: where control goes is spelled out.
    const toSafe = [log('OwnershipTransferred', { previousOwner: USER, newOwner: SAFE })]
    expect(contractControlWarnings(result(toSafe), [], USER)[0]?.message).toContain(
      'to the Safe 0x5afe…5afe, of which you are an owner.',
    )
    // Control coming to the user is no loss.
    expect(warn([log('OwnershipTransferred', { previousOwner: OTHER, newOwner: USER })])).toEqual([])
    expect(warn([log('RoleGranted', { role: zeroHash, account: USER, sender: OTHER })])).toEqual([])
    // Revoking someone else's role takes nothing from the user's side; losing one's own, or a Safe's, does.
    expect(warn([log('RoleRevoked', { role: zeroHash, account: OTHER, sender: USER })])).toEqual([])
    expect(warn([log('RoleRevoked', { role: zeroHash, account: USER, sender: OTHER })])).toHaveLength(1)
    expect(warn([log('RoleRevoked', { role: zeroHash, account: SAFE, sender: SAFE })])).toHaveLength(1)
  })

  it("ds-auth's owner and Compound's admin, pending admin and Timelock: read with or without the previous one", () => {
    const indexed = (signature: string, address: Address): SimulatedLog => ({
      address: CONTRACT,
      topics: [toEventSelector(signature), pad(address)],
      data: '0x',
    })
    const inData = (eventName: 'NewAdmin' | 'NewPendingAdmin', before: Address, after: Address): SimulatedLog => ({
      address: CONTRACT,
      topics: encodeEventTopics({ abi: contractControlAbi, eventName }) as Hex[],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [before, after]),
    })
    const events = controlEvents([
      log('LogSetOwner', { owner: OTHER }),
      inData('NewAdmin', USER, OTHER),
      inData('NewPendingAdmin', TIMELOCK, OTHER),
      indexed('NewAdmin(address)', OTHER),
      indexed('NewPendingAdmin(address)', OTHER),
    ])
    expect(events.map(({ kind, ...rest }) => ({ kind, from: 'from' in rest ? rest.from : undefined }))).toEqual([
      { kind: 'owner', from: null },
      { kind: 'owner', from: USER },
      // The previous pending admin is not who held control.
      { kind: 'pendingOwner', from: null },
      { kind: 'owner', from: null },
      { kind: 'pendingOwner', from: null },
    ])
    expect(events.map((event) => ('title' in event ? event.title : null))).toEqual([
      'owner',
      'admin',
      'admin',
      'admin',
      'admin',
    ])
    const offered = [inData('NewPendingAdmin', zeroAddress, OTHER)]
    const [offer] = contractControlWarnings(result(offered), [], USER)
    expect(offer?.message).toMatch(/^This offers admin rights over 0xc0c0…c0c0 to 0x2222…2222, which becomes its admin/)
  })

  it("other layouts: all in the data, Compound's implementation; an indexed event carrying data is skipped", () => {
    const owner = log('OwnershipTransferred', { previousOwner: USER, newOwner: OTHER })
    const twoWords = encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [USER, OTHER])
    const implementation: SimulatedLog = {
      address: CONTRACT,
      topics: [toEventSelector('NewImplementation(address,address)')],
      data: twoWords,
    }
    expect(controlEvents([{ ...owner, topics: owner.topics.slice(0, 1), data: twoWords }])).toMatchObject([
      { kind: 'owner', from: USER, to: OTHER },
    ])
    expect(controlEvents([implementation])).toMatchObject([{ kind: 'implementation', to: OTHER }])
    expect(controlEvents([{ ...owner, data: pad(OTHER) }])).toEqual([])
  })

  it("an owner named again is no handover; ds-auth's owner cleared leaves its authority, and is worded so", () => {
    expect(warn([log('OwnershipTransferred', { previousOwner: OTHER, newOwner: OTHER })])).toEqual([])
    const cleared = [log('LogSetOwner', { owner: zeroAddress })]
    expect(contractControlWarnings(result(cleared), [], USER)[0]?.message).toBe(
      'This leaves 0xc0c0…c0c0 without an owner: from then on only its authority, if it has one, can call its ' +
        'owner-only functions (minting, pausing, upgrades, fees or withdrawals, whichever it has).',
    )
  })

  it('a first owner set up, or a two-step offer withdrawn, is no handover', () => {
    expect(warn([log('OwnershipTransferred', { previousOwner: zeroAddress, newOwner: OTHER })])).toEqual([])
    expect(warn([log('OwnershipTransferStarted', { previousOwner: USER, newOwner: zeroAddress })])).toEqual([])
    expect(warn([log('OwnershipTransferStarted', { previousOwner: USER, newOwner: OTHER })])).toMatchObject([
      { contractControl: 'pendingOwner' },
    ])
  })

  it('a proxy that existed before takes other code or another admin: warned whoever did it', () => {
    expect(warn([log('Upgraded', { implementation: OTHER })])).toMatchObject([{ contractControl: 'implementation' }])
    expect(warn([log('BeaconUpgraded', { beacon: OTHER })])).toMatchObject([{ contractControl: 'beacon' }])
    // Some proxies emit the implementation unindexed, in the data.
    const [topic] = log('Upgraded', { implementation: OTHER }).topics
    const unindexed = { address: CONTRACT, topics: [topic as Hex], data: pad(OTHER) }
    expect(warn([unindexed])).toMatchObject([{ contractControl: 'implementation', next: OTHER }])
    expect(warn([adminChanged(OTHER, OTHER)])).toEqual([])
    expect(warn([adminChanged(zeroAddress, OTHER)])).toMatchObject([{ contractControl: 'admin', next: OTHER }])
    // ds-auth's authority: set, it may let anyone act as the owner; removed, it gives nothing away.
    expect(warn([log('LogSetAuthority', { authority: OTHER })])).toMatchObject([{ contractControl: 'authority' }])
    expect(warn([log('LogSetAuthority', { authority: zeroAddress })])).toEqual([])
  })

  it('a contract the request creates sets up its owner and code: no warning; one whose code was not read: warned', () => {
    const setUp = [
      log('OwnershipTransferred', { previousOwner: USER, newOwner: OTHER }),
      log('Upgraded', { implementation: OTHER }),
      adminChanged(zeroAddress, OTHER),
    ]
    expect(warn(setUp, { [CONTRACT]: 0n })).toEqual([])
    expect(warn(setUp, {})).toHaveLength(3)
  })

  it('says whether the new controller is a person or code, when the simulation read it', () => {
    const handover = [log('OwnershipTransferred', { previousOwner: USER, newOwner: OTHER })]
    const message = (sizes: Record<Address, bigint>) =>
      contractControlWarnings(result(handover, sizes), [], USER)[0]?.message
    expect(message({ [CONTRACT]: 1n, [OTHER]: 0n })).toContain('0x2222…2222, a personal account.')
    expect(message({ [CONTRACT]: 1n, [OTHER]: 5n })).toContain('0x2222…2222, a contract.')
    expect(message({ [CONTRACT]: 1n, [OTHER]: 23n })).toContain('an account delegated to code (EIP-7702)')
    expect(message({ [CONTRACT]: 1n })).toContain('to 0x2222…2222. The owner of 0xc0c0…c0c0 can call')
    expect(message({ [CONTRACT]: 1n })).toContain('from your account (0x1111…1111)')
  })
})
