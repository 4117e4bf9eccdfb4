/**
 * Fields a wallet in the page's world would read from the page instead of from the request. The params the hook
 * forwards are ordinary objects of this world, so a wallet that reads `tx.value` from a transaction that has none gets
 * whatever the page put on `Object.prototype`: an amount, a recipient, a fee or a domain's chain the window never
 * showed. The hook looks for such a field when a request arrives and again before it forwards what the user
 * continued; finding one, it forwards nothing.
 */
import type { ProviderError } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import { hasOwn, isArray, ObjectPrototype, ownValue } from './intrinsics.ts'

/** What a wallet reads from a transaction: every field that can change what it signs or pays. */
const TRANSACTION_FIELDS = [
  'from',
  'to',
  'value',
  'data',
  'input',
  'gas',
  'gasLimit',
  'gasPrice',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'nonce',
  'type',
  'chainId',
  'accessList',
  'authorizationList',
  'maxFeePerBlobGas',
  'blobVersionedHashes',
  'blobs',
]
/** What a wallet reads from a `wallet_sendCalls` batch besides its calls' own fields. */
const BATCH_FIELDS = ['version', 'from', 'chainId', 'calls', 'atomicRequired', 'capabilities']
/** What a wallet reads from typed data given as an object, and from its domain. */
const TYPED_DATA_FIELDS = ['types', 'primaryType', 'domain', 'message']
const DOMAIN_FIELDS = ['name', 'version', 'chainId', 'verifyingContract', 'salt']
/** What a wallet reads from each entry of legacy (v1) typed data, a list. */
const LEGACY_ENTRY_FIELDS = ['type', 'name', 'value']

/** A planted field: where it is missing, and its name. */
export type PlantedField = { where: string; name: string }

/** The first of `names` that `target` lacks and `Object.prototype` has (the page put it there). */
function plantedIn(target: unknown, names: readonly string[], where: string): PlantedField | undefined {
  if (target === null || typeof target !== 'object' || isArray(target)) return undefined
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string
    if (!hasOwn(target, name) && hasOwn(ObjectPrototype, name)) return { where, name }
  }
  return undefined
}

/** The first planted field missing from an object in `list`, named by its place ("call 2"). */
function plantedInEach(list: unknown[], names: readonly string[], what: string): PlantedField | undefined {
  for (let index = 0; index < list.length; index++) {
    const found = plantedIn(ownValue(list, index), names, `${what} ${index}`)
    if (found) return found
  }
  return undefined
}

/**
 * The first field the forwarded `params` leave out and the page defined on `Object.prototype`, among those a wallet
 * reads for `method`; undefined when the wallet can only read what the window showed.
 */
export function plantedField(method: InterceptedMethod, params: unknown): PlantedField | undefined {
  if (!isArray(params)) return undefined
  const first = ownValue(params, 0)
  switch (method) {
    case 'eth_sendTransaction':
    case 'eth_signTransaction':
      return plantedIn(first, TRANSACTION_FIELDS, 'the transaction')
    case 'wallet_sendCalls': {
      const batch = plantedIn(first, BATCH_FIELDS, 'the batch')
      if (batch) return batch
      const calls = ownValue(first, 'calls')
      return isArray(calls) ? plantedInEach(calls, TRANSACTION_FIELDS, 'call') : undefined
    }
    case 'eth_signTypedData':
    case 'eth_signTypedData_v1':
    case 'eth_signTypedData_v3':
    case 'eth_signTypedData_v4':
      for (let index = 0; index < params.length; index++) {
        const data = ownValue(params, index)
        const found = isArray(data)
          ? plantedInEach(data, LEGACY_ENTRY_FIELDS, 'entry')
          : (plantedIn(data, TYPED_DATA_FIELDS, 'the typed data') ??
            plantedIn(ownValue(data, 'domain'), DOMAIN_FIELDS, 'the domain'))
        if (found) return found
      }
      return undefined
    default:
      return undefined
  }
}

/** Why the hook sent nothing: the wallet could have read a field the page planted instead of the one checked. */
export function plantedError({ where, name }: PlantedField): ProviderError {
  return {
    code: -32603,
    message: `Preflight did not send this to the wallet: ${where} has no "${name}", and the page defined "${name}" on every object (Object.prototype), so the wallet could have read the page's value instead of what Preflight checked. Reload the page and try again.`,
  }
}
