/**
 * The libraries the largest dapps build on, bundled for a test page as `window.Kits` (walletKitBundle()): wagmi's
 * framework-free core, which finds wallets through EIP-6963 (mipd) and talks to them through its injected connector,
 * and Safe's protocol-kit, with which Safe apps have owners sign multisig transactions.
 */
export { default as Safe, EthSafeSignature } from '@safe-global/protocol-kit'
export {
  connect,
  createConfig,
  http,
  sendCalls,
  sendTransaction,
  signMessage,
  signTypedData,
  writeContract,
} from '@wagmi/core'
export { foundry } from '@wagmi/core/chains'
