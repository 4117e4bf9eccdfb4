/** Safe transactions and messages signed for real by the devnet's 2-of-3 Safe: owners 0 and 1 sign. */
import { concat, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { execTransactionData } from '../../src/devnet/dapp/requests.ts'
import { SAFE_TX_TYPES } from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import type { SafeTx } from '../../src/engine/index.ts'

/** Owners 0 and 1's signatures by `sign`, sorted by owner address as the Safe requires. */
export async function ownersSign(fixtures: Fixtures, sign: (key: Hex) => Promise<Hex>): Promise<Hex> {
  const signers = fixtures.accounts.slice(0, 2).sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
  const signatures: Hex[] = []
  for (const { privateKey } of signers) signatures.push(await sign(privateKey))
  return concat(signatures)
}

/** The Safe's execTransaction calldata for `tx`, signed by owners 0 and 1: anyone can send it. */
export async function ownersExecution(fixtures: Fixtures, tx: SafeTx): Promise<Hex> {
  const signatures = await ownersSign(fixtures, (key) =>
    privateKeyToAccount(key).signTypedData({
      domain: { chainId: fixtures.chainId, verifyingContract: fixtures.safe.address },
      types: { SafeTx: SAFE_TX_TYPES.SafeTx },
      primaryType: 'SafeTx',
      message: tx,
    }),
  )
  return execTransactionData(tx, signatures)
}
