/** The client libraries dapps send requests with, bundled for a test page as `window.Libs` (libraryBundle()). */
export { BrowserProvider } from 'ethers6'
export { createWalletClient, custom } from 'viem'
export { foundry } from 'viem/chains'
export { Web3 } from 'web3'
