/** The devnet Safe as tests drive it: its owners' signatures, proposals scanned as owner 1 signs them, clients. */
import { concat, createPublicClient, createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { SAFE_TX_TYPES, safeTxTypedData } from '../../src/devnet/eip712.ts'
import type { Fixtures } from '../../src/devnet/fixtures.ts'
import type { SafeTx, ScanMessageResponse } from '../../src/engine/index.ts'
import { messageResponseValidator, scanOk } from './messageSupport.ts'

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

/** A devnet client that reads and waits (polling fast), and one that signs as dev account `index` with its key. */
export function devnetClients(fx: () => Fixtures) {
  return {
    chain: () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 }),
    wallet: (index: number) =>
      createWalletClient({
        chain: foundry,
        transport: http(fx().rpcUrl),
        account: privateKeyToAccount(fx().accounts[index]?.privateKey as Hex),
      }),
  }
}

let validate: ((body: unknown) => string[]) | undefined

/** The scan of `tx` proposed to owner 1 as typed data from Safe{Wallet}, checked against the reference's schema. */
export async function scanSafeProposal(fixtures: Fixtures, tx: SafeTx): Promise<ScanMessageResponse> {
  const { response } = await scanOk(
    {
      message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fixtures.chainId, fixtures.safe.address, tx) },
      userAccount: fixtures.accounts[1]?.address,
      metadata: { origin: 'https://app.safe.global' },
    },
    fixtures.rpcUrl,
  )
  validate ??= messageResponseValidator()
  const problems = validate(response)
  if (problems.length > 0) throw new Error(`the response breaks the reference schema: ${problems.join('; ')}`)
  return response
}

/**
 * Delegate-called by a Safe: swaps its singleton only when the threshold (slot 4) is above 1, i.e. only outside a
 * simulation that sets it to 1.
 */
export const THRESHOLD_BOMB = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract ThresholdBomb {
    function migrate(address singleton) external {
        uint256 threshold;
        assembly { threshold := sload(4) }
        if (threshold > 1) {
            assembly { sstore(0, singleton) }
        }
    }
}
`
