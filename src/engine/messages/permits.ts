/**
 * Token permits in typed data: EIP-2612, DAI-style, Permit2 (allowance and signature transfer), EIP-3009 transfer
 * authorizations (USDC's signed transfers) and ERC-721 permits.
 * Recognised by the shape of the primary type, so a renamed type with the same fields is still caught, and turned into
 * what the signature grants plus the warnings that grant deserves.
 */
import { type Hex, maxUint256 } from 'viem'
import type { Address, Erc20Asset, StateChange, Warning } from '../api/index.ts'
import {
  type ApprovalChange,
  addressInfo,
  canTakeNow,
  formatAmount,
  isUnlimited,
  shortAddress,
  type TransferChange,
} from '../assets/index.ts'
import { makeWarning, uniqueWarnings } from '../risk/index.ts'
import {
  codeSizeRead,
  erc20BalanceRead,
  type MetadataNeeded,
  type Read,
  tokenMetadataReads,
  tokenUriRead,
  totalSupplyRead,
} from '../simulation/index.ts'
import { structSignature, type TypedData, type TypedStruct } from './typedData.ts'

type PermitStandard = 'EIP2612' | 'DAI' | 'PERMIT2_ALLOWANCE' | 'PERMIT2_TRANSFER' | 'EIP3009'

/** What one signed token permit lets `spender` do with `owner`'s `token`. */
export type TokenPermit = {
  standard: PermitStandard
  token: Address
  owner: Address
  spender: Address
  amount: bigint
  nonce: bigint
  /** Unix seconds after which the permission (or for one-shot permits, the signature) is void; null: never. */
  expiresAt: bigint | null
}

/** An ERC-721 permit (Uniswap V3 positions style): `spender` may take token `tokenId` of `token`. */
export type NftPermit = {
  token: Address
  owner: Address
  spender: Address
  tokenId: bigint
  nonce: bigint
  deadline: bigint
}

/** What the chain says about the parties of a permit, read in one call before the warnings are decided. */
export type PermitContext = {
  /** Current time in Unix seconds. */
  now: number
  /** Whether each spender (lowercase) has contract code. */
  spenderHasCode: (spender: Address) => boolean
  /** The token's total supply, when it could be read. */
  totalSupply: (token: Address) => bigint | null
  /** How the token is named in warning text, e.g. "USDC". */
  symbol: (token: Address) => string
  /** The owner's current balance of the token, when it could be read. */
  balance: (token: Address, owner: Address) => bigint | null
}

/** A permit valid for more than ten years is, for the user, a permit that never expires. */
const NO_EXPIRATION_SECONDS = 10n * 365n * 24n * 60n * 60n

const EIP2612 = 'address owner,address spender,uint256 value,uint256 nonce,uint256 deadline'
const DAI = 'address holder,address spender,uint256 nonce,uint256 expiry,bool allowed'
const PERMIT_DETAILS = 'address token,uint160 amount,uint48 expiration,uint48 nonce'
const PERMIT_SINGLE = 'PermitDetails details,address spender,uint256 sigDeadline'
const PERMIT_BATCH = 'PermitDetails[] details,address spender,uint256 sigDeadline'
const TOKEN_PERMISSIONS = 'address token,uint256 amount'
const TRANSFER_FIELDS = 'address spender,uint256 nonce,uint256 deadline'
const PERMIT_TRANSFER = `TokenPermissions permitted,${TRANSFER_FIELDS}`
const PERMIT_BATCH_TRANSFER = `TokenPermissions[] permitted,${TRANSFER_FIELDS}`
const NFT_PERMIT = 'address spender,uint256 tokenId,uint256 nonce,uint256 deadline'
/**
 * EIP-3009 `TransferWithAuthorization` (anyone may submit it) and `ReceiveWithAuthorization` (only `to` may): the
 * token moves `value` from `from` to `to` once submitted, between `validAfter` and `validBefore`.
 */
const EIP3009 = 'address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce'

/** The token permits a payload grants (one per token for batches); empty when it is not a token permit. */
export function findTokenPermits(typedData: TypedData, signer: Address): TokenPermit[] {
  const { types, primaryType, message, domain } = typedData
  const shape = structSignature(types, primaryType)
  const verifyingContract = domain.verifyingContract as Address | undefined
  if (shape === EIP2612 && verifyingContract) {
    return [
      {
        standard: 'EIP2612',
        token: verifyingContract,
        owner: message.owner as Address,
        spender: message.spender as Address,
        amount: message.value as bigint,
        nonce: message.nonce as bigint,
        expiresAt: message.deadline as bigint,
      },
    ]
  }
  if (shape === EIP3009 && verifyingContract) {
    return [
      {
        standard: 'EIP3009',
        token: verifyingContract,
        owner: message.from as Address,
        spender: message.to as Address,
        amount: message.value as bigint,
        nonce: BigInt(message.nonce as Hex),
        expiresAt: message.validBefore as bigint,
      },
    ]
  }
  if (shape === DAI && verifyingContract) {
    const expiry = message.expiry as bigint
    return [
      {
        standard: 'DAI',
        token: verifyingContract,
        owner: message.holder as Address,
        spender: message.spender as Address,
        amount: message.allowed ? maxUint256 : 0n,
        nonce: message.nonce as bigint,
        expiresAt: expiry === 0n ? null : expiry,
      },
    ]
  }
  if (
    structSignature(types, 'PermitDetails') === PERMIT_DETAILS &&
    (shape === PERMIT_SINGLE || shape === PERMIT_BATCH)
  ) {
    const details = shape === PERMIT_SINGLE ? [message.details as TypedStruct] : (message.details as TypedStruct[])
    const sigDeadline = message.sigDeadline as bigint
    return details.map((detail) => {
      const expiration = detail.expiration as bigint
      return {
        standard: 'PERMIT2_ALLOWANCE' as const,
        token: detail.token as Address,
        owner: signer,
        spender: message.spender as Address,
        amount: detail.amount as bigint,
        nonce: detail.nonce as bigint,
        // Permit2 treats expiration 0 as "this block only": the signature deadline is then what bounds it.
        expiresAt: expiration === 0n ? sigDeadline : expiration,
      }
    })
  }
  const isTransfer = shape === PERMIT_TRANSFER || shape.startsWith(`${PERMIT_TRANSFER},`)
  const isBatchTransfer = shape === PERMIT_BATCH_TRANSFER || shape.startsWith(`${PERMIT_BATCH_TRANSFER},`)
  if (structSignature(types, 'TokenPermissions') === TOKEN_PERMISSIONS && (isTransfer || isBatchTransfer)) {
    const permitted = isTransfer ? [message.permitted as TypedStruct] : (message.permitted as TypedStruct[])
    return permitted.map((permission) => ({
      standard: 'PERMIT2_TRANSFER' as const,
      token: permission.token as Address,
      owner: signer,
      spender: message.spender as Address,
      amount: permission.amount as bigint,
      nonce: message.nonce as bigint,
      expiresAt: message.deadline as bigint,
    }))
  }
  return []
}

/** The ERC-721 permit a payload grants, or null when it is not one. */
export function findNftPermit(typedData: TypedData, signer: Address): NftPermit | null {
  const { types, primaryType, message, domain } = typedData
  const token = domain.verifyingContract as Address | undefined
  if (structSignature(types, primaryType) !== NFT_PERMIT || !token) return null
  return {
    token,
    owner: signer,
    spender: message.spender as Address,
    tokenId: message.tokenId as bigint,
    nonce: message.nonce as bigint,
    deadline: message.deadline as bigint,
  }
}

/**
 * Whether an allowance is unlimited in practice: half of max uint160 or more (so max uint160 and max uint256, the
 * rule assets/format.ts applies to approvals), or more than the token's whole supply — no trade needs more than every
 * token in existence, so such an amount limits nothing.
 */
export function isPracticallyUnlimited(amount: bigint, totalSupply: bigint | null): boolean {
  return isUnlimited(amount) || (totalSupply !== null && totalSupply > 0n && amount > totalSupply)
}

/** Whether a permit never expires in practice: no expiry at all, or one more than ten years away. */
export function isPracticallyPermanent(expiresAt: bigint | null, now: number): boolean {
  return expiresAt === null || expiresAt >= BigInt(Math.floor(now)) + NO_EXPIRATION_SECONDS
}

/** The reads permit warnings and state changes need: spender code, token supply, NFT URIs, uncached metadata. */
export function permitReads(permits: TokenPermit[], nftPermits: NftPermit[], metadataNeeded: MetadataNeeded): Read[] {
  const tokens = new Set([...permits, ...nftPermits].map((permit) => permit.token))
  const spenders = new Set([...permits, ...nftPermits].map((permit) => permit.spender))
  return [
    ...[...spenders].map(codeSizeRead),
    ...permits.map((permit) => totalSupplyRead(permit.token)),
    ...permits.map((permit) => erc20BalanceRead(permit.token, permit.owner)),
    ...[...tokens].filter(metadataNeeded).flatMap(tokenMetadataReads),
    ...nftPermits.map((permit) => tokenUriRead(permit.token, permit.tokenId)),
  ]
}

/** The ERC20_PERMIT state change of seed §2.6, with a plain-English summary. */
export function permitStateChange(permit: TokenPermit, asset: Erc20Asset, context: PermitContext): StateChange {
  const unlimited = isPracticallyUnlimited(permit.amount, context.totalSupply(permit.token))
  const permanent = isPracticallyPermanent(permit.expiresAt, context.now)
  const verb = permit.standard === 'PERMIT2_TRANSFER' ? 'transfer' : 'spend'
  const amount = unlimited ? 'unlimited' : `up to ${formatAmount(permit.amount, asset.decimals)}`
  const until = permanent || permit.expiresAt === null ? ', with no expiry' : ` until ${utcTime(permit.expiresAt)}`
  const balance = context.balance(permit.token, permit.owner)
  // An allowance permit of zero (DAI's allowed=false, an EIP-2612 value of 0) sets the allowance to nothing: a revoke.
  const revoked = verb === 'spend' && permit.amount === 0n
  const canTake = revoked ? null : canTakeNow(permit.amount, balance, asset.decimals, asset.price?.dollarValuePerToken)
  return {
    humanReadableDiff: revoked
      ? `Revoke ${shortAddress(permit.spender)}'s approval to spend your ${asset.symbol}`
      : `Permit ${shortAddress(permit.spender)} to ${verb} ${amount} ${asset.symbol}${until}`,
    rawInfo: {
      kind: 'ERC20_PERMIT',
      data: {
        contract: addressInfo(permit.token),
        owner: addressInfo(permit.owner),
        spender: addressInfo(permit.spender),
        amount: permit.amount.toString(),
        nonce: permit.nonce.toString(),
        deadline: deadlineSeconds(permit.expiresAt),
        asset,
        ...(canTake ? { canTakeNow: canTake } : {}),
      },
    },
  }
}

/**
 * An EIP-3009 authorization as the transfer it makes once submitted, for the shared state-change renderer: its value
 * leaves the signer's balance (`balance`, when read) for its recipient.
 */
export function authorizedTransfer(permit: TokenPermit, balance: bigint | null): TransferChange {
  const before = balance !== null && balance >= permit.amount ? balance : permit.amount
  return {
    type: 'transfer',
    account: permit.owner,
    asset: { standard: 'ERC20', token: permit.token },
    before,
    after: before - permit.amount,
    counterparty: permit.spender,
  }
}

/** An NFT permit as the approval it grants once submitted, for the shared state-change renderer. */
export function nftPermitApproval(permit: NftPermit): ApprovalChange {
  return {
    type: 'approval',
    standard: 'ERC721',
    token: permit.token,
    owner: permit.owner,
    spender: permit.spender,
    tokenId: permit.tokenId,
    before: 0n,
    after: 1n,
    granted: 1n,
  }
}

/** The warnings token and NFT permits deserve, each once per token or spender, in plain English. */
export function permitWarnings(permits: TokenPermit[], nftPermits: NftPermit[], context: PermitContext): Warning[] {
  const warnings: Warning[] = []
  // A permit of zero grants nothing (it revokes, or moves nothing): whoever it names and however long it lasts.
  const granting = permits.filter((permit) => permit.amount > 0n)
  for (const permit of granting) {
    const symbol = context.symbol(permit.token)
    const who = shortAddress(permit.spender)
    if (isPracticallyUnlimited(permit.amount, context.totalSupply(permit.token))) {
      warnings.push(
        makeWarning(
          'PERMIT_UNLIMITED_ALLOWANCE',
          'WARNING',
          `This signature lets ${who} take all of your ${symbol}, with no limit, without asking you again. Only sign ` +
            'if you trust it.',
          { spender: permit.spender.toLowerCase(), token: permit.token.toLowerCase() },
        ),
      )
    }
    if (isPracticallyPermanent(permit.expiresAt, context.now)) {
      warnings.push(
        makeWarning(
          'PERMIT_NO_EXPIRATION',
          'WARNING',
          `This ${symbol} permit never expires (or not for more than ten years): ${who} can use it long after you ` +
            'have forgotten it.',
          { spender: permit.spender.toLowerCase(), token: permit.token.toLowerCase() },
        ),
      )
    }
  }
  for (const transfer of granting.filter((permit) => permit.standard === 'EIP3009')) {
    if (!context.spenderHasCode(transfer.spender)) {
      warnings.push(
        makeWarning(
          'APPROVAL_TO_EOA',
          'WARNING',
          `This signature sends your ${context.symbol(transfer.token)} to ${shortAddress(transfer.spender)}, a ` +
            'personal account rather than a contract, as soon as anyone submits it: no transaction of yours is ' +
            'needed. Sign only if you mean to pay this account.',
          { spender: transfer.spender.toLowerCase(), token: transfer.token.toLowerCase() },
        ),
      )
    }
  }
  const approvals = granting.filter((permit) => permit.standard !== 'EIP3009')
  for (const spender of new Set([...approvals, ...nftPermits].map((permit) => permit.spender))) {
    if (!context.spenderHasCode(spender)) {
      warnings.push(
        makeWarning(
          'APPROVAL_TO_EOA',
          'WARNING',
          `You are allowing ${shortAddress(spender)}, a personal account rather than a contract, to take your ` +
            'tokens. Apps spend permitted tokens through contracts; a permit to a person is usually a scam.',
          { spender: spender.toLowerCase() },
        ),
      )
    }
  }
  return uniqueWarnings(warnings)
}

/** Seed §2.6 `deadline`: Unix seconds, or null when there is none or it is too far away to be a number. */
function deadlineSeconds(expiresAt: bigint | null): number | null {
  return expiresAt !== null && expiresAt <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(expiresAt) : null
}

/** "2025-01-31 12:00 UTC". */
function utcTime(seconds: bigint): string {
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
