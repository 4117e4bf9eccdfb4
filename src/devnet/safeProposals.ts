/**
 * The Safe proposals of the takeover scenarios, their honest counterpart and a proxy upgrade, built from the fixtures: plain data, so
 * the demo dapp, the engine tests, the e2e tests and the benchmark propose exactly the same transactions.
 */
import {
  type Address,
  concat,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  type Hex,
  parseAbi,
  parseEther,
  parseUnits,
  size,
} from 'viem'
import type { SafeTx } from '../engine/index.ts'
import { plainSafeTx } from './eip712.ts'
import type { Fixtures } from './fixtures.ts'

const settingsAbi = parseAbi([
  'function addOwnerWithThreshold(address owner, uint256 _threshold)',
  'function enableModule(address module)',
  'function setGuard(address guard)',
])
const swapperAbi = parseAbi(['function migrate(address singleton)'])
const proxyAdminAbi = parseAbi(['function upgradeAndCall(address proxy, address implementation, bytes data) payable'])
const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

/** Safe's delegate-call operation. */
const DELEGATECALL = 1

/** The attacker of every takeover scenario: dev account 8. */
export const safeAttacker = (fixtures: Fixtures): Address => fixtures.drainer.attacker

/** The recipient of the honest batch: dev account 3. */
const payee = (fixtures: Fixtures): Address => fixtures.accounts[3]?.address as Address

/** One packed MultiSend entry: operation, to, value, data length, data. */
function packed(operation: number, to: Address, value: bigint, data: Hex = '0x'): Hex {
  return encodePacked(
    ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
    [operation, to, value, BigInt(size(data)), data],
  )
}

function multiSend(entries: Hex[]): Hex {
  return encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [concat(entries)] })
}

/** The Safe calls one of its own settings functions. */
function settings(fixtures: Fixtures, nonce: bigint, data: Hex): SafeTx {
  return plainSafeTx(fixtures.safe.address, 0n, nonce, data)
}

/** "Migrate the Safe": a delegate call into the swapper, which writes the attacker's singleton into slot 0. */
export function takeoverProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const data = encodeFunctionData({ abi: swapperAbi, functionName: 'migrate', args: [fixtures.safeAttacks.singleton] })
  return { ...plainSafeTx(fixtures.safeAttacks.swapper, 0n, nonce, data), operation: DELEGATECALL }
}

/** Adds the attacker as an owner and lowers the threshold to 1: from then on the attacker alone controls the Safe. */
export function addOwnerProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const data = encodeFunctionData({
    abi: settingsAbi,
    functionName: 'addOwnerWithThreshold',
    args: [safeAttacker(fixtures), 1n],
  })
  return settings(fixtures, nonce, data)
}

/** Enables the attacker's sweeping module. */
export function enableModuleProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const data = encodeFunctionData({
    abi: settingsAbi,
    functionName: 'enableModule',
    args: [fixtures.safeAttacks.module],
  })
  return settings(fixtures, nonce, data)
}

/** Sets the attacker's guard, which refuses every later transaction. */
export function setGuardProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const data = encodeFunctionData({ abi: settingsAbi, functionName: 'setGuard', args: [fixtures.safeAttacks.guard] })
  return settings(fixtures, nonce, data)
}

/** What the honest batch pays dev account 3: 1 ETH and 100 USDC. */
export const HONEST_BATCH = { eth: parseEther('1'), usdc: parseUnits('100', 6) }

/** Two honest payments in one MultiSendCallOnly batch (delegate-called, as Safe{Wallet} batches). */
export function honestBatchProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const transfer = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [payee(fixtures), HONEST_BATCH.usdc],
  })
  const data = multiSend([
    packed(0, payee(fixtures), HONEST_BATCH.eth),
    packed(0, fixtures.erc20.address, 0n, transfer),
  ])
  return { ...plainSafeTx(fixtures.safeContracts.multiSendCallOnly, 0n, nonce, data), operation: DELEGATECALL }
}

/** The same payment through MultiSend, with the singleton swap hidden as the batch's second, delegate-called entry. */
export function hiddenDelegatecallBatchProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const swap = encodeFunctionData({ abi: swapperAbi, functionName: 'migrate', args: [fixtures.safeAttacks.singleton] })
  const data = multiSend([
    packed(0, payee(fixtures), HONEST_BATCH.eth),
    packed(DELEGATECALL, fixtures.safeAttacks.swapper, 0n, swap),
  ])
  return { ...plainSafeTx(fixtures.safeContracts.multiSend, 0n, nonce, data), operation: DELEGATECALL }
}

/** Upgrades the proxy the Safe administers to other code, through its ProxyAdmin: how a protocol's multisig upgrades. */
export function upgradeProxyProposal(fixtures: Fixtures, nonce: bigint): SafeTx {
  const { proxyAdmin, proxy, nextLogic } = fixtures.controlled
  const data = encodeFunctionData({
    abi: proxyAdminAbi,
    functionName: 'upgradeAndCall',
    args: [proxy, nextLogic, '0x'],
  })
  return plainSafeTx(proxyAdmin, 0n, nonce, data)
}

/** Every scenario by the id its demo button and tests use, with whether it must end at BLOCK. */
export const SAFE_SCENARIOS = {
  'safe-takeover': { build: takeoverProposal, malicious: true },
  'safe-add-owner': { build: addOwnerProposal, malicious: true },
  'safe-enable-module': { build: enableModuleProposal, malicious: true },
  'safe-set-guard': { build: setGuardProposal, malicious: true },
  'safe-honest-batch': { build: honestBatchProposal, malicious: false },
  'safe-hidden-delegatecall': { build: hiddenDelegatecallBatchProposal, malicious: true },
  'safe-upgrade-proxy': { build: upgradeProxyProposal, malicious: false },
} as const

export type SafeScenario = keyof typeof SAFE_SCENARIOS
