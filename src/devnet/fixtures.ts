/** The fixtures file: what the devnet deployed, in the shape DESIGN.md promises to tests and tools. */
import type { Address, Hex } from 'viem'
import type { ProtocolFixtures } from './protocols.ts'

export type Fixtures = {
  rpcUrl: string
  chainId: number
  accounts: { address: Address; privateKey: Hex }[]
  safe: { address: Address; owners: Address[]; threshold: number; version: string }
  erc20: { address: Address; name: string; symbol: string; decimals: number }
  weth: { address: Address; name: string; symbol: string; decimals: number }
  erc721: { address: Address; name: string; symbol: string; tokens: { tokenId: string; owner: Address }[] }
  erc1155: { address: Address; balances: { id: string; owner: Address; amount: string }[] }
  drainer: { address: Address; attacker: Address }
  safeContracts: {
    singleton: Address
    proxyFactory: Address
    multiSend: Address
    multiSendCallOnly: Address
    fallbackHandler: Address
  }
  deployer: Address
  startupMs: number
} & Omit<ProtocolFixtures, 'erc20' | 'weth'>
