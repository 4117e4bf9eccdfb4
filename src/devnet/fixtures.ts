/** The fixtures file: what the devnet deployed, in the shape DESIGN.md promises to tests and tools. */
import type { Address, Hex } from 'viem'
import type { ProtocolFixtures } from './protocols.ts'
import type { SafeAttacks } from './safeAttacks.ts'
import type { SafeContracts } from './safeDeployment.ts'

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
  /** Safe v1.4.1 at its canonical addresses (the ones @safe-global/safe-deployments lists for every chain). */
  safeContracts: SafeContracts
  /** The attacker's contracts for Safe takeover scenarios. */
  safeAttacks: SafeAttacks
  /**
   * Contracts controlled as protocols are (DevControl.sol): a vault `vaultOwner` (account 0) owns, and a transparent
   * proxy running `logic`, upgraded through `proxyAdmin`, which the Safe owns; `nextLogic` is code to upgrade it to.
   */
  controlled: {
    vault: Address
    vaultOwner: Address
    proxy: Address
    proxyAdmin: Address
    logic: Address
    nextLogic: Address
  }
  deployer: Address
  startupMs: number
} & Omit<ProtocolFixtures, 'erc20' | 'weth'>
