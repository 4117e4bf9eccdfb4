/**
 * ERC-4337 on the devnet for tests: the real EntryPoint v0.8 and SimpleAccount (`@account-abstraction/contracts`
 * 0.8.0, from the package's own build), a user operation as a dapp builds it with viem, the typed data a wallet is asked
 * to sign for it, and its submission through `handleOps`, as a bundler does.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  getTypesForEIP712Domain,
  type Hex,
  http,
  parseEther,
  parseGwei,
  type TypedDataDomain,
  type TypedDataParameter,
} from 'viem'
import { getUserOperationTypedData, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { waitForReceipt } from '../../src/devnet/receipt.ts'

type Artifact = { abi: Abi; bytecode: Hex }
const requirePackage = createRequire(import.meta.url)
const artifact = (name: string): Artifact =>
  JSON.parse(readFileSync(requirePackage.resolve(`@account-abstraction/contracts/artifacts/${name}.json`), 'utf8'))
export const ENTRY_POINT = artifact('EntryPoint')
const FACTORY = artifact('SimpleAccountFactory')
const ACCOUNT = artifact('SimpleAccount')

/** A devnet account that pays for deployments and submits operations: the bundler. */
type Key = { privateKey: Hex }

const clients = (rpcUrl: string, bundler: Key) => ({
  chain: createPublicClient({ chain: foundry, transport: http(rpcUrl), pollingInterval: 20 }),
  wallet: createWalletClient({
    chain: foundry,
    transport: http(rpcUrl),
    account: privateKeyToAccount(bundler.privateKey),
  }),
})

/** Deploys `contract` from the bundler's account and returns its address. */
export async function deployArtifact(
  rpcUrl: string,
  bundler: Key,
  contract: Artifact,
  args: unknown[],
): Promise<Address> {
  const { chain, wallet } = clients(rpcUrl, bundler)
  const receipt = await waitForReceipt(
    chain,
    await wallet.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args }),
  )
  if (!receipt.contractAddress) throw new Error('no contract deployed')
  return receipt.contractAddress
}

/**
 * The EntryPoint, a SimpleAccount factory, the `owner`'s account address (not deployed), funded with 100 ETH, and
 * the `factory`/`factoryData` an operation carries to create it.
 */
export async function deployAccountKit(rpcUrl: string, bundler: Key, owner: Address) {
  const entryPoint = await deployArtifact(rpcUrl, bundler, ENTRY_POINT, [])
  const factory = await deployArtifact(rpcUrl, bundler, FACTORY, [entryPoint])
  const { chain } = clients(rpcUrl, bundler)
  const sender = (await chain.readContract({
    address: factory,
    abi: FACTORY.abi,
    functionName: 'getAddress',
    args: [owner, 0n],
  })) as Address
  await createTestClient({ mode: 'anvil', transport: http(rpcUrl) }).setBalance({
    address: sender,
    value: parseEther('100'),
  })
  const factoryData = encodeFunctionData({ abi: FACTORY.abi, functionName: 'createAccount', args: [owner, 0n] })
  return { entryPoint, sender, creation: { factory, factoryData } }
}

type Operation = Pick<UserOperation<'0.8'>, 'callData' | 'factory' | 'factoryData' | 'maxFeePerGas' | 'nonce'> & {
  maxPriorityFeePerGas?: bigint
}

/** A user operation with the gas limits a bundler would estimate for these small calls. */
export function userOperation(sender: Address, operation: Operation): UserOperation<'0.8'> {
  return {
    sender,
    verificationGasLimit: 500_000n,
    callGasLimit: 200_000n,
    preVerificationGas: 60_000n,
    maxPriorityFeePerGas: operation.maxPriorityFeePerGas ?? parseGwei('1'),
    signature: '0x',
    ...operation,
  }
}

/** SimpleAccount's `execute`: the account calls `to` with `value` and `data`. */
export const execute = (to: Address, value: bigint, data: Hex) =>
  encodeFunctionData({ abi: ACCOUNT.abi, functionName: 'execute', args: [to, value, data] })

/** The typed data the owner signs for `operation`, as viem builds it. */
export const userOperationTypedData = (chainId: number, entryPoint: Address, operation: UserOperation<'0.8'>) =>
  getUserOperationTypedData({ chainId, entryPointAddress: entryPoint, userOperation: operation })

/** What a wallet receives from a viem dapp for typed data: its domain's type declared, numbers as text. */
export function walletTypedData(typedData: {
  domain?: TypedDataDomain
  types: Record<string, readonly TypedDataParameter[]>
  primaryType: string
  message: Record<string, unknown>
}): Record<string, unknown> {
  const data = {
    ...typedData,
    types: { EIP712Domain: getTypesForEIP712Domain({ domain: typedData.domain }), ...typedData.types },
  }
  return JSON.parse(JSON.stringify(data, (_, value) => (typeof value === 'bigint' ? value.toString() : value)))
}

/** Submits the signed operation through `handleOps`, with the bundler as the beneficiary; fails unless it succeeds. */
export async function submitUserOperation(
  rpcUrl: string,
  bundler: Key,
  entryPoint: Address,
  operation: UserOperation<'0.8'>,
  signature: Hex,
): Promise<void> {
  const { chain, wallet } = clients(rpcUrl, bundler)
  const hash = await wallet.writeContract({
    address: entryPoint,
    abi: ENTRY_POINT.abi,
    functionName: 'handleOps',
    args: [[toPackedUserOperation({ ...operation, signature })], wallet.account.address],
  })
  const receipt = await waitForReceipt(chain, hash)
  if (receipt.status !== 'success') throw new Error(`handleOps reverted: ${hash}`)
}
