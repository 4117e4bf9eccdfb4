/**
 * Response shapes of the scan API (seed spec §2.4–§2.7, response version 2023-06-05; enumerations from the reference
 * OpenAPI). Field names are exact. Addresses in responses are lowercase hex; amounts are decimal strings in base units.
 */

export type Hex = `0x${string}`
export type Address = `0x${string}`

// ── Shared response parts ──────────────────────────────────────────────────────────────────────────────────────

export type Action = 'NONE' | 'WARN' | 'BLOCK'

export type Severity = 'WARNING' | 'CRITICAL'

export type WarningKind =
  | 'APPROVAL_TO_EOA'
  | 'BLOCKLISTED_DOMAIN_CROSS_ORIGIN'
  | 'BLUR_BULK_ORDER_NOT_ON_BLUR'
  | 'BLUR_V2_ORDER_NOT_ON_BLUR'
  | 'BULK_APPROVALS_REQUEST'
  | 'COPY_CAT_DOMAIN'
  | 'DANGLING_APPROVAL'
  | 'ETH_SIGN_TX_HASH'
  | 'IMBALANCED_DOLLAR_VALUE'
  | 'KNOWN_MALICIOUS'
  | 'PERMIT_NO_EXPIRATION'
  | 'PERMIT_UNLIMITED_ALLOWANCE'
  | 'POISONED_ADDRESS'
  | 'SET_OWNER_AUTHORITY'
  | 'SUSPECTED_MALICIOUS'
  | 'TOO_MANY_TRANSACTIONS'
  | 'TRADE_FOR_NOTHING'
  | 'TRADE_FOR_UNVERIFIED_NFT'
  | 'TRANSFERRING_ERC20_TO_OWN_CONTRACT'
  | 'TRUSTED_BLOCKLIST_DOMAIN'
  | 'UNLIMITED_ALLOWANCE_TO_NFTS'
  | 'UNUSUAL_GAS_CONSUMPTION'
  | 'USER_ACCOUNT_OWNER_CHANGE'
  | 'RELIABLE_SIMULATION_NOT_POSSIBLE'
  // Preflight's own kinds for multisig messages; the reference lets clients fall back to `message` for unknown kinds.
  | 'MULTISIG_SIGNER_NOT_OWNER'
  | 'MULTISIG_CHAIN_MISMATCH'
  | 'MULTISIG_NONCE_USED'
  | 'MULTISIG_HASH_MISMATCH'
  // Preflight's own: a Safe signs or approves something known to the request only by its hash (EIP-1271, approveHash).
  | 'MULTISIG_BLIND_SIGNATURE'
  // Preflight's own: a Safe transaction that pays its executor (or a named receiver) a gas refund out of the Safe.
  | 'MULTISIG_GAS_REFUND'
  // Preflight's own: an address in typed data written in another form than 0x-hex (decimal, no 0x, bad checksum…).
  | 'NON_CANONICAL_ADDRESS'
  // Preflight's own: an unlimited token allowance to a contract that is no known protocol.
  | 'UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER'
  // Preflight's own: a swap order that sells the user's tokens and pays another address.
  | 'TRADE_PROCEEDS_TO_OTHER_ADDRESS'
  // Preflight's own: a lending position handed to a contract (Aave credit delegation, a Compound III manager).
  | 'LENDING_POSITION_DELEGATION'
  // Preflight's own: a Sign-In with Ethereum message for another site than the one asking, or naming another account.
  | 'SIGN_IN_DOMAIN_MISMATCH'
  | 'SIGN_IN_ACCOUNT_MISMATCH'
  // Preflight's own: a token the user buys that the simulation cannot sell back to its pool, or only at a heavy tax.
  | 'TOKEN_CANNOT_BE_SOLD'
  // Preflight's own: transactions that leave the user worse off run as a block runs them than in the simulation.
  | 'SIMULATION_EVASION'
  // Preflight's own, added by the extension (a scan API request carries no nonce): a nonce the site fixed that a mined
  // transaction took, that replaces one still waiting, or that waits behind transactions not yet sent.
  | 'TRANSACTION_NONCE_USED'
  | 'TRANSACTION_REPLACES_PENDING'
  | 'TRANSACTION_RUNS_LATER'

/** Seed §2.7. `data` is a string or null in the reference files; the seed allows an object. */
export type Warning = {
  kind: WarningKind
  message: string
  severity: Severity
  data: string | Record<string, unknown> | null
}

export type AccountKind = 'ACCOUNT'
export type AddressInfo = { address: Address; kind: AccountKind }

export type Amount = { before: string; after: string }

export type AssetPrice = {
  /** Preflight reads prices on-chain: 'Chainlink' feeds and 'UniswapV3' TWAPs (the seed types `source` as a string). */
  source: 'Chainlink' | 'UniswapV3' | 'Simplehash' | 'Defillama' | 'Coingecko'
  updatedAt: number
  dollarValuePerToken: number
}

export type TokenList =
  | 'COINGECKO'
  | 'ZERION'
  | 'ONE_INCH'
  | 'UNISWAP'
  | 'MY_CRYPTO_API'
  | 'KLEROS_TOKENS'
  | 'POLYGON_POPULAR_TOKENS'
  | 'EVM_NATIVE'
  | 'BLOWFISH'

/** Native currency is the all-`e` address (seed §2.6). */
export const NATIVE_ASSET_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' as const

export type NativeAsset = {
  address: typeof NATIVE_ASSET_ADDRESS
  symbol: string
  name: string
  decimals: number
  verified: true
  imageUrl: string | null
  price: AssetPrice | null
  lists?: TokenList[]
}

export type Erc20Asset = {
  address: Address
  symbol: string
  name: string
  decimals: number
  verified: boolean
  lists: TokenList[]
  imageUrl: string | null
  price: AssetPrice | null
}

export type Erc721Asset = {
  address: Address
  symbol: string
  name: string
  collection: string
  price: AssetPrice | null
}

export type Erc1155Asset = { address: Address; name: string; price: AssetPrice | null }

export type NftMetadata = { rawImageUrl: string }

/**
 * Preflight extension on approval and permit state changes: what the spender could move at once, min(allowance, the
 * owner's current balance), in base units (NFT approvals: items), and in dollars where the asset's price is known.
 */
export type CanTakeNow = { amount: string; dollarValue: number | null }

// ── State changes (seed §2.6) ───────────────────────────────────────────────────────────────────────────────────

export type NativeAssetTransferChange = {
  kind: 'NATIVE_ASSET_TRANSFER'
  /** `counterparty` is null when unknown (ether a SELFDESTRUCT forwards): the reference requires the key (2023-06-05). */
  data: { amount: Amount; counterparty?: AddressInfo | null; contract?: AddressInfo; asset: NativeAsset }
}
export type Erc20TransferChange = {
  kind: 'ERC20_TRANSFER'
  data: { amount: Amount; counterparty?: AddressInfo; contract?: AddressInfo; asset: Erc20Asset }
}
export type Erc20ApprovalChange = {
  kind: 'ERC20_APPROVAL'
  data: { owner: AddressInfo; spender: AddressInfo; amount: Amount; asset: Erc20Asset; canTakeNow?: CanTakeNow }
}
export type Erc20PermitChange = {
  kind: 'ERC20_PERMIT'
  data: {
    contract: AddressInfo
    owner: AddressInfo
    spender: AddressInfo
    amount: string
    nonce: string
    deadline: number | null
    asset: Erc20Asset
    canTakeNow?: CanTakeNow
  }
}
export type Erc721TransferChange = {
  kind: 'ERC721_TRANSFER'
  data: {
    amount: Amount
    /** Null for a mint or a burn (the zero address's side), which the reference still requires the key for. */
    counterparty?: AddressInfo | null
    contract?: AddressInfo
    metadata: NftMetadata
    tokenId: string | null
    asset: Erc721Asset
    /** Message scans also carry the collection's name, symbol and price beside `asset` (reference message shape). */
    name?: string
    symbol?: string
    assetPrice?: AssetPrice | null
  }
}
export type Erc721ApprovalChange = {
  kind: 'ERC721_APPROVAL'
  data: {
    amount: Amount
    metadata: NftMetadata
    owner: AddressInfo
    spender: AddressInfo
    tokenId: string | null
    asset: Erc721Asset
  }
}
export type Erc721ApprovalForAllChange = {
  kind: 'ERC721_APPROVAL_FOR_ALL'
  data: { amount: Amount; owner: AddressInfo; spender: AddressInfo; asset: Erc721Asset; canTakeNow?: CanTakeNow }
}
export type Erc1155TransferChange = {
  kind: 'ERC1155_TRANSFER'
  data: {
    amount: Amount
    metadata: NftMetadata
    tokenId: string | null
    counterparty?: AddressInfo
    contract?: AddressInfo
    asset: Erc1155Asset
    /** Message scans also carry the collection's name and price beside `asset` (reference message shape). */
    name?: string
    assetPrice?: AssetPrice | null
  }
}
export type Erc1155ApprovalForAllChange = {
  kind: 'ERC1155_APPROVAL_FOR_ALL'
  data: { amount: Amount; owner: AddressInfo; spender: AddressInfo; asset: Erc1155Asset }
}

/** The field of a Safe's configuration a SAFE_CONFIGURATION_CHANGE is about. */
export type SafeConfigurationField =
  | 'singleton'
  | 'owners'
  | 'threshold'
  | 'nonce'
  | 'modules'
  | 'guard'
  | 'moduleGuard'
  | 'fallbackHandler'

/**
 * Preflight's own kind (not in the reference files): one field of a Safe's configuration the transactions change,
 * read from the simulation before and after. Addresses are lowercase; owners and modules are lists; threshold and
 * nonce are decimal strings. Sent from API version 2023-06-05 on; older versions leave it out (the warnings remain).
 */
export type SafeConfigurationChange = {
  kind: 'SAFE_CONFIGURATION_CHANGE'
  data: {
    contract: AddressInfo
    field: SafeConfigurationField
    before: string | string[]
    after: string | string[]
  }
}

export type RawInfo =
  | NativeAssetTransferChange
  | Erc20TransferChange
  | Erc20ApprovalChange
  | Erc20PermitChange
  | Erc721TransferChange
  | Erc721ApprovalChange
  | Erc721ApprovalForAllChange
  | Erc1155TransferChange
  | Erc1155ApprovalForAllChange
  | SafeConfigurationChange

export type StateChange = { humanReadableDiff: string; rawInfo: RawInfo }

// ── Transaction scan response (seed §2.4, §7) ──────────────────────────────────────────────────────────────────

export type AggregatedError =
  | { kind: 'SIMULATION_FAILED'; humanReadableError: string; reason: string }
  | { kind: 'SIMULATION_TIMED_OUT'; humanReadableError: string }
  | { kind: 'UNKNOWN_ERROR'; humanReadableError: string }

export type PerTransactionError =
  | { kind: 'TRANSACTION_REVERTED'; humanReadableError: string; revertReason: string }
  | { kind: 'TRANSACTION_ERROR'; humanReadableError: string; errorType: string }

export type Log = { address: Address; topics: Hex[]; data: Hex }

/** ABI values serialised as strings, arrays of strings, or nested arrays (tuples). */
export type SerializedValue = string | SerializedValue[]

export type DecodedCalldata = {
  kind: 'FUNCTION'
  data: {
    contract: Address
    functionName: string
    arguments: { name: string; paramType: string; value: SerializedValue }[]
  }
} | null

export type DecodedLog = {
  name: string
  signature: string
  params: { name: string; paramType: string; value: SerializedValue }[]
} | null

export type Protocol = {
  trustLevel: 'KNOWN' | 'TRUSTED' | 'NATIVE'
  name: string
  description: string
  imageUrl: string | null
  websiteUrl: string
} | null

export type PerTransactionResult = {
  error: PerTransactionError | null
  gas: { gasLimit: string | null }
  protocol: Protocol
  logs: Log[]
  decodedLogs: DecodedLog[]
  decodedCalldata: DecodedCalldata
}

export type ScanTransactionsResponse = {
  requestId: string
  action: Action
  warnings: Warning[]
  simulationResults: {
    aggregated: {
      error: AggregatedError | null
      expectedStateChanges: Record<Address, StateChange[]>
      userAccount: Address
    }
    perTransaction: PerTransactionResult[]
  }
}

// ── Message scan response (seed §2.5) ──────────────────────────────────────────────────────────────────────────

export type MessageError = {
  kind: 'UNSUPPORTED_ORDER_TYPE' | 'UNKNOWN_ERROR' | 'UNSUPPORTED_MESSAGE' | 'INVALID_MESSAGE' | 'SIMULATION_FAILED'
  humanReadableError: string
}

/** Context of a multisig (Safe) transaction message: what a signer should compare with their hardware wallet. */
export type MultisigContext = {
  wallet: Address
  version: string
  owners: Address[]
  threshold: number
  currentNonce: string
  messageNonce: string
  safeTxHash: Hex
  domainHash: Hex
  messageHash: Hex
}

/** Context of a Safe message (EIP-1271): what the Safe would sign in its own name, and the hashes to compare. */
export type SafeMessageContext = {
  wallet: Address
  version: string
  owners: Address[]
  threshold: number
  /** The bytes the Safe signs: for a dapp's request, the 32-byte hash of its message, which hides what it says. */
  message: Hex
  /** The bytes as text, when they are printable UTF-8 rather than a hash. */
  text: string | null
  /** The EIP-712 hash the owners sign and the Safe checks (its getMessageHash). */
  safeMessageHash: Hex
  domainHash: Hex
  messageHash: Hex
}

export type ScanMessageResponse = {
  requestId: string
  action: Action
  warnings: Warning[]
  simulationResults: {
    error: MessageError | null
    expectedStateChanges: StateChange[]
    protocol: Protocol
    /** Preflight extension: present for a multisig transaction message. */
    multisig?: MultisigContext
    /** Preflight extension: present for a Safe message (SafeMessage typed data). */
    safeMessage?: SafeMessageContext
    /** Preflight extension: present for a multisig transaction message, the simulated execTransaction. */
    perTransaction?: PerTransactionResult[]
    /** Preflight extension: the decoded primary-type fields of any typed-data message, for display. */
    decodedMessage?: { primaryType: string; fields: { name: string; type: string; value: SerializedValue }[] }
    /**
     * Preflight extension: whose assets the changes are, when not the signer's own: the smart account a user operation
     * runs on, the `from` of a request a relayer submits.
     */
    account?: Address
  }
}
