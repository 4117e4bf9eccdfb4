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
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
  parseUnits,
  zeroAddress,
} from 'viem'
import type { Fixtures } from '../fixtures.ts'

/** Uniswap's Permit2: the same address on every chain; it need not be deployed for a signature request. */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
/** Uniswap's Universal Router, the usual spender in Permit2 and EIP-2612 permits (not deployed on the devnet). */
export const ROUTER_ADDRESS: Address = '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD'

const MAX_UINT160 = 2n ** 160n - 1n
const MAX_UINT48 = 2n ** 48n - 1n

export const safeAbi = parseAbi([
  'function nonce() view returns (uint256)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
])
export const permitNoncesAbi = parseAbi(['function nonces(address owner) view returns (uint256)'])
export const drainerAbi = parseAbi(['function claimRewards(address token) payable'])

/** An eth_sendTransaction parameter: quantities as 0x-hex, as wallets expect. */
export type TxRequest = { from: Address; to: Address; value?: Hex; data?: Hex }

/** An EIP-712 payload as eth_signTypedData_v4 takes it (after JSON.stringify); integers as decimal strings. */
export type TypedData = {
  types: Record<string, { name: string; type: string }[]>
  domain: Record<string, string | number>
  primaryType: string
  message: Record<string, unknown>
}

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

/** An EIP-2612 permit of USDC for an unlimited amount to the router, valid for a day from `now` (Unix seconds). */
export function unlimitedPermit(fixtures: Fixtures, owner: Address, nonce: bigint, now: number): TypedData {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    domain: {
      name: fixtures.erc20.name,
      version: '1',
      chainId: fixtures.chainId,
      verifyingContract: fixtures.erc20.address,
    },
    primaryType: 'Permit',
    message: {
      owner,
      spender: ROUTER_ADDRESS,
      value: maxUint256.toString(),
      nonce: nonce.toString(),
      deadline: String(now + 86_400),
    },
  }
}

/** A Permit2 PermitSingle letting the router spend the maximum uint160 of USDC for 30 days. */
export function permit2Single(fixtures: Fixtures, now: number): TypedData {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      PermitDetails: [
        { name: 'token', type: 'address' },
        { name: 'amount', type: 'uint160' },
        { name: 'expiration', type: 'uint48' },
        { name: 'nonce', type: 'uint48' },
      ],
      PermitSingle: [
        { name: 'details', type: 'PermitDetails' },
        { name: 'spender', type: 'address' },
        { name: 'sigDeadline', type: 'uint256' },
      ],
    },
    domain: { name: 'Permit2', chainId: fixtures.chainId, verifyingContract: PERMIT2_ADDRESS },
    primaryType: 'PermitSingle',
    message: {
      details: {
        token: fixtures.erc20.address,
        amount: MAX_UINT160.toString(),
        expiration: String(Math.min(now + 30 * 86_400, Number(MAX_UINT48))),
        nonce: '0',
      },
      spender: ROUTER_ADDRESS,
      sigDeadline: String(now + 1_800),
    },
  }
}

/** The Safe transaction the demo proposes and executes: 1 ETH from the Safe to dev account 3, a plain call. */
export function safeTransfer(fixtures: Fixtures, nonce: bigint) {
  return {
    to: recipient(fixtures),
    value: parseEther('1'),
    data: '0x' as Hex,
    operation: 0,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: zeroAddress,
    refundReceiver: zeroAddress,
    nonce,
  }
}

export type SafeTx = ReturnType<typeof safeTransfer>

/** The SafeTx typed data an owner signs for `tx` (Safe v1.3+: the domain is chainId and the Safe's address). */
export function safeTxTypedData(fixtures: Fixtures, tx: SafeTx): TypedData {
  return {
    types: {
      EIP712Domain: [
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      SafeTx: [
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'data', type: 'bytes' },
        { name: 'operation', type: 'uint8' },
        { name: 'safeTxGas', type: 'uint256' },
        { name: 'baseGas', type: 'uint256' },
        { name: 'gasPrice', type: 'uint256' },
        { name: 'gasToken', type: 'address' },
        { name: 'refundReceiver', type: 'address' },
        { name: 'nonce', type: 'uint256' },
      ],
    },
    domain: { chainId: fixtures.chainId, verifyingContract: fixtures.safe.address },
    primaryType: 'SafeTx',
    message: {
      to: tx.to,
      value: tx.value.toString(),
      data: tx.data,
      operation: tx.operation,
      safeTxGas: tx.safeTxGas.toString(),
      baseGas: tx.baseGas.toString(),
      gasPrice: tx.gasPrice.toString(),
      gasToken: tx.gasToken,
      refundReceiver: tx.refundReceiver,
      nonce: tx.nonce.toString(),
    },
  }
}

/** execTransaction from `from` with the owners' signatures, which the Safe requires sorted by owner address. */
export function execSafeTransaction(
  fixtures: Fixtures,
  from: Address,
  tx: SafeTx,
  signatures: { owner: Address; signature: Hex }[],
): TxRequest {
  const sorted = [...signatures].sort((a, b) => (BigInt(a.owner) < BigInt(b.owner) ? -1 : 1))
  const data = encodeFunctionData({
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
      concatHex(sorted.map((entry) => entry.signature)),
    ],
  })
  return { from, to: fixtures.safe.address, data }
}
