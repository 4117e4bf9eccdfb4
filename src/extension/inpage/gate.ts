/**
 * The decision point for one intercepted call: copy the params once (before anything else can run), refuse them when
 * the page planted a field they leave out (plantedFields.ts), announce the call to the worker (which opens its window
 * meanwhile), ask the wallet the hook holds for its
 * accounts and chain, and hand all of it to the worker; `done` is called once with the worker's outcome: the params to
 * forward (the ones the window showed) or the error to give the dapp.
 */
import type { Outcome } from '../relay/protocol.ts'
import type { InterceptedMethod } from '../shared/pending.ts'
import type { RelayChannel } from './channel.ts'
import { plantedError, plantedField } from './plantedFields.ts'
import { copyData } from './snapshot.ts'
import { askWallet, type Held } from './wallets.ts'

export type Gate = ((
  held: Held,
  method: InterceptedMethod,
  params: unknown,
  done: (outcome: Outcome) => void,
) => void) & {
  /** Called on a pass-through method that usually comes just before a signing request (see methods.ts). */
  prelude?: () => void
}

/**
 * A wallet's answer as plain data no one else holds (undefined when it cannot be copied): a provider the page made
 * answers with the page's objects, whose getters would otherwise run while the answer is sent to the worker.
 */
function detached(value: unknown): unknown {
  const copy = copyData(value)
  return copy.ok ? copy.value : undefined
}

/** Builds the gate every patched entry point uses. */
export function createGate(channel: RelayChannel): Gate {
  const gate: Gate = (held, method, params, done) => {
    const copy = copyData(params)
    if (!copy.ok) {
      return done({
        kind: 'error',
        error: { code: -32602, message: `Preflight refused this request: ${copy.reason}.` },
      })
    }
    const planted = plantedField(method, copy.value)
    if (planted) return done({ kind: 'error', error: plantedError(planted) })
    // The worker starts (when stopped) and opens the window while the wallet answers, instead of after.
    channel.coming()
    let accounts: unknown
    let chainId: unknown
    let pending = 2
    const ready = () => {
      pending--
      if (pending > 0) return
      channel.scan({ method, params: copy.value, accounts, chainId, wallet: held.info }, done)
    }
    askWallet(held, 'eth_accounts', (value) => {
      accounts = detached(value)
      ready()
    })
    askWallet(held, 'eth_chainId', (value) => {
      chainId = detached(value)
      ready()
    })
  }
  gate.prelude = channel.prelude
  return gate
}
