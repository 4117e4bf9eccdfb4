/**
 * The test wallet's page script built from MetaMask's own packages, as MetaMask's inpage.js is: a
 * WindowPostMessageStream to its content script, multiplexed (object-multiplex), whose 'metamask-provider' substream
 * carries the MetaMaskInpageProvider that initializeProvider sets on window.ethereum and announces through EIP-6963.
 */
import { initializeProvider } from '@metamask/providers/initializeInpageProvider'
import { providerStream } from './streams.ts'

declare const __WALLET__: { name: string; rdns: string }

const { name, rdns } = __WALLET__
initializeProvider({
  connectionStream: providerStream('metamask-inpage', 'metamask-contentscript'),
  shouldShimWeb3: true,
  providerInfo: { uuid: crypto.randomUUID(), name, icon: 'data:image/svg+xml,<svg/>', rdns },
})
