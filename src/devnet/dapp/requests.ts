/**
 * The wallet requests the demo dapp makes, built from the fixtures with viem: plain data, so the page, the e2e tests
 * and the demo send exactly the same thing.
 */
import {
  type Address,
  concatHex,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  type Hex,
  hashTypedData,
  maxUint48,
  maxUint160,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem'
import type { SafeTx } from '../../engine/index.ts'
import {
  cowOrderTypedData,
  eip2612Permit,
  PERMIT2_ADDRESS,
  permit2PermitSingle,
  plainSafeTx,
  type TypedData,
} from '../eip712.ts'
import type { Fixtures } from '../fixtures.ts'

/** Uniswap's Universal Router, the usual spender in Permit2 and EIP-2612 permits (not deployed on the devnet). */
export const ROUTER_ADDRESS: Address = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD'

export const safeAbi = parseAbi([
  'function nonce() view returns (uint256)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
])
export const permitNoncesAbi = parseAbi(['function nonces(address owner) view returns (uint256)'])
export const drainerAbi = parseAbi(['function claimRewards(address token) payable'])
const ownableAbi = parseAbi(['function transferOwnership(address newOwner)'])

/** An eth_sendTransaction parameter: quantities as 0x-hex, as wallets expect. */
export type TxRequest = { from: Address; to: Address; value?: Hex; data?: Hex }

/** The recipient of the demo's transfers: dev account 3, an ordinary account. */
export const recipient = (fixtures: Fixtures): Address => fixtures.accounts[3]?.address ?? zeroAddress

/** Sends 1 ETH from `from` to dev account 3. */
export function sendEth(fixtures: Fixtures, from: Address): TxRequest {
  return { from, to: recipient(fixtures), value: numberToHex(parseEther('1')) }
}

/** Transfers 100 USDC from `from` to dev account 3. */
export function transferErc20(fixtures: Fixtures, from: Address): TxRequest {
  const amount = parseUnits('100', fixtures.erc20.decimals)
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient(fixtures), amount] })
  return { from, to: fixtures.erc20.address, data }
}

/** Approves `spender` (Permit2 unless given) to spend an unlimited amount of `from`'s USDC. */
export function approveErc20(fixtures: Fixtures, from: Address, spender: Address = PERMIT2_ADDRESS): TxRequest {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] })
  return { from, to: fixtures.erc20.address, data }
}

/** Lets dev account 4 move every NFT `from` holds in the fixture collection. */
export function setApprovalForAll(fixtures: Fixtures, from: Address): TxRequest {
  const operator = fixtures.accounts[4]?.address ?? zeroAddress
  const data = encodeFunctionData({ abi: erc721Abi, functionName: 'setApprovalForAll', args: [operator, true] })
  return { from, to: fixtures.erc721.address, data }
}

/** The drainer's lure: "claim rewards", which sweeps the caller's approved USDC to the attacker. */
export function claimRewards(fixtures: Fixtures, from: Address): TxRequest {
  const data = encodeFunctionData({ abi: drainerAbi, functionName: 'claimRewards', args: [fixtures.erc20.address] })
  return { from, to: fixtures.drainer.address, data }
}

/** Hands the vault `from` owns (account 0's, in the fixtures) to dev account 8: what a phishing "migration" asks. */
export function handOverVault(fixtures: Fixtures, from: Address): TxRequest {
  const data = encodeFunctionData({
    abi: ownableAbi,
    functionName: 'transferOwnership',
    args: [fixtures.drainer.attacker],
  })
  return { from, to: fixtures.controlled.vault, data }
}

/** An EIP-2612 permit of USDC for an unlimited amount to the router, valid for a day from `now` (Unix seconds). */
export function unlimitedPermit(fixtures: Fixtures, owner: Address, nonce: bigint, now: number): TypedData {
  return eip2612Permit({
    name: fixtures.erc20.name,
    chainId: fixtures.chainId,
    token: fixtures.erc20.address,
    owner,
    spender: ROUTER_ADDRESS,
    value: maxUint256,
    nonce,
    deadline: now + 86_400,
  })
}

/**
 * The hash of an unlimited USDC permit from the Safe to the drainer's attacker: what a hostile dapp asks the Safe to
 * sign (EIP-1271), and all that the owners see of it in the Safe message they are asked to sign.
 */
export function safePermitHash(fixtures: Fixtures): Hex {
  const permit = eip2612Permit({
    name: fixtures.erc20.name,
    chainId: fixtures.chainId,
    token: fixtures.erc20.address,
    owner: fixtures.safe.address,
    spender: fixtures.drainer.attacker,
    value: maxUint256,
    nonce: 0n,
    deadline: 4_102_444_800,
  })
  return hashTypedData(permit as Parameters<typeof hashTypedData>[0])
}

/**
 * A CoW Protocol order selling 1,000 of `owner`'s USDC for at least 0.33 WETH, valid for an hour from `now`, that pays
 * the WETH to dev account 3: how a phishing swap page takes the proceeds of a fair-looking trade.
 */
export function cowOrderPayingAnother(fixtures: Fixtures, now: number): TypedData {
  return cowOrderTypedData(fixtures.chainId, {
    sellToken: fixtures.erc20.address,
    buyToken: fixtures.weth.address,
    receiver: recipient(fixtures),
    sellAmount: parseUnits('1000', fixtures.erc20.decimals).toString(),
    buyAmount: parseEther('0.33').toString(),
    validTo: now + 3_600,
    appData: `0x${'00'.repeat(32)}`,
    feeAmount: '0',
    kind: 'sell',
    partiallyFillable: false,
    sellTokenBalance: 'erc20',
    buyTokenBalance: 'erc20',
  })
}

/** A Permit2 PermitSingle letting the router spend the maximum uint160 of USDC for 30 days. */
export function permit2Single(fixtures: Fixtures, now: number): TypedData {
  return permit2PermitSingle({
    chainId: fixtures.chainId,
    token: fixtures.erc20.address,
    amount: maxUint160,
    expiration: Math.min(now + 30 * 86_400, Number(maxUint48)),
    spender: ROUTER_ADDRESS,
    sigDeadline: now + 1_800,
  })
}

/** The Safe transaction the demo proposes and executes: 1 ETH from the Safe to dev account 3, a plain call. */
export function safeTransfer(fixtures: Fixtures, nonce: bigint): SafeTx {
  return plainSafeTx(recipient(fixtures), parseEther('1'), nonce)
}

/** The calldata of the Safe's execTransaction of `tx` with `signatures` (none: the preset supplies the sender's). */
export function execTransactionData(tx: SafeTx, signatures: Hex = '0x'): Hex {
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [
      tx.to,
      tx.value,
      tx.data,
      tx.operation,
      tx.safeTxGas,
      tx.baseGas,
      tx.gasPrice,
      tx.gasToken,
      tx.refundReceiver,
      signatures,
    ],
  })
}

/** execTransaction from `from` with the owners' signatures, which the Safe requires sorted by owner address. */
export function execSafeTransaction(
  fixtures: Fixtures,
  from: Address,
  tx: SafeTx,
  signatures: { owner: Address; signature: Hex }[],
): TxRequest {
  const sorted = [...signatures].sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : 1))
  return {
    from,
    to: fixtures.safe.address,
    data: execTransactionData(tx, concatHex(sorted.map((entry) => entry.signature))),
  }
}
