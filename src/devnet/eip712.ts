/**
 * The EIP-712 payloads Preflight is built to read (EIP-2612 and Permit2 permits, Safe transactions, Seaport orders),
 * written once so the demo dapp, the tests and the benchmark sign and scan exactly the same shapes. Plain data: no
 * DOM, no node:*.
 */
import { type Address, type Hex, zeroAddress } from 'viem'
import type { SafeTx } from '../engine/index.ts'

/** Uniswap's Permit2: the same address on every chain; it need not be deployed for a signature request. */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'

export type TypedDataField = { name: string; type: string }

/** An EIP-712 payload as eth_signTypedData_v4 takes it (after JSON.stringify); integers as decimal strings. */
export type TypedData = {
  types: Record<string, TypedDataField[]>
  domain: Record<string, string | number>
  primaryType: string
  message: Record<string, unknown>
}

/** A chain id as a domain carries it: dapps send a number, a decimal string or hex. */
type ChainId = number | string

/** The EIP712Domain of tokens and most dapps: name, version, chain and contract. */
export const NAMED_DOMAIN_FIELDS: TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

/**
 * The EIP-712 specification's own example (Cow mails Bob), without its domain: a message no contract acts on, whose
 * digest the specification publishes.
 */
export const ETHER_MAIL = {
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const

/** Permit2's EIP712Domain, which has no version. */
export const PERMIT2_DOMAIN_FIELDS: TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
]

/** EIP-2612's Permit struct. */
export const EIP2612_PERMIT_FIELDS: TypedDataField[] = [
  { name: 'owner', type: 'address' },
  { name: 'spender', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'nonce', type: 'uint256' },
  { name: 'deadline', type: 'uint256' },
]

/** DAI's permit: all or nothing (`allowed`), with an expiry where 0 means never. */
export const DAI_PERMIT_FIELDS: TypedDataField[] = [
  { name: 'holder', type: 'address' },
  { name: 'spender', type: 'address' },
  { name: 'nonce', type: 'uint256' },
  { name: 'expiry', type: 'uint256' },
  { name: 'allowed', type: 'bool' },
]

/** The ERC-721 permit of Uniswap V3 positions (ERC-4494): one token id to one spender. */
export const ERC721_PERMIT_FIELDS: TypedDataField[] = [
  { name: 'spender', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'nonce', type: 'uint256' },
  { name: 'deadline', type: 'uint256' },
]

/** The struct types of Permit2's allowance and signature-transfer permits. */
export const PERMIT2_TYPES = {
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
  PermitBatch: [
    { name: 'details', type: 'PermitDetails[]' },
    { name: 'spender', type: 'address' },
    { name: 'sigDeadline', type: 'uint256' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  /** What PermitTransferFrom and PermitWitnessTransferFrom add after `permitted`. */
  transferFields: [
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} satisfies Record<string, TypedDataField[]>

/** The types of a Safe (v1.3+) transaction message: the domain is only the chain and the Safe. */
export const SAFE_TX_TYPES = {
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
} satisfies Record<string, TypedDataField[]>

const seaportItem: TypedDataField[] = [
  { name: 'itemType', type: 'uint8' },
  { name: 'token', type: 'address' },
  { name: 'identifierOrCriteria', type: 'uint256' },
  { name: 'startAmount', type: 'uint256' },
  { name: 'endAmount', type: 'uint256' },
]

/** The types of a Seaport (1.1 to 1.6) OrderComponents message. */
export const SEAPORT_ORDER_TYPES: Record<string, TypedDataField[]> = {
  EIP712Domain: NAMED_DOMAIN_FIELDS,
  OrderComponents: [
    { name: 'offerer', type: 'address' },
    { name: 'zone', type: 'address' },
    { name: 'offer', type: 'OfferItem[]' },
    { name: 'consideration', type: 'ConsiderationItem[]' },
    { name: 'orderType', type: 'uint8' },
    { name: 'startTime', type: 'uint256' },
    { name: 'endTime', type: 'uint256' },
    { name: 'zoneHash', type: 'bytes32' },
    { name: 'salt', type: 'uint256' },
    { name: 'conduitKey', type: 'bytes32' },
    { name: 'counter', type: 'uint256' },
  ],
  OfferItem: seaportItem,
  ConsiderationItem: [...seaportItem, { name: 'recipient', type: 'address' }],
}

/** Seaport 1.6: the same address on every chain that has it; it need not be deployed for a signature request. */
export const SEAPORT_1_6_ADDRESS: Address = '0x0000000000000068F116a894984e2DB1123eB395'

/** An item of a Seaport order as a dapp sends it: integers as decimal strings; consideration items name a recipient. */
export type SeaportItem = Record<string, string>

/** A Seaport 1.6 order from `offerer` on `chainId`: open (no zone), valid 2023 to 2030, salt 42, counter 0. */
export function seaportOrder(order: {
  offerer: Address
  chainId: ChainId
  offer: SeaportItem[]
  consideration: SeaportItem[]
}): TypedData {
  const { offerer, chainId, offer, consideration } = order
  return {
    types: SEAPORT_ORDER_TYPES,
    primaryType: 'OrderComponents',
    domain: { name: 'Seaport', version: '1.6', chainId, verifyingContract: SEAPORT_1_6_ADDRESS },
    message: {
      offerer,
      zone: zeroAddress,
      offer,
      consideration,
      orderType: '0',
      startTime: '1700000000',
      endTime: '1900000000',
      zoneHash: `0x${'00'.repeat(32)}`,
      salt: '42',
      conduitKey: `0x${'00'.repeat(32)}`,
      counter: '0',
      totalOriginalConsiderationItems: String(consideration.length),
    },
  }
}

/** An EIP-2612 permit of `value` of `token` (whose EIP-712 name is `name`) from `owner` to `spender`. */
export function eip2612Permit(permit: {
  name: string
  chainId: ChainId
  token: Address
  owner: Address
  spender: Address
  value: bigint
  nonce: bigint
  deadline: number | bigint
}): TypedData {
  return {
    types: { EIP712Domain: NAMED_DOMAIN_FIELDS, Permit: EIP2612_PERMIT_FIELDS },
    domain: { name: permit.name, version: '1', chainId: permit.chainId, verifyingContract: permit.token },
    primaryType: 'Permit',
    message: {
      owner: permit.owner,
      spender: permit.spender,
      value: permit.value.toString(),
      nonce: permit.nonce.toString(),
      deadline: permit.deadline.toString(),
    },
  }
}

/** A Permit2 message of `primaryType` with its struct `types`, in Permit2's domain on `chainId`. */
export function permit2TypedData(
  chainId: ChainId,
  primaryType: string,
  types: Record<string, TypedDataField[]>,
  message: Record<string, unknown>,
): TypedData {
  return {
    types: { EIP712Domain: PERMIT2_DOMAIN_FIELDS, ...types },
    domain: { name: 'Permit2', chainId, verifyingContract: PERMIT2_ADDRESS },
    primaryType,
    message,
  }
}

/** A Permit2 PermitSingle: `spender` may spend `amount` of `token` until `expiration`, if signed by `sigDeadline`. */
export function permit2PermitSingle(permit: {
  chainId: ChainId
  token: Address
  amount: bigint
  expiration: number | bigint
  spender: Address
  sigDeadline: number | bigint
  nonce?: bigint
}): TypedData {
  const { PermitSingle, PermitDetails } = PERMIT2_TYPES
  return permit2TypedData(
    permit.chainId,
    'PermitSingle',
    { PermitSingle, PermitDetails },
    {
      details: {
        token: permit.token,
        amount: permit.amount.toString(),
        expiration: permit.expiration.toString(),
        nonce: (permit.nonce ?? 0n).toString(),
      },
      spender: permit.spender,
      sigDeadline: permit.sigDeadline.toString(),
    },
  )
}

/** A Safe transaction that calls `to` with `value` and `data`: no delegatecall, no gas refund. */
export function plainSafeTx(to: Address, value: bigint, nonce: bigint, data: Hex = '0x'): SafeTx {
  return {
    to,
    value,
    data,
    operation: 0,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: zeroAddress,
    refundReceiver: zeroAddress,
    nonce,
  }
}

/** The SafeTx message an owner of `safe` on `chainId` signs for `tx`. */
export function safeTxTypedData(chainId: ChainId, safe: string, tx: SafeTx): TypedData {
  return {
    types: { ...SAFE_TX_TYPES },
    domain: { chainId, verifyingContract: safe },
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

/** The types of a Safe (v1.3+) message (EIP-1271): the bytes the Safe signs in its own name. */
export const SAFE_MESSAGE_TYPES = {
  EIP712Domain: SAFE_TX_TYPES.EIP712Domain,
  SafeMessage: [{ name: 'message', type: 'bytes' }],
} satisfies Record<string, TypedDataField[]>

/**
 * The SafeMessage an owner of `safe` on `chainId` signs so that the Safe signs `message`; for a dapp's request,
 * Safe{Wallet} puts the hash of the dapp's message there.
 */
export function safeMessageTypedData(chainId: ChainId, safe: string, message: Hex): TypedData {
  return {
    types: { ...SAFE_MESSAGE_TYPES },
    domain: { chainId, verifyingContract: safe },
    primaryType: 'SafeMessage',
    message: { message },
  }
}

/** Blur's EIP712Domain: name "Blur Exchange", version "1.0" (both exchanges). */
export const BLUR_DOMAIN = { name: 'Blur Exchange', version: '1.0' }

/** Blur v1 (BlurExchange) Order, as its published EIP712.sol hashes it: the trader's nonce is part of the order. */
export const BLUR_V1_ORDER_TYPES = {
  EIP712Domain: NAMED_DOMAIN_FIELDS,
  Order: [
    { name: 'trader', type: 'address' },
    { name: 'side', type: 'uint8' },
    { name: 'matchingPolicy', type: 'address' },
    { name: 'collection', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'amount', type: 'uint256' },
    { name: 'paymentToken', type: 'address' },
    { name: 'price', type: 'uint256' },
    { name: 'listingTime', type: 'uint256' },
    { name: 'expirationTime', type: 'uint256' },
    { name: 'fees', type: 'Fee[]' },
    { name: 'salt', type: 'uint256' },
    { name: 'extraParams', type: 'bytes' },
    { name: 'nonce', type: 'uint256' },
  ],
  Fee: [
    { name: 'rate', type: 'uint16' },
    { name: 'recipient', type: 'address' },
  ],
} satisfies Record<string, TypedDataField[]>

/** Blur v1's bulk signature: the root of a Merkle tree of order hashes. */
export const BLUR_ROOT_TYPES = {
  EIP712Domain: NAMED_DOMAIN_FIELDS,
  Root: [{ name: 'root', type: 'bytes32' }],
} satisfies Record<string, TypedDataField[]>

/** Blur v2 (BlurExchangeV2) Order: the listings (index, token id, amount, price) are a Merkle root. */
export const BLUR_V2_ORDER_TYPES = {
  EIP712Domain: NAMED_DOMAIN_FIELDS,
  Order: [
    { name: 'trader', type: 'address' },
    { name: 'collection', type: 'address' },
    { name: 'listingsRoot', type: 'bytes32' },
    { name: 'numberOfListings', type: 'uint256' },
    { name: 'expirationTime', type: 'uint256' },
    { name: 'assetType', type: 'uint8' },
    { name: 'makerFee', type: 'FeeRate' },
    { name: 'salt', type: 'uint256' },
    { name: 'orderType', type: 'uint8' },
    { name: 'nonce', type: 'uint256' },
  ],
  FeeRate: [
    { name: 'recipient', type: 'address' },
    { name: 'rate', type: 'uint16' },
  ],
} satisfies Record<string, TypedDataField[]>

/** A Blur v1 listing (side 1 = sell) of one ERC-721 for `price` wei in ETH, with the given fee rates. */
export function blurV1Listing(listing: {
  chainId: ChainId
  exchange: Address
  trader: Address
  collection: Address
  tokenId: bigint
  price: bigint
  fees?: { rate: number; recipient: Address }[]
}): TypedData {
  return {
    types: BLUR_V1_ORDER_TYPES,
    domain: { ...BLUR_DOMAIN, chainId: listing.chainId, verifyingContract: listing.exchange },
    primaryType: 'Order',
    message: {
      trader: listing.trader,
      side: 1,
      matchingPolicy: zeroAddress,
      collection: listing.collection,
      tokenId: listing.tokenId.toString(),
      amount: '1',
      paymentToken: zeroAddress,
      price: listing.price.toString(),
      listingTime: '1700000000',
      expirationTime: '1900000000',
      fees: listing.fees ?? [],
      salt: '7',
      extraParams: '0x',
      nonce: '0',
    },
  }
}

/** CoW Protocol's settlement: the same address on every chain it runs on; a signature request needs none deployed. */
export const COW_SETTLEMENT_ADDRESS: Address = '0x9008D19f58AAbD9eD0D60971565AA8510560ab41'

/** CoW Protocol's Order (GPv2Order), as CoW Swap asks the wallet to sign it. */
export const COW_ORDER_TYPES = {
  EIP712Domain: NAMED_DOMAIN_FIELDS,
  Order: [
    { name: 'sellToken', type: 'address' },
    { name: 'buyToken', type: 'address' },
    { name: 'receiver', type: 'address' },
    { name: 'sellAmount', type: 'uint256' },
    { name: 'buyAmount', type: 'uint256' },
    { name: 'validTo', type: 'uint32' },
    { name: 'appData', type: 'bytes32' },
    { name: 'feeAmount', type: 'uint256' },
    { name: 'kind', type: 'string' },
    { name: 'partiallyFillable', type: 'bool' },
    { name: 'sellTokenBalance', type: 'string' },
    { name: 'buyTokenBalance', type: 'string' },
  ],
} satisfies Record<string, TypedDataField[]>

/** A CoW order on `chainId`'s settlement; `order` holds its fields (amounts as decimal strings). */
export function cowOrderTypedData(chainId: ChainId, order: Record<string, unknown>): TypedData {
  return {
    types: { ...COW_ORDER_TYPES },
    domain: { name: 'Gnosis Protocol', version: 'v2', chainId, verifyingContract: COW_SETTLEMENT_ADDRESS },
    primaryType: 'Order',
    message: order,
  }
}

/** An OpenZeppelin MinimalForwarder request: `forwarder` calls `to` with `data` in `from`'s name (no value, nonce 0). */
export function forwardRequestTypedData(
  chainId: ChainId,
  forwarder: Address,
  request: { from: Address; to: Address; data: Hex },
): TypedData {
  return {
    types: {
      EIP712Domain: NAMED_DOMAIN_FIELDS,
      ForwardRequest: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'gas', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'data', type: 'bytes' },
      ],
    },
    domain: { name: 'MinimalForwarder', version: '0.0.1', chainId, verifyingContract: forwarder },
    primaryType: 'ForwardRequest',
    message: { ...request, value: '0', gas: '100000', nonce: '0' },
  }
}
