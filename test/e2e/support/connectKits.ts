/**
 * The libraries dapps pick and wrap the wallet with, bundled for a test page as `window.Connect` (connectKitBundle()):
 * ethers v5, Blocknative's web3-onboard with its injected-wallets module, mipd (the EIP-6963 store viem and wagmi
 * use) with viem's custom transport, Coinbase's wallet SDK v4, which uses an injected Coinbase wallet when there is
 * one, and wagmi's injected connector, whose `coinbaseWallet` target looks where that SDK does.
 */
export { createCoinbaseWalletSDK } from '@coinbase/wallet-sdk'
export { connect, createConfig, http, injected, sendTransaction } from '@wagmi/core'
export { default as Onboard } from '@web3-onboard/core'
export { default as injectedWallets } from '@web3-onboard/injected-wallets'
export { providers as ethers5, utils as ethers5utils } from 'ethers5'
export { createStore } from 'mipd'
export { createWalletClient, custom } from 'viem'
export { foundry } from 'viem/chains'
