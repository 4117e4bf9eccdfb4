/**
 * Safe v1.4.1 on the devnet at its canonical addresses, deployed the way every public chain has it: the Safe
 * singleton factory is created by its presigned transaction (from @safe-global/safe-singleton-factory), then each
 * contract of @safe-global/safe-contracts is created through it with salt 0. The addresses are therefore the ones
 * @safe-global/safe-deployments lists, and the engine recognises the devnet's MultiSend as it does mainnet's.
 */
import { createRequire } from 'node:module'
import { getSingletonFactoryInfo } from '@safe-global/safe-singleton-factory'
import {
  type Abi,
  type Address,
  concat,
  getContractAddress,
  type Hex,
  type PublicClient,
  type WalletClient,
  zeroHash,
} from 'viem'

const require = createRequire(import.meta.url)

type Artifact = { abi: Abi; bytecode: Hex }

/** A contract of @safe-global/safe-contracts 1.4.1, as built by its release (the bytecode deployed on every chain). */
export function safeArtifact(path: string): Artifact {
  const json = require(`@safe-global/safe-contracts/build/artifacts/contracts/${path}`)
  return { abi: json.abi, bytecode: json.bytecode }
}

/** The Safe contracts the devnet deploys, by fixtures key. */
const SAFE_CONTRACTS = {
  singleton: 'Safe.sol/Safe.json',
  singletonL2: 'SafeL2.sol/SafeL2.json',
  proxyFactory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  multiSend: 'libraries/MultiSend.sol/MultiSend.json',
  multiSendCallOnly: 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
  fallbackHandler: 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
  signMessageLib: 'libraries/SignMessageLib.sol/SignMessageLib.json',
  createCall: 'libraries/CreateCall.sol/CreateCall.json',
} as const

export type SafeContracts = Record<keyof typeof SAFE_CONTRACTS, Address>

type Chain = {
  publicClient: PublicClient
  wallet: WalletClient
  /** Waits for a transaction and fails unless it succeeded. */
  confirm: (hash: Hex) => Promise<unknown>
}

/** Deploys the Safe singleton factory and, through it, Safe v1.4.1's contracts; returns their canonical addresses. */
export async function deployCanonicalSafe({ publicClient, wallet, confirm }: Chain): Promise<SafeContracts> {
  const chainId = await publicClient.getChainId()
  const factory = getSingletonFactoryInfo(chainId)
  if (!factory) throw new Error(`@safe-global/safe-singleton-factory has no presigned deployment for chain ${chainId}`)
  const factoryAddress = factory.address as Address
  if (!(await publicClient.getCode({ address: factoryAddress }))) {
    const fee = BigInt(factory.gasPrice) * BigInt(factory.gasLimit)
    await confirm(await wallet.sendTransaction({ to: factory.signerAddress as Address, value: fee } as never))
    await confirm(
      await publicClient.request({ method: 'eth_sendRawTransaction', params: [factory.transaction as Hex] }),
    )
  }
  const deployed = {} as SafeContracts
  for (const [key, path] of Object.entries(SAFE_CONTRACTS) as [keyof SafeContracts, string][]) {
    const { bytecode } = safeArtifact(path)
    const address = getContractAddress({ opcode: 'CREATE2', from: factoryAddress, salt: zeroHash, bytecode })
    if (!(await publicClient.getCode({ address }))) {
      // The factory takes the salt followed by the creation code, and creates the contract with CREATE2.
      const hash = await wallet.sendTransaction({
        to: factoryAddress,
        data: concat([zeroHash, bytecode]),
        gas: 8_000_000n,
      } as never)
      await confirm(hash)
      if (!(await publicClient.getCode({ address }))) throw new Error(`the factory did not create ${key} at ${address}`)
    }
    deployed[key] = address
  }
  return deployed
}
