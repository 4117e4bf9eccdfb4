/**
 * Seaport on the devnet, from OpenSea's own npm library (@opensea/seaport-js): its ConduitController and Seaport
 * contracts deployed from the bytecode the library ships, and its client building and signing orders and bulk orders
 * with the ethers it depends on. `signed` records the EIP-712 payload each signature was asked for, exactly as an
 * ethers signer sends it to a wallet (eth_signTypedData_v4).
 */
import { createRequire } from 'node:module'
import { type Address, createPublicClient, createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'

const require = createRequire(import.meta.url)
const seaportJs = require('@opensea/seaport-js') as typeof import('@opensea/seaport-js')
const factories = require('@opensea/seaport-js/lib/typechain-types/index.js') as {
  Seaport__factory: { abi: unknown; bytecode: Hex }
  LocalConduitController__factory: { abi: unknown; bytecode: Hex }
}
/** The ethers the library resolves, so its instanceof checks hold. */
const ethers = createRequire(require.resolve('@opensea/seaport-js'))(
  'ethers',
) as typeof import('@opensea/seaport-js/node_modules/ethers')

export const { ItemType } = seaportJs

/** An eth_signTypedData_v4 payload. */
export type SignedPayload = {
  types: Record<string, { name: string; type: string }[]>
  domain: Record<string, unknown>
  primaryType: string
  message: Record<string, unknown>
}

export type DevnetSeaport = {
  address: Address
  /** A Seaport client signing as `account`, recording every payload it signs. */
  client: (privateKey: Hex) => { seaport: InstanceType<typeof seaportJs.Seaport>; signed: SignedPayload[] }
}

/** Deploys a ConduitController and Seaport 1.6 (the library's build) with the deployer account. */
export async function deploySeaport(fixtures: Fixtures): Promise<DevnetSeaport> {
  const deployer = fixtures.accounts.find((a) => a.address === fixtures.deployer) ?? fixtures.accounts[0]
  const wallet = createWalletClient({
    chain: foundry,
    transport: http(fixtures.rpcUrl),
    account: privateKeyToAccount(deployer?.privateKey as Hex),
  })
  const publicClient = createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })
  const deploy = async (factory: { abi: unknown; bytecode: Hex }, args: unknown[]) => {
    const hash = await wallet.deployContract({ abi: factory.abi as never, bytecode: factory.bytecode, args } as never)
    const receipt = await waitForReceipt(publicClient, hash)
    if (!receipt.contractAddress) throw new Error('deployment failed')
    return receipt.contractAddress
  }
  const controller = await deploy(factories.LocalConduitController__factory, [])
  const address = await deploy(factories.Seaport__factory, [controller])
  const provider = new ethers.JsonRpcProvider(fixtures.rpcUrl, fixtures.chainId, { staticNetwork: true })
  return {
    address,
    client: (privateKey) => {
      const signer = new ethers.Wallet(privateKey, provider)
      const signed: SignedPayload[] = []
      const sign = signer.signTypedData.bind(signer)
      signer.signTypedData = async (domain, types, value) => {
        signed.push(ethers.TypedDataEncoder.getPayload(domain, types, value) as SignedPayload)
        return sign(domain, types, value)
      }
      const seaport = new seaportJs.Seaport(signer, {
        overrides: { contractAddress: address, seaportVersion: '1.6' },
        balanceAndApprovalChecksOnOrderCreation: false,
      })
      return { seaport, signed }
    },
  }
}
