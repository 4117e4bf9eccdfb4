/**
 * The relay's watch on wallets' message channels (walletChannel.ts): a signing request that no Continue forwarded is
 * stopped before the wallet's content script sees it and checked like any other. The window shows it; Continue posts
 * it again, with the params shown, and Reject answers the page on the channel as the wallet would. This is the route a
 * page takes when it skips the provider, or answers the hook of a frame it reached before Preflight started there.
 */
import { type HookCall, type Outcome, WALLET_ANSWER_TIMEOUT_MS } from './protocol.ts'
import {
  type Allowances,
  type Allowed,
  type ChannelRequest,
  channelAnswer,
  channelAsk,
  channelError,
  channelForward,
  readChannelMessage,
  scopeChain,
} from './walletChannel.ts'

export type ChannelGuardOptions = {
  win: Window
  allowances: Allowances
  /** Sends a call to the worker, as the hook's calls go; `settle` gets its outcome once. */
  submit(call: HookCall, settle: (outcome: Outcome) => void): void
  /** Says a request is on its way, so its window opens while the wallet is asked for its accounts and chain. */
  announce(): void
}

/** Starts watching `win`'s messages; call it before any page script runs, so no message passes unseen. */
export function guardWalletChannels({ win, allowances, submit, announce }: ChannelGuardOptions): void {
  const post = (message: unknown) => win.postMessage(message, '*')

  /** The wallet's answer to `method` on the request's channel, or undefined when it gives none in time. */
  const ask = (request: ChannelRequest, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = `preflight-${crypto.randomUUID()}`
      const done = (result: unknown) => {
        clearTimeout(timer)
        win.removeEventListener('message', onAnswer, true)
        resolve(result)
      }
      const onAnswer = (event: MessageEvent) => {
        const answer = channelAnswer(event.data, request.target, id)
        if (answer) done(answer.result)
      }
      const timer = setTimeout(() => done(undefined), WALLET_ANSWER_TIMEOUT_MS)
      win.addEventListener('message', onAnswer, true)
      post(channelAsk(request.target, request.name, id, method))
    })

  const check = async (request: ChannelRequest) => {
    announce()
    // A Multichain API call names its chain; its channel answers no eth_accounts, and the signer is in the params.
    const [accounts, chainId] =
      request.scope === undefined
        ? await Promise.all([ask(request, 'eth_accounts'), ask(request, 'eth_chainId')])
        : [undefined, scopeChain(request.scope)]
    const wallet = { label: `${request.target.replace(/[-:_]?contentscript$/, '')} (its message channel)`, late: false }
    submit({ method: request.method, params: request.params, accounts, chainId, wallet }, (outcome) => {
      if (outcome.kind === 'error')
        return post(channelError(request.target, request.name, request.request.id, outcome.error))
      forward(request, outcome.params)
    })
  }

  /** Posts `request` to the wallet with `params`, the copy a window showed, and lets that post through once. */
  const forward = (request: ChannelRequest, params: unknown) => {
    allowances.allow(request.method, params, request)
    post(channelForward(request, params))
  }

  win.addEventListener(
    'message',
    (event) => {
      // As the wallet's content script does: only what this window's own scripts posted. A frame's message to its
      // parent is no request of the parent's, and must not become one by being posted again here.
      if (event.source !== win) return
      // An event the page dispatched itself (a wallet's stream does not check) hands each world its own copy of the
      // page's object, getters run again: what the relay reads is not what the wallet would. None of a wallet's is.
      if (!event.isTrusted) return event.stopImmediatePropagation()
      let message: ReturnType<typeof readChannelMessage>
      let allowed: Allowed | undefined
      try {
        message = readChannelMessage(event.data)
        if (message.kind === 'other') return
        allowed = message.kind === 'signing' ? allowances.take(message.request) : undefined
        if (allowed?.kind === 'pass') return
      } catch {
        // A request that cannot be read or compared (too large, not JSON) is stopped, never let by.
        return event.stopImmediatePropagation()
      }
      event.stopImmediatePropagation()
      if (message.kind === 'refused') post(channelError(message.target, message.name, message.id, message.error))
      // What the provider posted for a Continue is the page's world's object: the wallet gets the relay's copy instead.
      else if (allowed) forward(message.request, allowed.params)
      else void check(message.request)
    },
    true,
  )
}
