/**
 * Uniswap's Universal Router for tests: its npm artifact (@uniswap/universal-router 2.1.0, the router the Uniswap
 * interface sends most swaps through) deployed on the devnet over the devnet's own V2 factory and V3 factory, and the
 * calldata of its `execute` for a swap of ETH into the devnet's USDC.
 */
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  numberToHex,
  parseAbiParameters,
  zeroAddress,
} from 'viem'
import type { TxRequest } from '../../src/devnet/dapp/requests.ts'
import { DEADLINE } from '../../src/devnet/dapp/uniswap.ts'
import { PERMIT2_ADDRESS } from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import { waitForReceipt } from '../../src/devnet/receipt.ts'
import { devnetClient } from '../engine/protocolSupport.ts'

const artifact = createRequire(import.meta.url)(
  '@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json',
) as { abi: Abi; bytecode: Hex }

/** The router's own names for "whoever called execute" and "the router itself" as a recipient (ActionConstants). */
export const MSG_SENDER: Address = '0x0000000000000000000000000000000000000001'
const ADDRESS_THIS: Address = '0x0000000000000000000000000000000000000002'

/** The router 2.1.0 at its address on mainnet, on the known spenders' list. */
export const UNIVERSAL_ROUTER: Address = '0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af'

/** Commands.sol */
const V3_SWAP_EXACT_IN = 0x00
/**
 * The commands that pay what the router holds of a token (ETH as address 0) to a recipient: an amount, all of it (at
 * least a minimum), or a portion in bips.
 */
const PAYMENT = { TRANSFER: 0x05, SWEEP: 0x04, PAY_PORTION: 0x06 } as const
const V2_SWAP_EXACT_IN = 0x08
const WRAP_ETH = 0x0b

/**
 * Deploys the router from `deployer`. Permit2 need not exist: the swaps below pay from what the router wrapped, never
 * from the user's tokens. No V4 pool manager, position managers or Across SpokePool: no command here uses them.
 */
export async function deployUniversalRouter(fixtures: Fixtures, deployer: Address): Promise<Address> {
  const client = devnetClient(fixtures.rpcUrl)
  const hash = await client.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: [
      {
        permit2: PERMIT2_ADDRESS,
        weth9: fixtures.weth.address,
        v2Factory: fixtures.uniswapV2.factory,
        v3Factory: fixtures.uniswapV3.factory,
        pairInitCodeHash: fixtures.uniswapV2.initCodeHash,
        poolInitCodeHash: fixtures.uniswapV3.initCodeHash,
        v4PoolManager: zeroAddress,
        v3NFTPositionManager: zeroAddress,
        v4PositionManager: zeroAddress,
        spokePool: zeroAddress,
      },
    ],
    account: deployer,
    chain: null,
  })
  const receipt = await waitForReceipt(client, hash)
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('the Universal Router did not deploy')
  return receipt.contractAddress
}

/**
 * `from` swaps `value` wei of ETH for USDC through `router` on the V2 pair or the V3 pool, as the interface encodes
 * it: WRAP_ETH to the router, then the swap paying the router's WETH to `recipient` (MSG_SENDER: the caller).
 */
export function universalRouterSwapEthForUsdc(
  fixtures: Fixtures,
  router: Address,
  from: Address,
  value: bigint,
  recipient: Address,
  pool: 'v2' | 'v3',
): TxRequest {
  const { weth, erc20 } = fixtures
  const wrap = encodeAbiParameters(parseAbiParameters('address, uint256'), [ADDRESS_THIS, value])
  const swap =
    pool === 'v2'
      ? encodeAbiParameters(parseAbiParameters('address, uint256, uint256, address[], bool'), [
          recipient,
          value,
          0n,
          [weth.address, erc20.address],
          false,
        ])
      : encodeAbiParameters(parseAbiParameters('address, uint256, uint256, bytes, bool'), [
          recipient,
          value,
          0n,
          encodePacked(['address', 'uint24', 'address'], [weth.address, fixtures.uniswapV3.fee, erc20.address]),
          false,
        ])
  const commands = encodePacked(['uint8', 'uint8'], [WRAP_ETH, pool === 'v2' ? V2_SWAP_EXACT_IN : V3_SWAP_EXACT_IN])
  const data = encodeFunctionData({
    abi: artifact.abi,
    functionName: 'execute',
    args: [commands, [wrap, swap], DEADLINE],
  })
  return { from, to: router, data, value: numberToHex(value) }
}

/**
 * `from` swaps `value` wei of ETH for `token` on its V2 pair with the devnet's WETH, as the interface encodes a swap
 * with its fee: WRAP_ETH and the swap to the router, PAY_PORTION of the output (`bips`) to `feeRecipient`, then SWEEP
 * of the rest to the caller. The user's tokens come from the router, not the pair.
 */
export function universalRouterSwapEthWithFee(
  fixtures: Fixtures,
  router: Address,
  from: Address,
  value: bigint,
  token: Address,
  feeRecipient: Address,
  bips: bigint,
): TxRequest {
  const triple = parseAbiParameters('address, address, uint256')
  const inputs = [
    encodeAbiParameters(parseAbiParameters('address, uint256'), [ADDRESS_THIS, value]),
    encodeAbiParameters(parseAbiParameters('address, uint256, uint256, address[], bool'), [
      ADDRESS_THIS,
      value,
      0n,
      [fixtures.weth.address, token],
      false,
    ]),
    encodeAbiParameters(triple, [token, feeRecipient, bips]),
    encodeAbiParameters(triple, [token, MSG_SENDER, 0n]),
  ]
  const commands = encodePacked(
    ['uint8', 'uint8', 'uint8', 'uint8'],
    [WRAP_ETH, V2_SWAP_EXACT_IN, PAYMENT.PAY_PORTION, PAYMENT.SWEEP],
  )
  const data = encodeFunctionData({ abi: artifact.abi, functionName: 'execute', args: [commands, inputs, DEADLINE] })
  return { from, to: router, data, value: numberToHex(value) }
}

/**
 * The calldata of an `execute` that pays the ETH sent with it (`value` wei) on to `recipient` by `command` (token
 * Constants.ETH, address 0): TRANSFER of `value`, SWEEP of the router's balance (at least `value`), or PAY_PORTION of
 * all of it (10,000 bips). A known router passing the user's payment on to whomever the calldata names.
 */
export function universalRouterPayEth(command: keyof typeof PAYMENT, recipient: Address, value: bigint): Hex {
  const amount = command === 'PAY_PORTION' ? 10_000n : value
  const input = encodeAbiParameters(parseAbiParameters('address, address, uint256'), [zeroAddress, recipient, amount])
  return encodeFunctionData({
    abi: artifact.abi,
    functionName: 'execute',
    args: [encodePacked(['uint8'], [PAYMENT[command]]), [input], DEADLINE],
  })
}
