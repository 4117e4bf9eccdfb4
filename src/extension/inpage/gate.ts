/** The decision point for one intercepted call: normalise it, ask the relay, and let it through or throw. */
import type { RelayChannel } from './channel.ts'
import { type AskProvider, normalizeParams } from './normalize.ts'
import { type Gate, providerError } from './patchProvider.ts'

type LegacyProvider = {
  request?: (args: { method: string; params: unknown[] }) => Promise<unknown>
  sendAsync?: (payload: object, callback: (error: unknown, response?: { result?: unknown }) => void) => void
}

/** Asks the same provider the dapp used (its own account and chain), through whichever API it has. */
function askProviderOf(provider: object): AskProvider {
  const legacy = provider as LegacyProvider
  return (method) => {
    if (typeof legacy.request === 'function') return legacy.request({ method, params: [] })
    if (typeof legacy.sendAsync !== 'function') return Promise.reject(new Error(`the provider cannot answer ${method}`))
    const sendAsync = legacy.sendAsync
    return new Promise((resolve, reject) =>
      sendAsync.call(legacy, { jsonrpc: '2.0', id: 0, method, params: [] }, (error, response) =>
        error ? reject(error) : resolve(response?.result),
      ),
    )
  }
}

/** An unknown chain (0) still gets scanned: the worker reports that it cannot simulate it and the user decides. */
async function chainIdOf(ask: AskProvider): Promise<number> {
  try {
    const id = Number(await ask('eth_chainId'))
    return Number.isSafeInteger(id) && id > 0 ? id : 0
  } catch {
    return 0
  }
}

/** Builds the gate every patched provider uses; it settles once per call. */
export function createGate(channel: RelayChannel): Gate {
  return async (provider, method, params) => {
    const ask = askProviderOf(provider)
    const [normal, chainId] = await Promise.all([
      normalizeParams(method, params, ask).catch((error: { code?: number; message?: string }) => {
        throw providerError({ code: error.code ?? -32603, message: error.message ?? String(error) })
      }),
      chainIdOf(ask),
    ])
    const outcome = await channel.scan({ method, ...normal, chainId })
    if (outcome.kind === 'error') throw providerError(outcome.error)
  }
}
