/**
 * The addresses a Safe's members reads ask about (safeConfigRead.ts): those the transactions mention. A module or owner
 * written straight into the Safe's mapping joins no list, so it is found only by asking for it; code that keeps the
 * address off the calldata (in its own storage, or made on the way) still escapes this, and is left to the delegate
 * call rules.
 */
import { type Address, bytesToHex, type Hex, hexToBytes } from 'viem'
import { type Call, decodeExecTransaction } from '../safe/index.ts'

/** At most this many candidates per Safe: four members reads of 64, before and after. */
export const MAX_MEMBER_CANDIDATES = 256

/** Leading zero bytes an address may have and still be found (a vanity address's); more make too many candidates. */
const ADDRESS_ZERO_BYTES = 3

/**
 * The addresses `data` mentions: each 20 bytes right after 12 zero bytes, at any byte offset (ABI-encoded
 * calldata nested in calldata is not word-aligned), and the same for an address starting with up to three zero bytes.
 */
export function mentionedAddresses(data: Hex): Address[] {
  const bytes = hexToBytes(data)
  const found: Address[] = []
  let zeros = 0
  for (let index = 0; index < bytes.length; index++) {
    if (bytes[index] === 0) {
      zeros++
      continue
    }
    // A run of zeros ends here: an address may start here, or up to three zero bytes before.
    for (let lead = 0; lead <= Math.min(ADDRESS_ZERO_BYTES, zeros - 12); lead++) {
      const start = index - lead
      if (start + 20 <= bytes.length) found.push(bytesToHex(bytes.subarray(start, start + 20)))
    }
    zeros = 0
  }
  return found
}

/**
 * The candidates to ask a Safe about, most telling first: the accounts read as Safes, the calls' senders and targets
 * (`calls` expanded, so a MultiSend's packed targets too), then what the transactions' calldata mentions (which holds
 * every nested call's; of a Safe transaction, what it runs); without `exclude` (the preset's signers, made owners by the simulation itself), at most
 * MAX_MEMBER_CANDIDATES.
 */
export function memberCandidates(accounts: Address[], calls: Call[], exclude: Address[]): Address[] {
  const excluded = new Set(exclude.map((address) => address.toLowerCase()))
  const candidates = new Map<string, Address>()
  const add = (address: Address | null) => {
    const key = address?.toLowerCase()
    if (!address || !key || excluded.has(key) || candidates.has(key)) return
    candidates.set(key, address)
  }
  for (const address of accounts) add(address)
  for (const call of calls) {
    add(call.from)
    add(call.to)
  }
  for (const call of calls) {
    if (call.depth !== 0) continue
    // A Safe transaction's signatures are no part of what it runs (under the preset they are the simulation's own,
    // 32 of them): only what it runs is searched.
    const exec = decodeExecTransaction(call.data)
    if (exec) {
      add(exec.gasToken)
      add(exec.refundReceiver)
    }
    for (const address of mentionedAddresses(exec ? exec.data : call.data)) add(address)
  }
  return [...candidates.values()].slice(0, MAX_MEMBER_CANDIDATES)
}

/** The addresses logs mention (emitters, topics, data) beyond `known`, without `exclude`. */
export function loggedCandidates(
  logs: { address: Address; topics: readonly Hex[]; data: Hex }[],
  known: Address[],
  exclude: Address[],
): Address[] {
  const skip = new Set([...known, ...exclude].map((address) => address.toLowerCase()))
  const found = new Map<string, Address>()
  for (const log of logs) {
    for (const address of [log.address, ...log.topics.flatMap(mentionedAddresses), ...mentionedAddresses(log.data)]) {
      const key = address.toLowerCase()
      if (!skip.has(key)) found.set(key, address)
    }
  }
  return [...found.values()].slice(0, MAX_MEMBER_CANDIDATES)
}
