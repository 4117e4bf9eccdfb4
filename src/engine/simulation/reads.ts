/**
 * State reads that ride along in the simulation before and after the transactions: balances, allowances, metadata,
 * NFT URIs (a Safe's configuration is read in safeConfigRead.ts).
 */
import {
  type Abi,
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  hexToBytes,
  parseAbi,
  prepareEncodeFunctionData,
} from 'viem'
import { erc20Abi, erc721Abi, erc1155Abi, lendingDelegationAbi } from '../abi/index.ts'
import { randomAddress } from './injectedAddress.ts'

/** Where the reader (NativeBalanceReader.sol) lives during a simulation (its code is injected by a state override). */
export const READER_ADDRESS: Address = randomAddress()

/**
 * Runtime code of NativeBalanceReader.sol (solc 0.8.28, optimizer 200 runs, evm paris, no metadata): an account's
 * native balance, and its code size, 0 for an EIP-7702 delegation (the account stays its key holder's); and any read
 * of another contract made as a static call (readOnlyCall).
 */
export const READER_CODE: Hex =
  ('0x608060405234801561001057600080fd5b506004361061004c5760003560e01c806352872cf31461005157806370a0823114610076578063' +
    '888fe1c914610091578063e44a6e7a146100a6575b600080fd5b61006461005f36600461034a565b6100b9565b6040519081526020016040' +
    '5180910390f35b61006461008436600461034a565b6001600160a01b03163190565b6100a461009f36600461036c565b610127565b005b61' +
    '00a46100b436600461036c565b6102ad565b60006001600160a01b0382163b6017811480156101135750826001600160a01b0316803b8060' +
    '20016040519081016040528181526000908060200190933c610100906103f1565b6001600160e81b03191662ef010060e81b145b15610121' +
    '5750600092915050565b92915050565b600080846001600160a01b031660045a61014290600361042e565b61014c9190610453565b858560' +
    '405161015c929190610475565b6000604051808303818686fa925050503d8060008114610198576040519150601f19603f3d011682016040' +
    '523d82523d6000602084013e61019d565b606091505b509150915081156101b057805160208201f35b6000306001600160a01b0316306001' +
    '600160a01b031663e44a6e7a8888886040516024016101e093929190610485565b60408051601f1981840301815291815260208201805160' +
    '01600160e01b031660e09490941b93909317909252905161021892506104c5565b6000604051808303816000865af19150503d8060008114' +
    '610255576040519150601f19603f3d011682016040523d82523d6000602084013e61025a565b606091505b50915050805160041480156102' +
    '875750630dca080b60e31b61027b826104f4565b6001600160e01b031916145b156102a557604051630dca080b60e31b8152600401604051' +
    '80910390fd5b815160208301fd5b6000836001600160a01b031683836040516102c9929190610475565b6000604051808303816000865af1' +
    '9150503d8060008114610306576040519150601f19603f3d011682016040523d82523d6000602084013e61030b565b606091505b50509050' +
    '801561004c57604051630dca080b60e31b815260040160405180910390fd5b80356001600160a01b038116811461034557600080fd5b9190' +
    '50565b60006020828403121561035c57600080fd5b6103658261032e565b9392505050565b60008060006040848603121561038157600080' +
    'fd5b61038a8461032e565b9250602084013567ffffffffffffffff8111156103a657600080fd5b8401601f810186136103b757600080fd5b' +
    '803567ffffffffffffffff8111156103ce57600080fd5b8660208284010111156103e057600080fd5b939660209190910195509293505050' +
    '565b805160208201516001600160e81b0319811691906003821015610427576001600160e81b03196003838103901b81901b82161692505b' +
    '5050919050565b808202811582820484141761012157634e487b7160e01b600052601160045260246000fd5b60008261047057634e487b71' +
    '60e01b600052601260045260246000fd5b500490565b8183823760009101908152919050565b6001600160a01b0384168152604060208201' +
    '8190528101829052818360608301376000818301606090810191909152601f909201601f1916010192915050565b6000825160005b818110' +
    '156104e657602081860181015185830152016104cc565b506000920191825250919050565b805160208201516001600160e01b0319811691' +
    '906004821015610427576001600160e01b031960049290920360031b82901b16169291505056') as Hex

/** The selector of the reader's readOnly(address,bytes). */
const READ_ONLY_SELECTOR = '888fe1c9'

/** The ABI offset of readOnly's one dynamic argument, after the two head words. */
const OFFSET_WORD = '40'.padStart(64, '0')

/** What the reader reverts with when a read fails as a static call and succeeds when allowed to write: WritesState(). */
export const WRITES_STATE: Hex = '0x6e504058'

/**
 * The calldata that has the reader make a read of `to` as a static call and answer with `to`'s own return data, so
 * the read's answer decodes as before: readOnly(to, data) encoded by concatenation (selector, address, the offset
 * 0x40, length, data right-padded to words), since this runs for every read of every scan.
 */
export function readOnlyCall(to: Address, data: Hex): Hex {
  const bytes = (data.length - 2) / 2
  const padding = (64 - ((data.length - 2) % 64)) % 64
  return `0x${READ_ONLY_SELECTOR}${to.slice(2).toLowerCase().padStart(64, '0')}${OFFSET_WORD}${bytes
    .toString(16)
    .padStart(64, '0')}${data.slice(2)}${'0'.repeat(padding)}`
}

const readerAbi = parseAbi([
  'function balanceOf(address account) view returns (uint256)',
  'function codeSize(address account) view returns (uint256)',
])
const erc165Abi = parseAbi(['function supportsInterface(bytes4 interfaceId) view returns (bool)'])
const permit2Abi = parseAbi([
  'function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
])
const ERC1155_INTERFACE_ID: Hex = '0xd9b67a26'

/** One eth_call-style read; `state` reads run before and after the transactions, `static` ones only before. */
export type Read = { key: string; to: Address; data: Hex; timing: 'state' | 'static'; decode: (data: Hex) => unknown }

/**
 * A read's function, looked up and its selector hashed once, on first use (not while a service worker starts): given
 * a one-item ABI and the selector, viem's encodeFunctionData and decodeFunctionResult skip the ABI search and the
 * hashing they would do on every read.
 */
export type ReadFunction = () => { abi: Abi; functionName: Hex }

function readFunction(abi: Abi, functionName: string): ReadFunction {
  let prepared: ReturnType<ReadFunction> | undefined
  return () => (prepared ??= prepareEncodeFunctionData({ abi, functionName } as never))
}

const readFunctions = {
  nativeBalance: readFunction(readerAbi, 'balanceOf'),
  codeSize: readFunction(readerAbi, 'codeSize'),
  totalSupply: readFunction(erc20Abi, 'totalSupply'),
  erc20Balance: readFunction(erc20Abi, 'balanceOf'),
  erc1155Balance: readFunction(erc1155Abi, 'balanceOf'),
  allowance: readFunction(erc20Abi, 'allowance'),
  permit2Allowance: readFunction(permit2Abi, 'allowance'),
  approvedForAll: readFunction(erc721Abi, 'isApprovedForAll'),
  name: readFunction(erc20Abi, 'name'),
  symbol: readFunction(erc20Abi, 'symbol'),
  decimals: readFunction(erc20Abi, 'decimals'),
  supportsInterface: readFunction(erc165Abi, 'supportsInterface'),
  tokenUri: readFunction(erc721Abi, 'tokenURI'),
  erc1155Uri: readFunction(erc1155Abi, 'uri'),
  cometManager: readFunction(lendingDelegationAbi, 'isAllowed'),
}

/**
 * A read of any one-function ABI, prepared once by the caller (prepareRead) and made before the transactions: for
 * reads other folders plan, such as price feeds and pools.
 */
export function staticRead(key: string, to: Address, func: ReadFunction, args: readonly unknown[]): Read {
  return read(key, to, func, args, 'static')
}

/** Looks up a function of `abi` and hashes its selector once, for staticRead. */
export function prepareRead(abi: Abi, functionName: string): ReadFunction {
  return readFunction(abi, functionName)
}

function read(key: string, to: Address, func: ReadFunction, args: readonly unknown[], timing: Read['timing']): Read {
  const prepared = func()
  // Fields named rather than spread: Node 20's V8 gives each `{ ...prepared, args }` a hidden class of its own, made in
  // the old generation, and this runs for every read of every scan.
  const data = encodeFunctionData({ abi: prepared.abi, functionName: prepared.functionName, args } as never)
  const decodeAbi = (result: Hex) => decodeFunctionResult({ abi: prepared.abi, data: result } as never)
  return {
    key,
    to,
    data,
    timing,
    decode: returnsOneUint256(prepared.abi) ? (result) => oneWord(result) ?? decodeAbi(result) : decodeAbi,
  }
}

/** Whether a one-function ABI returns a single uint256: balances, allowances, supplies and code sizes do. */
function returnsOneUint256(abi: Abi): boolean {
  const [item] = abi
  return item?.type === 'function' && item.outputs.length === 1 && item.outputs[0]?.type === 'uint256'
}

/**
 * A uint256 answer of exactly one word, read without the ABI decoder: most of a scan's reads are these, and the node
 * already checked the answer is hex. Any other length goes through the decoder, which says what is wrong with it.
 */
function oneWord(result: Hex): bigint | undefined {
  return result.length === 66 ? BigInt(result) : undefined
}

const lower = (address: string) => address.toLowerCase()

/** Keys name what is read, lowercase, so plans from calldata and from logs merge without duplicates. */
export const readKeys = {
  native: (account: Address) => `native:${lower(account)}`,
  erc20Balance: (token: Address, account: Address) => `erc20:${lower(token)}:${lower(account)}`,
  erc1155Balance: (token: Address, account: Address, id: bigint) => `erc1155:${lower(token)}:${lower(account)}:${id}`,
  allowance: (token: Address, owner: Address, spender: Address) =>
    `allowance:${lower(token)}:${lower(owner)}:${lower(spender)}`,
  /** An allowance kept by another contract than the token (Permit2): `via` names it. */
  allowanceVia: (via: Address, token: Address, owner: Address, spender: Address) =>
    `allowance:${lower(via)}:${lower(token)}:${lower(owner)}:${lower(spender)}`,
  approvedForAll: (token: Address, owner: Address, operator: Address) =>
    `forall:${lower(token)}:${lower(owner)}:${lower(operator)}`,
  cometManager: (comet: Address, owner: Address, manager: Address) =>
    `manager:${lower(comet)}:${lower(owner)}:${lower(manager)}`,
  codeSize: (account: Address) => `code:${lower(account)}`,
  totalSupply: (token: Address) => `supply:${lower(token)}`,
  tokenField: (token: Address, field: 'name' | 'symbol' | 'decimals' | 'is1155') => `${field}:${lower(token)}`,
  tokenUri: (token: Address, id: bigint) => `tokenuri:${lower(token)}:${id}`,
  erc1155Uri: (token: Address, id: bigint) => `uri:${lower(token)}:${id}`,
}

/** Native balance of an account, through the injected reader. */
export function nativeBalanceRead(account: Address): Read {
  return read(readKeys.native(account), READER_ADDRESS, readFunctions.nativeBalance, [account], 'state')
}

/** A token's total supply, read once before the transactions (permits judge "more than the whole supply"). */
export function totalSupplyRead(token: Address): Read {
  return read(readKeys.totalSupply(token), token, readFunctions.totalSupply, [], 'static')
}

/** ERC-20 (or ERC-721 count) balance of an account. */
export function erc20BalanceRead(token: Address, account: Address): Read {
  return read(readKeys.erc20Balance(token, account), token, readFunctions.erc20Balance, [account], 'state')
}

/** ERC-1155 balance of one token id. */
export function erc1155BalanceRead(token: Address, account: Address, id: bigint): Read {
  return read(readKeys.erc1155Balance(token, account, id), token, readFunctions.erc1155Balance, [account, id], 'state')
}

/** ERC-20 allowance of owner to spender. */
export function allowanceRead(token: Address, owner: Address, spender: Address): Read {
  return read(readKeys.allowance(token, owner, spender), token, readFunctions.allowance, [owner, spender], 'state')
}

/** The amount of owner's token that spender may move through Permit2 (`via`), which keeps allowances of its own. */
export function permit2AllowanceRead(via: Address, token: Address, owner: Address, spender: Address): Read {
  const key = readKeys.allowanceVia(via, token, owner, spender)
  const allowance = read(key, via, readFunctions.permit2Allowance, [owner, token, spender], 'state')
  return { ...allowance, decode: (result) => (allowance.decode(result) as readonly [bigint, number, number])[0] }
}

/** Whether the operator may move all of the owner's tokens of a collection (ERC-721 and ERC-1155 alike). */
export function approvedForAllRead(token: Address, owner: Address, operator: Address): Read {
  const key = readKeys.approvedForAll(token, owner, operator)
  return read(key, token, readFunctions.approvedForAll, [owner, operator], 'state')
}

/**
 * Whether `manager` manages `owner`'s account in a Compound III market (Comet's `isAllowed`). Asked of any token that
 * approves for all or nothing: only a Comet answers, so the answer also tells a Comet's approval from a token's.
 */
export function cometManagerRead(comet: Address, owner: Address, manager: Address): Read {
  const key = readKeys.cometManager(comet, owner, manager)
  return read(key, comet, readFunctions.cometManager, [owner, manager], 'state')
}

/** Code size of an account before the transactions: zero means an externally owned account, delegated (EIP-7702) or not. */
export function codeSizeRead(account: Address): Read {
  return read(readKeys.codeSize(account), READER_ADDRESS, readFunctions.codeSize, [account], 'static')
}

/** An account's code size before the transactions, when the scan read it (0 for a person, or a contract yet to exist). */
export function codeSizeBefore(reads: ReadResults, account: Address): bigint | undefined {
  const size = reads.before.get(readKeys.codeSize(account))
  return typeof size === 'bigint' ? size : undefined
}

/** name, symbol, decimals and the ERC-1155 interface flag of a token contract. */
export function tokenMetadataReads(token: Address): Read[] {
  return [
    textRead(readKeys.tokenField(token, 'name'), token, readFunctions.name),
    textRead(readKeys.tokenField(token, 'symbol'), token, readFunctions.symbol),
    read(readKeys.tokenField(token, 'decimals'), token, readFunctions.decimals, [], 'static'),
    read(
      readKeys.tokenField(token, 'is1155'),
      token,
      readFunctions.supportsInterface,
      [ERC1155_INTERFACE_ID],
      'static',
    ),
  ]
}

/**
 * A name or symbol read: an ABI string, or the bytes32 that early tokens (MKR, SAI) answer instead, its text
 * zero-padded on the right; null for a bytes32 that is not UTF-8 text. No ABI string fits in one word, so the answer's
 * length tells which.
 */
function textRead(key: string, token: Address, func: ReadFunction): Read {
  const asString = read(key, token, func, [], 'static')
  return { ...asString, decode: (result) => (result.length === 66 ? bytes32Text(result) : asString.decode(result)) }
}

function bytes32Text(word: Hex): string | null {
  const bytes = hexToBytes(word)
  let end = bytes.length
  while (end > 0 && bytes[end - 1] === 0) end -= 1
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end))
  } catch {
    return null
  }
}

/** An ERC-721 token's metadata URI (`tokenURI`), read before the transactions: a burn must not hide it. */
export function tokenUriRead(token: Address, id: bigint): Read {
  return read(readKeys.tokenUri(token, id), token, readFunctions.tokenUri, [id], 'static')
}

/** An ERC-1155 token's metadata URI template (`uri`), read before the transactions. */
export function erc1155UriRead(token: Address, id: bigint): Read {
  return read(readKeys.erc1155Uri(token, id), token, readFunctions.erc1155Uri, [id], 'static')
}

/** Read results by key: a decoded value, or undefined when the call reverted or returned nothing decodable. */
export type ReadResults = { before: Map<string, unknown>; after: Map<string, unknown> }
