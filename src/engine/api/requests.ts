/**
 * Request shapes of the scan API (seed spec §2.1–§2.3), as clients send them: field names exact, values still
 * unchecked (amounts as decimal or 0x-hex strings, addresses in any case). The scan validates them field by field.
 */

/**
 * One transaction to simulate (seed §2.1). `value`, `gas` and the fee fields accept decimal or 0x-hex strings. The
 * fee fields are Preflight's addition to the seed's shape: the fee is part of what a person signs, so it is judged.
 */
export type TxObject = {
  from: string
  to?: string | null
  data?: string | null
  value?: string | null
  gas?: string | null
  gasPrice?: string | null
  maxFeePerGas?: string | null
  maxPriorityFeePerGas?: string | null
}

export type RequestMetadata = { origin: string }

/** `MULTISIG_WALLET` per the seed spec; `GNOSIS_SAFE` is the reference files' name for the same preset. */
export type PresetKind = 'MULTISIG_WALLET' | 'GNOSIS_SAFE'

export type SimulatorConfig = {
  blockNumber?: string
  stateOverrides?: {
    nativeBalances?: { address: string; value: string }[]
    storage?: { address: string; slot: string; value: string }[]
  }
  presets?: { kind: PresetKind; walletAddress: string }[]
}

/** Transaction scan request (seed §2.1, §2.2). */
export type ScanTransactionsRequest = {
  txObjects: TxObject[]
  userAccount: string
  metadata: RequestMetadata
  simulatorConfig?: SimulatorConfig
}

export type TypedDataField = { name: string; type: string }

/** EIP-712 payload as dapps send it (seed §2.3); values are validated against their declared types by the engine. */
export type TypedDataPayload = {
  types: Record<string, TypedDataField[]>
  domain: Record<string, unknown>
  primaryType: string
  message: Record<string, unknown>
}

export type MessageKind = 'SIGN_TYPED_DATA' | 'SIGN_MESSAGE' | 'PERSONAL_SIGN'

export type ScanMessage =
  | { kind: 'SIGN_TYPED_DATA'; data: TypedDataPayload }
  | { kind: 'SIGN_MESSAGE' | 'PERSONAL_SIGN'; rawMessage: string }

/** Message scan request (seed §2.3). */
export type ScanMessageRequest = {
  message: ScanMessage
  userAccount: string
  metadata: RequestMetadata
}
