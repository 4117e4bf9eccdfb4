/** Signing Safe transactions as the devnet Safe's owners do, for tests that execute them for real. */
import { concat, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { SAFE_TX_TYPES } from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import type { SafeTx } from '../../src/engine/index.ts'

/** Owners 0 and 1 sign `tx` (EIP-712, as their wallets would), concatenated by owner address as the Safe requires. */
export async function ownerSignatures(fixtures: Fixtures, tx: SafeTx): Promise<Hex> {
  const signers = fixtures.accounts.slice(0, 2).sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
  const signed: Hex[] = []
  for (const { privateKey } of signers) {
    signed.push(
      await privateKeyToAccount(privateKey).signTypedData({
        domain: { chainId: fixtures.chainId, verifyingContract: fixtures.safe.address },
        types: { SafeTx: SAFE_TX_TYPES.SafeTx },
        primaryType: 'SafeTx',
        message: tx,
      }),
    )
  }
  return concat(signed)
}
