/** Request ids: unguessable, so one client cannot look up or collide with another's scan. */
import { bytesToHex } from 'viem'

/** 32 hex characters from the platform's cryptographic random source (Node 20 and workers alike). */
export function newRequestId(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(16))).slice(2)
}
