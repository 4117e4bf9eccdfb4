/** Request ids: unguessable, so one client cannot look up or collide with another's scan. */
import { bytesToHex } from 'viem'

const ID_BYTES = 16
/** Ids drawn per call to the random source: each call costs far more than the bytes it returns. */
const IDS_PER_DRAW = 256

let pool = new Uint8Array(0)
let next = 0

/** 32 hex characters from the platform's cryptographic random source (Node 20 and workers alike); no byte serves twice. */
export function newRequestId(): string {
  if (next === pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(ID_BYTES * IDS_PER_DRAW))
    next = 0
  }
  const id = bytesToHex(pool.subarray(next, next + ID_BYTES)).slice(2)
  next += ID_BYTES
  return id
}
