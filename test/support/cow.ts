/**
 * CoW Protocol on the devnet, from its own npm package (@cowprotocol/contracts): the allow-list authenticator and the
 * GPv2Settlement (which creates its vault relayer) deployed from the bytecode the package ships, orders signed by the
 * package's `signOrder` with the ethers it expects (the payload each signature was asked for recorded as an ethers
 * signer sends it to a wallet, eth_signTypedData_v4), and a solver that settles a signed order at its limit price.
 */
import { createRequire } from 'node:module'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseEther,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import type { SignedPayload } from './seaport.ts'

const require = createRequire(import.meta.url)
const cow = require('@cowprotocol/contracts') as typeof import('@cowprotocol/contracts')
/** The ethers the package resolves (v5). */
const ethers = createRequire(require.resolve('@cowprotocol/contracts'))('ethers') as typeof import('ethers')
type Artifact = { abi: unknown[]; bytecode: Hex }
const artifact = (name: string) => require(`@cowprotocol/contracts/lib/contracts/${name}.json`) as Artifact

/** An order as the package takes it. */
export type CowOrder = import('@cowprotocol/contracts').Order

export type DevnetCow = {
  settlement: Address
  vaultRelayer: Address
  /** Signs `order` as `privateKey` through the package; returns the payload the wallet was asked for and the signature. */
  sign: (order: CowOrder, privateKey: Hex) => Promise<{ payload: SignedPayload; signature: Hex }>
  /** The order's ID for `owner`: its digest, owner and expiry, what an on-chain pre-signature names. */
  uid: (order: CowOrder, owner: Address) => Hex
  /**
   * Settles the order as the solver, paying exactly its limit (the sell amount for the buy amount), on its EIP-712
   * signature or on the pre-signature its owner gave on chain.
   */
  settle: (order: CowOrder, signature: Hex | { presignedBy: Address }) => Promise<void>
}

const wethAbi = parseAbi(['function deposit() payable'])
const settleAbi = parseAbi([
  'struct Trade { uint256 sellTokenIndex; uint256 buyTokenIndex; address receiver; uint256 sellAmount; uint256 buyAmount; uint32 validTo; bytes32 appData; uint256 feeAmount; uint256 flags; uint256 executedAmount; bytes signature; }',
  'struct Interaction { address target; uint256 value; bytes callData; }',
  'function settle(address[] tokens, uint256[] clearingPrices, Trade[] trades, Interaction[][3] interactions)',
])

/**
 * Deploys the authenticator (the deployer its manager, `solver` its one solver) and the settlement, and gives the
 * solver WETH to pay orders that buy it.
 */
export async function deployCow(fixtures: Fixtures, solver: { address: Address; privateKey: Hex }): Promise<DevnetCow> {
  const deployer = fixtures.accounts.find((a) => a.address === fixtures.deployer) ?? fixtures.accounts[0]
  const transport = http(fixtures.rpcUrl)
  const publicClient = createPublicClient({ chain: foundry, transport })
  const wallet = (key: Hex) => createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(key) })
  const owner = wallet(deployer?.privateKey as Hex)
  const solverWallet = wallet(solver.privateKey)
  const confirm = async (hash: Hex) => waitForReceipt(publicClient, hash)
  const deploy = async (name: string, args: unknown[]) => {
    const { abi, bytecode } = artifact(name)
    const receipt = await confirm(await owner.deployContract({ abi, bytecode, args } as never))
    if (!receipt.contractAddress) throw new Error(`${name}: deployment failed`)
    return receipt.contractAddress
  }
  const authenticator = await deploy('GPv2AllowListAuthentication', [])
  const authAbi = artifact('GPv2AllowListAuthentication').abi
  const write = (
    client: typeof owner,
    address: Address,
    abi: unknown[],
    functionName: string,
    args: unknown[],
    value = 0n,
  ) => client.writeContract({ address, abi, functionName, args, value } as never).then(confirm)
  await write(owner, authenticator, authAbi, 'initializeManager', [owner.account.address])
  await write(owner, authenticator, authAbi, 'addSolver', [solver.address])
  // No Balancer vault: orders here use plain ERC-20 balances, which the settlement moves through its relayer alone.
  const settlement = await deploy('GPv2Settlement', [authenticator, zeroAddress])
  const vaultRelayer = (await publicClient.readContract({
    address: settlement,
    abi: parseAbi(['function vaultRelayer() view returns (address)']),
    functionName: 'vaultRelayer',
  })) as Address
  await write(solverWallet, fixtures.weth.address, wethAbi as never, 'deposit', [], parseEther('50'))
  const domain = cow.domain(fixtures.chainId, settlement)
  const provider = new ethers.providers.JsonRpcProvider(fixtures.rpcUrl, fixtures.chainId)
  return {
    settlement,
    vaultRelayer,
    sign: async (order, privateKey) => {
      const signer = new ethers.Wallet(privateKey, provider)
      let payload: SignedPayload | undefined
      const sign = signer._signTypedData.bind(signer)
      signer._signTypedData = async (domain, types, value) => {
        payload = ethers.utils._TypedDataEncoder.getPayload(domain, types, value) as SignedPayload
        return sign(domain, types, value)
      }
      const signature = await cow.signOrder(domain, order, signer, cow.SigningScheme.EIP712)
      if (!payload) throw new Error('the package signed without typed data')
      return { payload, signature: ethers.utils.joinSignature(signature.data) as Hex }
    },
    uid: (order, owner) => cow.computeOrderUid(domain, order, owner) as Hex,
    settle: async (order, signature) => {
      const buyToken = order.buyToken === cow.BUY_ETH_ADDRESS ? null : (order.buyToken as Address)
      // The solver brings what the order buys; the settlement pays it out to the receiver.
      if (buyToken) {
        await write(solverWallet, buyToken, erc20Abi as never, 'transfer', [
          settlement,
          BigInt(String(order.buyAmount)),
        ])
      } else {
        await confirm(await solverWallet.sendTransaction({ to: settlement, value: BigInt(String(order.buyAmount)) }))
      }
      const encoder = new cow.SettlementEncoder(domain)
      encoder.encodeTrade(
        order,
        typeof signature === 'string'
          ? { scheme: cow.SigningScheme.EIP712, data: signature }
          : { scheme: cow.SigningScheme.PRESIGN, data: signature.presignedBy },
        { executedAmount: order.partiallyFillable ? order.sellAmount : undefined },
      )
      // Clearing prices at the order's limit: it sells its sell amount for exactly its buy amount.
      const [tokens, prices, trades, interactions] = encoder.encodedSettlement({
        [order.sellToken]: String(order.buyAmount),
        [order.buyToken]: String(order.sellAmount),
      })
      await write(solverWallet, settlement, settleAbi as never, 'settle', [
        tokens,
        prices.map((price) => BigInt(String(price))),
        trades.map(normalise),
        interactions,
      ])
    },
  }
}

/** The package's trade with its numbers as bigint, for viem. */
function normalise(trade: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(trade).map(([key, value]) => [
      key,
      typeof value === 'number' || ethers.BigNumber.isBigNumber(value) ? BigInt(String(value)) : value,
    ]),
  )
}
