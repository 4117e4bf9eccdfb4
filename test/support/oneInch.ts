/**
 * 1inch's Limit Order Protocol v4 on the devnet, from the protocol's own npm package
 * (@1inch/limit-order-protocol-contract): LimitOrderProtocol compiled from the package's sources and deployed over the
 * devnet's WETH; orders signed with the maker's key on its EIP-712 domain, "1inch Limit Order Protocol" version 4
 * (router v6, which 1inch's apps sign for, runs the same OrderMixin under its own name), the payload recorded as a
 * wallet receives it (eth_signTypedData_v4); and a taker that fills them with the contract's `fillOrderArgs`
 * (`fillOrder` with the order's extension, when it has one).
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseSignature,
  signatureToCompactSignature,
  size,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import type { SignedPayload } from './seaport.ts'
import { deployable } from './solc.ts'

const packageDir = dirname(createRequire(import.meta.url).resolve('@1inch/limit-order-protocol-contract/package.json'))
const packageRequire = createRequire(join(packageDir, 'package.json'))

/** A v4 order as the contract hashes it (OrderLib's typehash), with the addresses as addresses. */
export type OneInchOrder = {
  salt: bigint
  maker: Address
  receiver: Address
  makerAsset: Address
  takerAsset: Address
  makingAmount: bigint
  takingAmount: bigint
  makerTraits: bigint
}

/** The domain's fields, as the payload a wallet receives names them (viem derives them when it signs). */
const DOMAIN_FIELDS = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const

const ORDER_FIELDS = [
  { name: 'salt', type: 'uint256' },
  { name: 'maker', type: 'address' },
  { name: 'receiver', type: 'address' },
  { name: 'makerAsset', type: 'address' },
  { name: 'takerAsset', type: 'address' },
  { name: 'makingAmount', type: 'uint256' },
  { name: 'takingAmount', type: 'uint256' },
  { name: 'makerTraits', type: 'uint256' },
] as const

/** TakerTraitsLib: `amount` is the making amount, and the taking amount follows from it. */
const MAKER_AMOUNT = 1n << 255n
/** TakerTraitsLib: where the length of the extension at the start of `fillOrderArgs`'s args sits. */
const ARGS_EXTENSION_LENGTH = 224n

export type DevnetLimitOrderProtocol = {
  address: Address
  /** Signs `order` as `privateKey`; returns the payload the wallet was asked for and the signature. */
  sign: (order: OneInchOrder, privateKey: Hex) => Promise<{ payload: SignedPayload; signature: Hex }>
  /**
   * The taker fills `making` of the order's making amount (all of it unless said), with the order's `extension` if it
   * has one, paying what the contract computes.
   */
  fill: (order: OneInchOrder, signature: Hex, options?: { making?: bigint; extension?: Hex }) => Promise<void>
}

let compiled: { abi: Abi; bytecode: Hex } | undefined

/**
 * LimitOrderProtocol from the package's sources. The package pins solc 0.8.30 (`pragma solidity 0.8.30;`); the repo's
 * solc is 0.8.28, so that pragma is rewritten as each file is read, nothing else. Via-IR as the fill needs (the legacy
 * pipeline runs out of stack in it); compiled once per test file, in about 15 s.
 */
function limitOrderProtocol(): { abi: Abi; bytecode: Hex } {
  compiled ??= deployable(
    'contracts/LimitOrderProtocol.sol',
    readSource('contracts/LimitOrderProtocol.sol'),
    'LimitOrderProtocol',
    { optimizer: { enabled: true, runs: 1 }, viaIR: true, evmVersion: 'cancun' },
    readSource,
  )
  return compiled
}

/** A source as the package's imports name it: its own contracts, or a dependency at the version the package pins. */
export function readSource(path: string): string {
  const [scope, name, ...rest] = path.split('/')
  const file = path.startsWith('contracts/') ? join(packageDir, path) : join(dependencyDir(`${scope}/${name}`), ...rest)
  return readFileSync(file, 'utf8').replace('pragma solidity 0.8.30;', 'pragma solidity 0.8.28;')
}

/**
 * Where the package finds `name`, its own node_modules first; looked up by directory, for a dependency's `exports`
 * hides its .sol files from require.resolve.
 */
function dependencyDir(name: string): string {
  const dir = (packageRequire.resolve.paths(name) ?? []).map((modules) => join(modules, name))
  const found = dir.find((candidate) => existsSync(join(candidate, 'package.json')))
  if (!found) throw new Error(`${name}: not installed`)
  return found
}

const wethAbi = parseAbi(['function deposit() payable'])

/**
 * Deploys LimitOrderProtocol over the devnet's WETH with the deployer account, and readies `taker` to fill orders that
 * buy WETH: 50 WETH of its own, the contract approved to take it.
 */
export async function deployLimitOrderProtocol(
  fixtures: Fixtures,
  taker: { address: Address; privateKey: Hex },
): Promise<DevnetLimitOrderProtocol> {
  const deployer = fixtures.accounts.find((a) => a.address === fixtures.deployer) ?? fixtures.accounts[0]
  const transport = http(fixtures.rpcUrl)
  const publicClient = createPublicClient({ chain: foundry, transport })
  const wallet = (key: Hex) => createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(key) })
  const confirm = async (hash: Hex) => waitForReceipt(publicClient, hash)
  const { abi, bytecode } = limitOrderProtocol()
  const receipt = await confirm(
    await wallet(deployer?.privateKey as Hex).deployContract({ abi, bytecode, args: [fixtures.weth.address] }),
  )
  const address = receipt.contractAddress
  if (!address) throw new Error('LimitOrderProtocol: deployment failed')
  const takerWallet = wallet(taker.privateKey)
  const weth = fixtures.weth.address
  await confirm(
    await takerWallet.writeContract({ address: weth, abi: wethAbi, functionName: 'deposit', value: parseEther('50') }),
  )
  await confirm(
    await takerWallet.writeContract({
      address: weth,
      abi: erc20Abi,
      functionName: 'approve',
      args: [address, maxUint256],
    }),
  )
  const domain = {
    name: '1inch Limit Order Protocol',
    version: '4',
    chainId: fixtures.chainId,
    verifyingContract: address,
  }
  return {
    address,
    sign: async (order, privateKey) => {
      const types = { Order: ORDER_FIELDS }
      const signature = await privateKeyToAccount(privateKey).signTypedData({
        domain,
        types,
        primaryType: 'Order',
        message: order,
      })
      const message = Object.fromEntries(Object.entries(order).map(([name, value]) => [name, String(value)]))
      const payload: SignedPayload = {
        types: { EIP712Domain: [...DOMAIN_FIELDS], Order: [...ORDER_FIELDS] },
        domain,
        primaryType: 'Order',
        message,
      }
      return { payload, signature }
    },
    fill: async (order, signature, { making = order.makingAmount, extension = '0x' } = {}) => {
      const { r, yParityAndS } = signatureToCompactSignature(parseSignature(signature))
      // The contract's Order holds its addresses as uint256 (solidity-utils' Address type).
      const tuple = {
        ...order,
        maker: BigInt(order.maker),
        receiver: BigInt(order.receiver),
        makerAsset: BigInt(order.makerAsset),
        takerAsset: BigInt(order.takerAsset),
      }
      const hash = await takerWallet.writeContract({
        address,
        abi,
        functionName: 'fillOrderArgs',
        args: [
          tuple,
          r,
          yParityAndS,
          making,
          MAKER_AMOUNT | (BigInt(size(extension)) << ARGS_EXTENSION_LENGTH),
          extension,
        ],
      })
      await confirm(hash)
    },
  }
}
