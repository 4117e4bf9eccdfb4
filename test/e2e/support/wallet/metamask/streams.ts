/** MetaMask's window channel as both of its ends open it. */
import type { Duplex } from 'node:stream'
import ObjectMultiplex from '@metamask/object-multiplex'
import { WindowPostMessageStream } from '@metamask/post-message-stream'

/**
 * The 'metamask-provider' substream of a WindowPostMessageStream named `name` talking to `target`, multiplexed both
 * ways as MetaMask's inpage.js and content script do.
 */
export function providerStream(name: string, target: string) {
  // readable-stream, whose Duplex the stream extends, ships no types: its pipe is Node's.
  const page = new WindowPostMessageStream({ name, target }) as unknown as Duplex
  const mux = new ObjectMultiplex()
  page.pipe(mux as unknown as Duplex).pipe(page)
  return mux.createStream('metamask-provider') as unknown as Duplex
}
