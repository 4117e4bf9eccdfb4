/**
 * A JSON-RPC pass-through to the devnet that can hold requests: with it, a test keeps a scan running for as long as
 * it needs (to close the window or stop the worker mid-scan) and then lets it finish against the real node. It also
 * says when a request of a kind has been answered, so a test can act after a scan it does not see has read the chain.
 */
import type { ServerResponse } from 'node:http'
import { serveJsonRpc } from '../../support/net.ts'

export type HeldRpc = {
  url: string
  /** Holds every request from now on until release(). */
  hold(): void
  /** Resolves once at least `count` requests are being held. */
  holding(count?: number): Promise<void>
  /** Forwards the held requests and every later one. */
  release(): void
  /** Resolves once a request whose body matches has been answered (also one answered before the call). */
  answered(matches: (body: string) => boolean): Promise<void>
  close(): Promise<void>
}

/** Starts the pass-through to `upstream` on a free port. */
export async function startHeldRpc(upstream: string): Promise<HeldRpc> {
  let held: (() => void)[] | undefined
  let waiting: { count: number; resolve: () => void }[] = []
  const answeredBodies: string[] = []
  let onAnswer: (() => void)[] = []
  const notify = () => {
    const ready = waiting.filter((wait) => (held?.length ?? 0) >= wait.count)
    waiting = waiting.filter((wait) => !ready.includes(wait))
    for (const wait of ready) wait.resolve()
  }

  const forward = async (body: string, res: ServerResponse) => {
    try {
      const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
      answeredBodies.push(body)
      for (const check of onAnswer) check()
    } catch {
      // The caller (a stopped service worker) may have gone away while the request was held.
      res.destroy()
    }
  }

  const endpoint = await serveJsonRpc(async (body, res) => {
    if (!held) return void (await forward(body, res))
    held.push(() => void forward(body, res))
    notify()
  })

  return {
    url: endpoint.url,
    hold: () => {
      held = held ?? []
    },
    holding: (count = 1) =>
      new Promise<void>((resolve) => {
        waiting.push({ count, resolve })
        notify()
      }),
    release: () => {
      const queued = held ?? []
      held = undefined
      for (const go of queued) go()
    },
    answered: (matches) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!answeredBodies.some(matches)) return
          onAnswer = onAnswer.filter((each) => each !== check)
          resolve()
        }
        onAnswer.push(check)
        check()
      }),
    close: endpoint.close,
  }
}
