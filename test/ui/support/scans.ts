/**
 * Pending requests with hand-made scan answers, for view-model tests that need a shape no devnet scenario gives
 * cheaply (forty airdropped items, a revert, an unreadable message). The shapes are the engine's wire shapes.
 */
import type { PerTransactionError, ScanMessageResponse, StateChange, Warning } from '../../../src/engine/index.ts'
import type { PendingRequest } from '../../../src/extension/shared/pending.ts'

export const USER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
export const OTHER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906'

const request = (method: PendingRequest['method'], scan: PendingRequest['scan']): PendingRequest => ({
  id: 'test',
  origin: 'https://app.example.org',
  tabId: 1,
  frameId: 0,
  chainId: 31337,
  account: USER,
  method,
  params: [],
  createdAt: 0,
  scan,
})

/** A transaction scan whose user changes are `changes`, with `error` on its one transaction. */
export function transactionRequest(
  changes: StateChange[],
  options: { action?: 'NONE' | 'WARN' | 'BLOCK'; warnings?: Warning[]; error?: PerTransactionError } = {},
): PendingRequest {
  return request('eth_sendTransaction', {
    status: 'DONE',
    kind: 'transactions',
    response: {
      requestId: 'r',
      action: options.action ?? 'NONE',
      warnings: options.warnings ?? [],
      simulationResults: {
        aggregated: { error: null, expectedStateChanges: changes.length ? { [USER]: changes } : {}, userAccount: USER },
        perTransaction: [
          {
            error: options.error ?? null,
            gas: { gasLimit: '21000' },
            protocol: null,
            logs: [],
            decodedLogs: [],
            decodedCalldata: null,
          },
        ],
      },
    },
  })
}

/** A message scan with these results. */
export function messageRequest(
  method: PendingRequest['method'],
  results: Partial<ScanMessageResponse['simulationResults']>,
  options: { action?: 'NONE' | 'WARN' | 'BLOCK'; warnings?: Warning[] } = {},
): PendingRequest {
  return request(method, {
    status: 'DONE',
    kind: 'message',
    response: {
      requestId: 'r',
      action: options.action ?? 'NONE',
      warnings: options.warnings ?? [],
      simulationResults: { error: null, expectedStateChanges: [], protocol: null, ...results },
    },
  })
}

/** `amount` wei of ETH leaving the user (negative) or reaching it. */
export function ethChange(amount: bigint): StateChange {
  const before = 10n ** 22n
  return {
    humanReadableDiff: amount < 0n ? 'Send ETH' : 'Receive ETH',
    rawInfo: {
      kind: 'NATIVE_ASSET_TRANSFER',
      data: {
        amount: { before: before.toString(), after: (before + amount).toString() },
        counterparty: { address: OTHER, kind: 'ACCOUNT' },
        asset: {
          address: '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
          symbol: 'ETH',
          name: 'Ether',
          decimals: 18,
          verified: true,
          imageUrl: null,
          price: null,
        },
      },
    },
  }
}

/** One ERC-1155 item of collection number `index` arriving from an airdropper. */
export function airdroppedItem(index: number): StateChange {
  return {
    humanReadableDiff: `Receive 1 Airdrop Pass ${index}`,
    rawInfo: {
      kind: 'ERC1155_TRANSFER',
      data: {
        amount: { before: '0', after: '1' },
        metadata: { rawImageUrl: '' },
        tokenId: String(index),
        counterparty: { address: OTHER, kind: 'ACCOUNT' },
        asset: {
          address: `0x${index.toString(16).padStart(40, '0')}`,
          name: `Airdrop Pass ${index}`,
          price: null,
        },
      },
    },
  }
}
