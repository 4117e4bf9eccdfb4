/**
 * What keeps a person from reading a message as written: addresses written in a form other than 0x-hex (which wallets
 * accept and sign, and scanners that only know 0x-hex miss), text that reorders its own display, and messages the scan
 * cannot read at all.
 */
import { reorders } from '../abi/index.ts'
import type { Warning } from '../api/index.ts'
import { makeWarning } from '../risk/index.ts'
import { type TypedData, valuesOfType } from './typedData.ts'

/**
 * CRITICAL for every address the payload writes in another form than 0x and 40 hex digits: no honest app writes a
 * spender or a contract in decimal, and the form is a known trick to get a signature past scanners.
 */
export function unusualAddressWarnings(typedData: TypedData): Warning[] {
  return typedData.unusualAddresses.map(({ field, written, address }) =>
    makeWarning(
      'NON_CANONICAL_ADDRESS',
      'CRITICAL',
      `This message writes ${field} as "${shorten(written)}" instead of a normal address. Your wallet signs it as ` +
        `${address}. Honest apps do not write addresses this way; it is a trick to get past security checks. Do not ` +
        'sign it.',
      { field, written, address },
    ),
  )
}

/**
 * A WARNING where wallets sign different things for the same payload (TypedData.undeclaredDomainFields, otherRoot):
 * what is shown is what MetaMask signs, and a wallet built on ethers signs something else, possibly far worse.
 */
export function walletDisagreementWarnings(typedData: TypedData): Warning[] {
  const warnings: Warning[] = []
  const fields = typedData.undeclaredDomainFields
  if (fields.length > 0) {
    warnings.push(
      unreadableWarning(
        `Its domain holds ${fields.join(', ')} but its types do not declare ${fields.length === 1 ? 'it' : 'them'}. ` +
          'Some wallets sign the undeclared fields and some leave them out, so what this signature allows depends on ' +
          'your wallet, and what is shown here may not be it. Honest apps declare every domain field.',
      ),
    )
  }
  if (typedData.otherRoot !== undefined) {
    warnings.push(
      unreadableWarning(
        `It asks to sign a ${typedData.primaryType}, but its types are built around a ${typedData.otherRoot}, which ` +
          `some wallets sign instead: what is shown here may not be what your wallet signs. Honest apps sign the type ` +
          'their others belong to.',
      ),
    )
  }
  return warnings
}

/**
 * A WARNING for every string of the domain and the message holding characters that reorder its display (U+202E
 * turns "moc.elgoog" into "google.com"): the field reads differently from what is signed.
 */
export function reorderedTextWarnings(typedData: TypedData): Warning[] {
  const fields = valuesOfType(typedData, 'string').filter(({ value }) => reorders(value as string))
  if (fields.length === 0) return []
  const names = fields.map(({ path }) => path).join(', ')
  return [
    unreadableWarning(
      `${names} ${fields.length === 1 ? 'holds' : 'hold'} characters that change the order in which text is ` +
        'displayed, so what you read there is not what you sign. Honest sites do not write messages this way.',
    ),
  ]
}

/** The warning for a message the scan could not read: the person is told so in words, and the action is WARN. */
export function unreadableWarning(reason: string): Warning {
  return makeWarning(
    'RELIABLE_SIMULATION_NOT_POSSIBLE',
    'WARNING',
    `This message could not be read — do not sign unless you know why. ${reason}`,
  )
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text
}
