/**
 * ERC-4337 user operations signed as typed data (EntryPoint v0.8): the account's owner signs a `PackedUserOperation`
 * and anyone can have a bundler run it. The real EntryPoint and SimpleAccount (`@account-abstraction/contracts` 0.8.0,
 * from the package's own build) run on the devnet. Reality is the oracle: each operation the scan judged is signed by
 * the owner with viem, submitted through `handleOps` by another account, and the balances move as the scan showed.
 * Safe's 4337 module (`@safe-global/safe-4337` 0.3.0, its own build) has each owner sign a `SafeOp`: the module,
 * enabled on a Safe 1.4.1, checks the owner's signature and runs the call for the EntryPoint it trusts, here an account
 * of the devnet's, which plays the bundler's EntryPoint.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAbiItem,
  type Hex,
  http,
  pad,
  parseAbi,
  parseEther,
  parseGwei,
  parseUnits,
  toFunctionSelector,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { takeoverProposal } from '../../../src/devnet/safeProposals.ts'
import { accountExecuteAbi } from '../../../src/engine/abi/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import {
  deployAccountKit,
  deployArtifact,
  ENTRY_POINT,
  execute,
  submitUserOperation,
  userOperation,
  userOperationTypedData,
  walletTypedData,
} from '../../support/userOperations.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

type Artifact = { abi: Abi; bytecode: Hex }
const requirePackage = createRequire(import.meta.url)
const safe4337 = (path: string): Artifact =>
  JSON.parse(readFileSync(requirePackage.resolve(`@safe-global/safe-4337/build/artifacts/contracts/${path}`), 'utf8'))

const fx = devnetRolledBackPerTest()
const validate = messageResponseValidator()
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const walletOf = (index: number) =>
  createWalletClient({
    chain: foundry,
    transport: http(fx().rpcUrl),
    account: privateKeyToAccount(fx().accounts[index]?.privateKey as Hex),
  })
const owner = () => walletOf(1)
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()
const BUNDLER = 7
const bundler = () => walletOf(BUNDLER)
const bundlerKey = () => fx().accounts[BUNDLER] as { privateKey: Hex }
const thief = () => fx().accounts[9]?.address as Address
const deploy = (contract: Artifact, args: unknown[]) => deployArtifact(fx().rpcUrl, bundlerKey(), contract, args)
const setUp = () => deployAccountKit(fx().rpcUrl, bundlerKey(), owner().account.address)
const typedDataOf = (entryPoint: Address, operation: UserOperation<'0.8'>) =>
  userOperationTypedData(fx().chainId, entryPoint, operation)

const request = (typedData: ReturnType<typeof typedDataOf>) => ({
  message: { kind: 'SIGN_TYPED_DATA', data: walletTypedData(typedData) },
  userAccount: owner().account.address,
  metadata: { origin: 'https://smart-account.example' },
})

/** The owner signs the operation as typed data, and the bundler submits it with itself as the beneficiary. */
async function submit(entryPoint: Address, operation: UserOperation<'0.8'>) {
  const signature = await owner().signTypedData(typedDataOf(entryPoint, operation))
  await submitUserOperation(fx().rpcUrl, bundlerKey(), entryPoint, operation, signature)
}

describe('ERC-4337 user operations signed as typed data', () => {
  it('an operation that creates the account and sends 3 ETH to a stranger → the account sends 3 ETH, as handleOps does', async () => {
    const { entryPoint, sender, creation } = await setUp()
    const operation = userOperation(sender, {
      ...creation,
      callData: execute(thief(), parseEther('3'), '0x'),
      maxFeePerGas: parseGwei('3'),
      nonce: 0n,
    })
    const typedData = typedDataOf(entryPoint, operation)
    const { response } = await scanOk(request(typedData), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Send 3 ETH',
    ])
    // The changes are the smart account's, not the signer's own account's: the response says whose.
    expect(response.simulationResults.account).toBe(sender.toLowerCase())
    const [change] = response.simulationResults.expectedStateChanges
    expect(change?.rawInfo).toMatchObject({
      kind: 'NATIVE_ASSET_TRANSFER',
      data: { counterparty: { address: thief().toLowerCase() } },
    })

    const before = await chain().getBalance({ address: thief() })
    await submit(entryPoint, operation)
    expect((await chain().getBalance({ address: thief() })) - before).toBe(parseEther('3'))
    expect(await chain().getCode({ address: sender })).toBeDefined()
  })

  it('an operation on a deployed account that transfers USDC → the transfer shown, then made', async () => {
    const { entryPoint, sender, creation } = await setUp()
    const usdc = fx().erc20.address
    const amount = parseUnits('2500', 6)
    const fund = await walletOf(0).writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [sender, amount],
    })
    await waitForReceipt(chain(), fund)
    await submit(
      entryPoint,
      userOperation(sender, { ...creation, callData: '0x', maxFeePerGas: parseGwei('3'), nonce: 0n }),
    )

    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [thief(), amount] })
    const operation = userOperation(sender, {
      callData: execute(usdc, 0n, transfer),
      maxFeePerGas: parseGwei('3'),
      nonce: 1n,
    })
    const typedData = typedDataOf(entryPoint, operation)
    const { response } = await scanOk(request(typedData), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Send 2,500 USDC',
    ])

    await submit(entryPoint, operation)
    const held = await chain().readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [sender] })
    const taken = await chain().readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [thief()],
    })
    expect([held, taken]).toEqual([0n, amount])
  })

  it('an operation whose account calls a drainer → the ETH it sends on to a hidden wallet, SUSPECTED_MALICIOUS, WARN', async () => {
    const { entryPoint, sender, creation } = await setUp()
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const operation = userOperation(sender, {
      ...creation,
      callData: execute(fx().drainer.address, parseEther('2'), claim),
      maxFeePerGas: parseGwei('3'),
      nonce: 0n,
    })
    const typedData = typedDataOf(entryPoint, operation)
    const { response } = await scanOk(request(typedData), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((entry) => entry.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.message).toContain(short(fx().drainer.attacker))

    const before = await chain().getBalance({ address: fx().drainer.attacker })
    await submit(entryPoint, operation)
    expect((await chain().getBalance({ address: fx().drainer.attacker })) - before).toBe(parseEther('2'))
  })

  it('an operation that does nothing but pays 100,000 gwei per gas → UNUSUAL_GAS_CONSUMPTION, BLOCK; the bundler is paid ETH', async () => {
    const { entryPoint, sender, creation } = await setUp()
    const price = parseGwei('100000')
    const operation = userOperation(sender, {
      ...creation,
      callData: '0x',
      maxFeePerGas: price,
      maxPriorityFeePerGas: price,
      nonce: 0n,
    })
    const typedData = typedDataOf(entryPoint, operation)
    const { response } = await scanOk(request(typedData), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('BLOCK')
    const warning = response.warnings.find((entry) => entry.kind === 'UNUSUAL_GAS_CONSUMPTION')
    expect(warning?.severity).toBe('CRITICAL')
    expect(warning?.message).toContain('76 ETH')

    // What the signature lets a bundler do: charge the account for gas at that price and keep it.
    const paid = await chain().getBalance({ address: bundler().account.address })
    await submit(entryPoint, operation)
    const gained = (await chain().getBalance({ address: bundler().account.address })) - paid
    expect(gained).toBeGreaterThan(parseEther('1'))
  })

  it('a sponsored operation (a paymaster pays the gas) is not judged on the fee it names', async () => {
    const { entryPoint, sender } = await setUp()
    const operation = {
      ...userOperation(sender, { callData: '0x', maxFeePerGas: parseGwei('100000'), nonce: 0n }),
      paymaster: fx().erc20.address,
      paymasterVerificationGasLimit: 100_000n,
      paymasterPostOpGasLimit: 50_000n,
      paymasterData: '0x' as Hex,
    }
    const typedData = typedDataOf(entryPoint, operation)
    const { response } = await scanOk(request(typedData), fx().rpcUrl)
    expect(response.warnings.map((entry) => entry.kind)).not.toContain('UNUSUAL_GAS_CONSUMPTION')
    expect(response.action).toBe('NONE')
  })
})

const SAFE_OP_TYPES = {
  EIP712Domain: [
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
  SafeOp: [
    { name: 'safe', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'initCode', type: 'bytes' },
    { name: 'callData', type: 'bytes' },
    { name: 'verificationGasLimit', type: 'uint128' },
    { name: 'callGasLimit', type: 'uint128' },
    { name: 'preVerificationGas', type: 'uint256' },
    { name: 'maxPriorityFeePerGas', type: 'uint128' },
    { name: 'maxFeePerGas', type: 'uint128' },
    { name: 'paymasterAndData', type: 'bytes' },
    { name: 'validAfter', type: 'uint48' },
    { name: 'validUntil', type: 'uint48' },
    { name: 'entryPoint', type: 'address' },
  ],
} as const
const MODULE = safe4337('Safe4337Module.sol/Safe4337Module.json')
const MODULE_SETUP = safe4337('SafeModuleSetup.sol/SafeModuleSetup.json')
const SAFE = JSON.parse(
  readFileSync(
    requirePackage.resolve('@safe-global/safe-contracts/build/artifacts/contracts/Safe.sol/Safe.json'),
    'utf8',
  ),
) as Artifact
const PROXY_FACTORY = JSON.parse(
  readFileSync(
    requirePackage.resolve(
      '@safe-global/safe-contracts/build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
    ),
    'utf8',
  ),
) as Artifact
/** The account that plays the EntryPoint the module trusts. */
const entryPointAccount = () => walletOf(6)

/** A 1-of-1 Safe of the owner's with the 4337 module enabled and as its fallback handler, holding 10 ETH. */
async function setUpSafe() {
  const module = await deploy(MODULE, [entryPointAccount().account.address])
  const moduleSetup = await deploy(MODULE_SETUP, [])
  const { singleton, proxyFactory } = fx().safeContracts
  const initializer = encodeFunctionData({
    abi: SAFE.abi,
    functionName: 'setup',
    args: [
      [owner().account.address],
      1n,
      moduleSetup,
      encodeFunctionData({ abi: MODULE_SETUP.abi, functionName: 'enableModules', args: [[module]] }),
      module,
      zeroAddress,
      0n,
      zeroAddress,
    ],
  })
  const { result: safe, request: create } = await chain().simulateContract({
    account: bundler().account,
    address: proxyFactory,
    abi: PROXY_FACTORY.abi,
    functionName: 'createProxyWithNonce',
    args: [singleton, initializer, 4337n],
  })
  await waitForReceipt(chain(), await bundler().writeContract(create))
  await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setBalance({
    address: safe as Address,
    value: parseEther('10'),
  })
  return { module, safe: safe as Address }
}

const executeUserOp = (to: Address, value: bigint, data: Hex, operation: 0 | 1) =>
  encodeFunctionData({ abi: MODULE.abi, functionName: 'executeUserOp', args: [to, value, data, operation] })

function safeOperation(module: Address, safe: Address, callData: Hex) {
  return {
    types: SAFE_OP_TYPES,
    primaryType: 'SafeOp' as const,
    domain: { chainId: fx().chainId, verifyingContract: module },
    message: {
      safe,
      nonce: 0n,
      initCode: '0x' as Hex,
      callData,
      verificationGasLimit: 500_000n,
      callGasLimit: 200_000n,
      preVerificationGas: 60_000n,
      maxPriorityFeePerGas: parseGwei('1'),
      maxFeePerGas: parseGwei('3'),
      paymasterAndData: '0x' as Hex,
      validAfter: 0,
      validUntil: 0,
      entryPoint: entryPointAccount().account.address,
    },
  }
}

const scanRequest = (typedData: ReturnType<typeof safeOperation>, signer: Address = owner().account.address) => ({
  message: {
    kind: 'SIGN_TYPED_DATA',
    data: JSON.parse(JSON.stringify(typedData, (_, v) => (typeof v === 'bigint' ? v.toString() : v))),
  },
  userAccount: signer,
  metadata: { origin: 'https://smart-account.example' },
})

/**
 * What a bundler does with the owner's signature: the EntryPoint asks the Safe to validate the operation (the module
 * checks the owner signed this SafeOp), then has it execute the call.
 */
async function runSafeOperation(typedData: ReturnType<typeof safeOperation>) {
  const { message } = typedData
  const signature = await owner().signTypedData({
    domain: typedData.domain,
    types: { SafeOp: SAFE_OP_TYPES.SafeOp },
    primaryType: 'SafeOp',
    message,
  })
  const packed = {
    sender: message.safe,
    nonce: message.nonce,
    initCode: message.initCode,
    callData: message.callData,
    accountGasLimits: concat([
      pad(toHex(message.verificationGasLimit), { size: 16 }),
      pad(toHex(message.callGasLimit), { size: 16 }),
    ]),
    preVerificationGas: message.preVerificationGas,
    gasFees: concat([
      pad(toHex(message.maxPriorityFeePerGas), { size: 16 }),
      pad(toHex(message.maxFeePerGas), { size: 16 }),
    ]),
    paymasterAndData: message.paymasterAndData,
    signature: concat([
      pad(toHex(message.validAfter), { size: 6 }),
      pad(toHex(message.validUntil), { size: 6 }),
      signature,
    ]),
  }
  const { result: validation } = await chain().simulateContract({
    account: entryPointAccount().account,
    address: message.safe,
    abi: MODULE.abi,
    functionName: 'validateUserOp',
    args: [packed, zeroHash, 0n],
  })
  expect(validation).toBe(0n)
  const hash = await entryPointAccount().sendTransaction({ to: message.safe, data: message.callData })
  expect((await waitForReceipt(chain(), hash)).status).toBe('success')
}

describe("Safe's 4337 module: a SafeOp an owner signs", () => {
  it('a SafeOp that sends 2 ETH → the Safe sends 2 ETH, as the module runs it once the owner signed', async () => {
    const { module, safe } = await setUpSafe()
    const typedData = safeOperation(module, safe, executeUserOp(thief(), parseEther('2'), '0x', 0))
    const { response } = await scanOk(scanRequest(typedData), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Send 2 ETH',
    ])

    const before = await chain().getBalance({ address: thief() })
    await runSafeOperation(typedData)
    expect((await chain().getBalance({ address: thief() })) - before).toBe(parseEther('2'))
  })

  it('a SafeOp that delegate-calls a singleton swap → the takeover shown, BLOCK; run, the Safe is on the attacker singleton', async () => {
    const { module, safe } = await setUpSafe()
    const takeover = takeoverProposal(fx(), 0n)
    const typedData = safeOperation(module, safe, executeUserOp(takeover.to, 0n, takeover.data, 1))
    const { response } = await scanOk(scanRequest(typedData), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('BLOCK')
    const [first] = response.simulationResults.expectedStateChanges
    expect(first?.rawInfo.kind).toBe('SAFE_CONFIGURATION_CHANGE')
    expect(first?.humanReadableDiff).toContain(short(fx().safeAttacks.singleton))

    await runSafeOperation(typedData)
    const slot0 = await chain().getStorageAt({ address: safe, slot: zeroHash })
    expect(slot0?.toLowerCase()).toBe(pad(fx().safeAttacks.singleton.toLowerCase() as Hex, { size: 32 }))
  })

  it('a SafeOp asked of an account that is no owner, or for another chain, is flagged as a SafeTx is', async () => {
    const { module, safe } = await setUpSafe()
    const payment = executeUserOp(thief(), parseEther('2'), '0x', 0)
    const stranger = fx().accounts[5]?.address as Address
    const { response: notOwner } = await scanOk(
      scanRequest(safeOperation(module, safe, payment), stranger),
      fx().rpcUrl,
    )
    expect(validate(notOwner)).toEqual([])
    expect(notOwner.warnings.map((warning) => warning.kind)).toContain('MULTISIG_SIGNER_NOT_OWNER')
    expect(notOwner.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Send 2 ETH',
    ])

    const otherChain = safeOperation(module, safe, payment)
    const { response: mismatch } = await scanOk(
      scanRequest({ ...otherChain, domain: { ...otherChain.domain, chainId: 1 } }),
      fx().rpcUrl,
    )
    expect(mismatch.action).toBe('BLOCK')
    expect(mismatch.warnings.map((warning) => warning.kind)).toContain('MULTISIG_CHAIN_MISMATCH')
    const { response: honest } = await scanOk(scanRequest(safeOperation(module, safe, payment)), fx().rpcUrl)
    expect(honest.warnings.map((warning) => warning.kind)).toEqual([])
  })
})

/**
 * An EIP-7702 account: the owner's own address runs a delegate's code. A stand-in written here (no EIP-7702 account
 * on npm has both): validation by the account's own key, an executor the SenderCreator may add once (a setup call,
 * which an operation's `initCode` carries after the delegate's address), and IAccountExecute as Kernel v3 has it.
 */
const delegateSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits;
  uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }
interface IEntryPoint { function senderCreator() external view returns (address); }
contract Delegate {
    address public immutable entryPoint;
    constructor(address ep) { entryPoint = ep; }
    function executor() public view returns (address e) { assembly { e := sload(0x1234) } }
    function addExecutor(address e) external {
        require(msg.sender == IEntryPoint(entryPoint).senderCreator() || msg.sender == address(this), "auth");
        assembly { sstore(0x1234, e) }
    }
    function validateUserOp(PackedUserOperation calldata op, bytes32 hash, uint256 missing) external returns (uint256) {
        require(msg.sender == entryPoint, "entry point");
        bytes calldata s = op.signature;
        bytes32 r; bytes32 q; uint8 v;
        assembly { r := calldataload(s.offset) q := calldataload(add(s.offset, 32)) v := byte(0, calldataload(add(s.offset, 64))) }
        if (missing > 0) { (bool paid,) = payable(msg.sender).call{value: missing}(""); paid; }
        return ecrecover(hash, v, r, q) == address(this) ? 0 : 1;
    }
    function execute(address to, uint256 value, bytes calldata data) external {
        require(msg.sender == entryPoint || msg.sender == address(this) || msg.sender == executor(), "auth");
        (bool ok,) = to.call{value: value}(data);
        require(ok, "call");
    }
    function executeUserOp(PackedUserOperation calldata op, bytes32) external {
        require(msg.sender == entryPoint, "entry point");
        (bool ok,) = address(this).call(op.callData[4:]);
        require(ok, "inner");
    }
    receive() external payable {}
}`

describe('an EIP-7702 account', () => {
  /** The EntryPoint, the delegate, and the owner's address delegating to it, as a wallet upgrading to a smart account. */
  async function setUpDelegated() {
    const entryPoint = await deploy(ENTRY_POINT, [])
    const delegate = await deploy(deployable('Delegate.sol', delegateSource, 'Delegate'), [entryPoint])
    const authorization = await owner().signAuthorization({ contractAddress: delegate, executor: 'self' })
    const hash = await owner().sendTransaction({ to: owner().account.address, authorizationList: [authorization] })
    expect((await waitForReceipt(chain(), hash)).status).toBe('success')
    return { entryPoint, delegate, authorization }
  }
  const DELEGATE_ABI = parseAbi([
    'function addExecutor(address e)',
    'function executor() view returns (address)',
    'function execute(address to, uint256 value, bytes data)',
  ])

  it("a setup call in initCode runs on the account itself → SET_OWNER_AUTHORITY; run, it made the thief the account's executor", async () => {
    const { entryPoint, delegate, authorization } = await setUpDelegated()
    const sender = owner().account.address
    const operation: UserOperation<'0.8'> = {
      ...userOperation(sender, {
        factory: '0x7702000000000000000000000000000000000000',
        factoryData: encodeFunctionData({ abi: DELEGATE_ABI, functionName: 'addExecutor', args: [thief()] }),
        callData: '0x',
        maxFeePerGas: parseGwei('3'),
        nonce: 0n,
      }),
      authorization: { ...authorization, address: delegate },
    }
    const { response } = await scanOk(request(typedDataOf(entryPoint, operation)), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.error).toBeNull()
    expect(response.action).toBe('WARN')
    expect(response.warnings.find((warning) => warning.kind === 'SET_OWNER_AUTHORITY')?.message).toContain(
      sender.toLowerCase(),
    )

    await submit(entryPoint, operation)
    const executor = await chain().readContract({ address: sender, abi: DELEGATE_ABI, functionName: 'executor' })
    expect(executor.toLowerCase()).toBe(thief().toLowerCase())
  })

  it('callData in IAccountExecute form runs through executeUserOp → the 50 ETH it sends shown, then sent', async () => {
    const { entryPoint } = await setUpDelegated()
    const sender = owner().account.address
    const inner = encodeFunctionData({
      abi: DELEGATE_ABI,
      functionName: 'execute',
      args: [thief(), parseEther('50'), '0x'],
    })
    const callData = concat([toFunctionSelector(getAbiItem({ abi: accountExecuteAbi, name: 'executeUserOp' })), inner])
    const operation = userOperation(sender, { callData, maxFeePerGas: parseGwei('3'), nonce: 0n })
    const { response } = await scanOk(request(typedDataOf(entryPoint, operation)), fx().rpcUrl)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      'Send 50 ETH',
    ])

    const before = await chain().getBalance({ address: thief() })
    await submit(entryPoint, operation)
    expect((await chain().getBalance({ address: thief() })) - before).toBe(parseEther('50'))
  })

  it('initCode to create an account that exists already: the EntryPoint refuses it, said so, and nothing is claimed', async () => {
    const { entryPoint, sender, creation } = await setUp()
    await submit(
      entryPoint,
      userOperation(sender, { ...creation, callData: '0x', maxFeePerGas: parseGwei('3'), nonce: 0n }),
    )
    const again = userOperation(sender, {
      ...creation,
      callData: execute(thief(), parseEther('1'), '0x'),
      maxFeePerGas: parseGwei('3'),
      nonce: 1n,
    })
    const { response } = await scanOk(request(typedDataOf(entryPoint, again)), fx().rpcUrl)
    expect(response.simulationResults.expectedStateChanges).toEqual([])
    expect(response.simulationResults.error?.humanReadableError).toContain('AA10')
    await expect(submit(entryPoint, again)).rejects.toThrow()
  })
})
