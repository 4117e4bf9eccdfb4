/**
 * Whether the page changed the prototypes that the params forwarded after a Continue read through (Object.prototype,
 * Array.prototype): an accessor or method it added or replaced there runs with the params as `this` when a wallet
 * reads a field they lack, writes one, or calls a method on them, and so hands the page the very objects the wallet is
 * about to send. Compared with what they held at document_start, before any page script.
 */
import {
  ArrayPrototype,
  append,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  ObjectPrototype,
  ownKeys,
  ownValue,
} from './intrinsics.ts'

type Member = { key: PropertyKey; value: unknown; get: unknown; set: unknown }

/** Every own member of `prototype`, in order, with what it holds. */
function membersOf(prototype: object): Member[] {
  const members: Member[] = []
  const keys = ownKeys(prototype)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as PropertyKey
    const descriptor = getOwnPropertyDescriptor(prototype, key)
    // ownValue reads the descriptor's own fields only: a missing one is not looked up on Object.prototype.
    append(members, {
      key,
      value: ownValue(descriptor, 'value'),
      get: ownValue(descriptor, 'get'),
      set: ownValue(descriptor, 'set'),
    })
  }
  return members
}

const SEATS: [prototype: object, members: Member[]][] = [
  [ObjectPrototype, membersOf(ObjectPrototype)],
  [ArrayPrototype, membersOf(ArrayPrototype)],
]

/** True while Object.prototype and Array.prototype hold what they held at document_start, and nothing sits between. */
export function prototypesUntouched(): boolean {
  if (getPrototypeOf(ArrayPrototype) !== ObjectPrototype) return false
  for (let seat = 0; seat < SEATS.length; seat++) {
    const entry = SEATS[seat] as [object, Member[]]
    const before = entry[1]
    const now = membersOf(entry[0])
    if (now.length !== before.length) return false
    for (let index = 0; index < now.length; index++) {
      const was = before[index] as Member
      const is = now[index] as Member
      if (is.key !== was.key || is.value !== was.value || is.get !== was.get || is.set !== was.set) return false
    }
  }
  return true
}
