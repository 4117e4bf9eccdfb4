/**
 * State reads that ride along in the simulation's before/after blocks: balances, allowances, metadata, NFT URIs (a
 * Safe's configuration is read in safeConfigRead.ts).
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

/** Where the native balance reader lives during a simulation (its code is injected by a state override). */
export const READER_ADDRESS: Address = randomAddress()

/**
 * Runtime code of NativeBalanceReader.sol (solc 0.8.28, optimizer 200 runs, evm paris, no metadata): an account's
 * native balance, and its code size, 0 for an EIP-7702 delegation (the account stays its key holder's).
 */
export const READER_CODE: Hex =
  ('0x608060405234801561001057600080fd5b50600436106100365760003560e01c806352872cf31461003b57806370a0823114610060575b' +
    '600080fd5b61004e6100493660046100e9565b61007b565b60405190815260200160405180910390f35b61004e61006e3660046100e9565b' +
    '6001600160a01b03163190565b60006001600160a01b0382163b6017811480156100d55750826001600160a01b0316803b80602001604051' +
    '9081016040528181526000908060200190933c6100c290610119565b6001600160e81b03191662ef010060e81b145b156100e35750600092' +
    '915050565b92915050565b6000602082840312156100fb57600080fd5b81356001600160a01b038116811461011257600080fd5b93925050' +
    '50565b805160208201516001600160e81b031981169190600382101561014f576001600160e81b03196003838103901b81901b8216169250' +
    '5b505091905056') as Hex

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
