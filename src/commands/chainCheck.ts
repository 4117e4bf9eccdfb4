/** Checks that the node behind a `chain/network` name serves that chain, so a scan never silently runs elsewhere. */
import { createPublicClient, http } from 'viem'
import { CHAIN_PATHS, chainIdOf } from '../engine/index.ts'
import { redactUrl } from '../server/redactUrl.ts'

type ChainCheck =
  | { ok: true; chainId: number | undefined }
  | { ok: false; kind: 'UNKNOWN_NAME' | 'MISMATCH' | 'UNREACHABLE'; message: string }

/**
 * Resolves `pair` (e.g. "ethereum/mainnet") to its chain id and asks the node at `rpcUrl` which chain it serves.
 * A name Preflight does not know is UNKNOWN_NAME unless `allowUnknown`, then it passes unchecked (chainId undefined).
 */
export async function checkChain(pair: string, rpcUrl: string, allowUnknown = false): Promise<ChainCheck> {
  const expected = chainIdOf(pair)
  if (expected === undefined) {
    if (allowUnknown) return { ok: true, chainId: undefined }
    const known = Object.values(CHAIN_PATHS).map((p) => `${p.chain}/${p.network}`)
    return {
      ok: false,
      kind: 'UNKNOWN_NAME',
      message: `"${pair}" is not a known CHAIN/NETWORK (known: ${known.join(', ')})`,
    }
  }
  try {
    const actual = await createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 5_000 }) }).getChainId()
    if (actual === expected) return { ok: true, chainId: expected }
    return {
      ok: false,
      kind: 'MISMATCH',
      message: `the node at ${redactUrl(rpcUrl)} serves chain ${actual}, but ${pair} is chain ${expected}`,
    }
  } catch (error) {
    return {
      ok: false,
      kind: 'UNREACHABLE',
      message: `could not ask ${redactUrl(rpcUrl)} for its chain id: ${(error as Error).message.split('\n')[0]}`,
    }
  }
}
