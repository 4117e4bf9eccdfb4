/** Movements as a simulation reports them (assetEvents.ts), for tests of the rules that read them. */
import type { Address } from 'viem'
import type { Movement } from '../../src/engine/simulation/index.ts'

/** `amount` wei of the native currency from `from` to `to`. */
export const etherMovement = (from: Address, to: Address, amount: bigint): Movement => ({
  asset: { standard: 'NATIVE' },
  from,
  to,
  amount,
})

/** `amount` base units of the ERC-20 at `token` from `from` to `to`. */
export const tokenMovement = (token: Address, from: Address, to: Address, amount: bigint): Movement => ({
  asset: { standard: 'ERC20', token },
  from,
  to,
  amount,
})
