/**
 * Blur's exchange signatures, with the EIP-712 types of its published contracts: the v1 `Order` (BlurExchange), the v1
 * bulk `Root(bytes32 root)` (one signature over a Merkle tree of orders) and the current `Order` (BlurExchangeV2,
 * whose prices sit in a Merkle tree of listings). The signed payload of a `Root`, and of a v2 order's listings, holds
 * only a hash: what is sold and for how much can be shown only when the request also carries the tree, each entry
 * with its Merkle proof (`message.orders[]` beside `root`, `message.listings[]` beside the order's fields; not signed,
 * and believed only when the proofs lead to the signed root, as the exchange itself checks them, and when they are the
 * whole tree: a tree given in part would show some of what one signature approves).
 */
import { encodeAbiParameters, type Hex, keccak256, zeroAddress } from 'viem'
import { type Address, isRecord } from '../api/index.ts'
import { bulkOrders, type SeaportItem, type SeaportOrders, type SeaportTrade } from './seaport.ts'
import { hashTypedPayload, parseTypedData, structSignature, type TypedData, type TypedStruct } from './typedData.ts'

/** What a Blur signature is, as far as the request lets it be read. */
export type BlurSignature =
  | { kind: 'orders'; form: 'ORDER_V1' | 'BULK_V1' | 'ORDER_V2'; orders: SeaportOrders }
  | { kind: 'blind'; form: 'BULK_V1' | 'ORDER_V2'; reason: string }

const V1_ORDER =
  'address trader,uint8 side,address matchingPolicy,address collection,uint256 tokenId,uint256 amount,' +
  'address paymentToken,uint256 price,uint256 listingTime,uint256 expirationTime,Fee[] fees,uint256 salt,' +
  'bytes extraParams,uint256 nonce'
const V1_FEE = 'uint16 rate,address recipient'
const V2_ORDER =
  'address trader,address collection,bytes32 listingsRoot,uint256 numberOfListings,uint256 expirationTime,' +
  'uint8 assetType,FeeRate makerFee,uint256 salt,uint8 orderType,uint256 nonce'
const V2_FEE_RATE = 'address recipient,uint16 rate'
const ROOT = 'bytes32 root'

/** Fee rates are in basis points. */
const BASIS_POINTS = 10_000n
/** More orders or listings than any real tree (Blur lists at most a few thousand at once). */
const MAX_TREE_ENTRIES = 10_000
const MAX_PROOF_LENGTH = 32

/** The Blur signature a payload is, or null. `payload` is the request's raw typed data (for the unsigned tree). */
export function findBlurSignature(typedData: TypedData, payload: unknown, user: Address): BlurSignature | null {
  const { types, primaryType, message } = typedData
  const shape = structSignature(types, primaryType)
  if (shape === V1_ORDER && structSignature(types, 'Fee') === V1_FEE) {
    return { kind: 'orders', form: 'ORDER_V1', orders: single(v1Trade(message, user)) }
  }
  if (shape === V2_ORDER && structSignature(types, 'FeeRate') === V2_FEE_RATE) return v2Order(typedData, payload, user)
  if (shape === ROOT && typedData.domain.name === 'Blur Exchange') return bulkRoot(typedData, payload, user)
  return null
}

/** Whether the site is Blur's own (blur.io or a subdomain): the only place people sign Blur orders. */
export function isBlurSite(origin: string): boolean {
  try {
    const host = new URL(origin).hostname
    return host === 'blur.io' || host.endsWith('.blur.io')
  } catch {
    return false
  }
}

/** A v1 order for the user: a Sell gives the NFT for the price less fees; a Buy pays the price for the NFT. */
function v1Trade(order: TypedStruct, user: Address): SeaportTrade {
  const trader = order.trader as Address
  if (trader !== user.toLowerCase()) return { offerer: trader, gives: [], receives: [] }
  const amount = order.amount as bigint
  const nft: SeaportItem = {
    kind: amount > 1n ? 'ERC1155' : 'ERC721',
    token: order.collection as Address,
    identifier: order.tokenId as bigint,
    amount: amount > 1n ? amount : 1n,
  }
  const price = order.price as bigint
  const payment = (value: bigint): SeaportItem => {
    const token = order.paymentToken as Address
    return { kind: token === zeroAddress ? 'NATIVE' : 'ERC20', token, identifier: 0n, amount: value }
  }
  if (order.side === 0n) return { offerer: trader, gives: [payment(price)], receives: [nft] }
  const feeRate = (order.fees as TypedStruct[]).reduce((sum, fee) => sum + (fee.rate as bigint), 0n)
  const proceeds = feeRate >= BASIS_POINTS ? 0n : (price * (BASIS_POINTS - feeRate)) / BASIS_POINTS
  return { offerer: trader, gives: [nft], receives: proceeds > 0n ? [payment(proceeds)] : [] }
}

/** A v1 bulk Root: opened when every order the request gives is proven to be a leaf of the signed root. */
function bulkRoot(typedData: TypedData, payload: unknown, user: Address): BlurSignature {
  const entries = treeEntries(payload, 'orders')
  if (!entries) {
    return {
      kind: 'blind',
      form: 'BULK_V1',
      reason:
        'This is a Blur bulk signature: one hash that approves every order in a list this request does not show. ' +
        'What it sells, and for how much, cannot be read.',
    }
  }
  const trades: SeaportTrade[] = []
  const proven: ProvenLeaf[] = []
  for (const entry of entries) {
    const order = isRecord(entry) ? entry.order : undefined
    const parsed = parseTypedData({
      types: { EIP712Domain: typedData.types.EIP712Domain, Order: V1_ORDER_FIELDS, Fee: V1_FEE_FIELDS },
      primaryType: 'Order',
      domain: rawDomain(payload),
      message: order,
    })
    if (!parsed.ok) return unopened('BULK_V1', `an order of its tree is not a Blur order (${parsed.error.message})`)
    const leaf = hashTypedPayload(parsed.typedData).messageHash
    const proof = proofOf(entry)
    if (!proof || !provesRoot(leaf, proof, typedData.message.root as Hex)) {
      return unopened('BULK_V1', 'the orders given with it do not lead to the root it signs')
    }
    proven.push({ leaf, proof })
    trades.push(v1Trade(parsed.typedData.message, user))
  }
  if (!wholeTree(proven)) return unopened('BULK_V1', PART_OF_TREE)
  return { kind: 'orders', form: 'BULK_V1', orders: bulkOrders(trades, user) }
}

/** A v2 order: its listings (index, token id, amount, price) opened when proven to be leaves of `listingsRoot`. */
function v2Order(typedData: TypedData, payload: unknown, user: Address): BlurSignature {
  const { message } = typedData
  const entries = treeEntries(payload, 'listings', 'message')
  if (!entries) {
    return {
      kind: 'blind',
      form: 'ORDER_V2',
      reason:
        `This Blur order covers ${message.numberOfListings} listing(s) whose items and prices are only a hash in ` +
        'the signature; this request does not show them, so what it sells and for how much cannot be read.',
    }
  }
  if ((message.trader as Address) !== user.toLowerCase())
    return { kind: 'orders', form: 'ORDER_V2', orders: bulkOrders([], user) }
  const fee = ((message.makerFee as TypedStruct).rate as bigint) ?? 0n
  const erc1155 = message.assetType === 1n
  const trades: SeaportTrade[] = []
  const proven: ProvenLeaf[] = []
  const indexes = new Set<bigint>()
  for (const entry of entries) {
    const listing = readListing(entry)
    if (!listing) return unopened('ORDER_V2', 'a listing given with it is not index, tokenId, amount and price')
    const leaf = keccak256(
      encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
        [listing.index, listing.tokenId, listing.amount, listing.price],
      ),
    )
    const proof = proofOf(entry)
    if (!proof || !provesRoot(leaf, proof, message.listingsRoot as Hex)) {
      return unopened('ORDER_V2', 'the listings given with it do not lead to the root it signs')
    }
    proven.push({ leaf, proof })
    indexes.add(listing.index)
    const nft: SeaportItem = {
      kind: erc1155 ? 'ERC1155' : 'ERC721',
      token: message.collection as Address,
      identifier: listing.tokenId,
      amount: erc1155 ? listing.amount : 1n,
    }
    // Blur v2 pays in ETH for asks and takes bids from Blur's pool (ETH held by the exchange): both are ETH here.
    const total = listing.price * (erc1155 ? listing.amount : 1n)
    const eth = (amount: bigint): SeaportItem => ({ kind: 'NATIVE', token: zeroAddress, identifier: 0n, amount })
    const proceeds = fee >= BASIS_POINTS ? 0n : (total * (BASIS_POINTS - fee)) / BASIS_POINTS
    trades.push(
      message.orderType === 0n
        ? { offerer: user, gives: [nft], receives: proceeds > 0n ? [eth(proceeds)] : [] }
        : { offerer: user, gives: [eth(total)], receives: [nft] },
    )
  }
  // The order signs how many listings its tree holds: fewer given means some are not shown.
  if (BigInt(indexes.size) !== message.numberOfListings || !wholeTree(proven)) return unopened('ORDER_V2', PART_OF_TREE)
  return { kind: 'orders', form: 'ORDER_V2', orders: bulkOrders(trades, user) }
}

const PART_OF_TREE =
  'what the request shows is only part of the tree it signs, and the signature also approves what it leaves out'

const V1_ORDER_FIELDS = V1_ORDER.split(',').map((field) => {
  const [type, name] = field.split(' ')
  return { type: type as string, name: name as string }
})
const V1_FEE_FIELDS = V1_FEE.split(',').map((field) => {
  const [type, name] = field.split(' ')
  return { type: type as string, name: name as string }
})

function unopened(form: 'BULK_V1' | 'ORDER_V2', why: string): BlurSignature {
  return { kind: 'blind', form, reason: `This Blur signature cannot be opened: ${why}.` }
}

/** The unsigned tree entries the request carries beside the signed fields, or null when there are none. */
function treeEntries(payload: unknown, field: string, inside = 'message'): unknown[] | null {
  if (!isRecord(payload) || !isRecord(payload[inside])) return null
  const entries = (payload[inside] as Record<string, unknown>)[field]
  return Array.isArray(entries) && entries.length > 0 && entries.length <= MAX_TREE_ENTRIES ? entries : null
}

function rawDomain(payload: unknown): unknown {
  return isRecord(payload) ? payload.domain : undefined
}

function readListing(entry: unknown): { index: bigint; tokenId: bigint; amount: bigint; price: bigint } | null {
  if (!isRecord(entry)) return null
  const values = [entry.index, entry.tokenId, entry.amount, entry.price].map(toUint)
  if (values.some((value) => value === null)) return null
  const [index, tokenId, amount, price] = values as bigint[]
  return { index: index as bigint, tokenId: tokenId as bigint, amount: amount as bigint, price: price as bigint }
}

function toUint(value: unknown): bigint | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  try {
    const number = BigInt(value)
    return number >= 0n && number < 2n ** 256n ? number : null
  } catch {
    return null
  }
}

/** A tree entry's leaf and the proof that led it to the signed root. */
type ProvenLeaf = { leaf: Hex; proof: Hex[] }

/** An entry's Merkle proof, lowercase, or null when it is not a list of 32-byte hashes of a sane length. */
function proofOf(entry: unknown): Hex[] | null {
  const proof = isRecord(entry) ? entry.proof : undefined
  if (!Array.isArray(proof) || proof.length > MAX_PROOF_LENGTH) return null
  const hashes: Hex[] = []
  for (const sibling of proof) {
    if (typeof sibling !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(sibling)) return null
    hashes.push(sibling.toLowerCase() as Hex)
  }
  return hashes
}

/** OpenZeppelin's MerkleProof (sorted pairs), as both Blur exchanges verify a leaf against the signed root. */
function provesRoot(leaf: Hex, proof: Hex[], root: Hex): boolean {
  let node = leaf
  for (const sibling of proof) node = parentOf(node, sibling)
  return node.toLowerCase() === root.toLowerCase()
}

function parentOf(node: Hex, sibling: Hex): Hex {
  const [a, b] = BigInt(node) < BigInt(sibling) ? [node, sibling] : [sibling, node]
  return keccak256(`0x${a.slice(2)}${b.slice(2)}`)
}

/**
 * Whether the proven leaves are the whole tree: every sibling on every proof is one of them, or a node built from
 * them. Proofs that hold any other hash have a leaf the request does not show under it, which the root signs too.
 */
function wholeTree(proven: ProvenLeaf[]): boolean {
  const known = new Set<string>(proven.map(({ leaf }) => leaf.toLowerCase()))
  const walks = proven.map(({ leaf, proof }) => ({ node: leaf, proof, step: 0 }))
  for (let progress = true; progress; ) {
    progress = false
    for (const walk of walks) {
      for (let sibling = walk.proof[walk.step]; sibling && known.has(sibling); sibling = walk.proof[walk.step]) {
        walk.node = parentOf(walk.node, sibling)
        known.add(walk.node.toLowerCase())
        walk.step += 1
        progress = true
      }
    }
  }
  return walks.every((walk) => walk.step === walk.proof.length)
}

function single(trade: SeaportTrade): SeaportOrders {
  return { orders: [trade], total: trade, bulk: false }
}
