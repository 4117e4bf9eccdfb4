/**
 * Where the engine places its own read code (the native balance reader, the Safe inspector, the pool depth probe) by a
 * state override: an address drawn at random once per process. At a fixed address a contract could look for the code
 * while it runs and behave only when simulated; a random one it cannot name. Once per process, not per scan, because
 * reads are prepared once and kept, and the code then travels only in the first simulated block.
 */
import { type Address, bytesToHex } from 'viem'

/** A new random 20-byte address, for code that must not be found at a known place. */
export function randomAddress(): Address {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(20)))
}
