/** NFT metadata of state changes: the token URI the contract reported in the simulation's before-block, never fetched. */
import type { Address } from 'viem'
import type { NftMetadata } from '../api/index.ts'
import { type ReadResults, readKeys } from '../simulation/index.ts'

/**
 * Longest URI passed on. Plain and ipfs:// URIs are far shorter; a longer answer is an inline data: document (or a
 * hostile contract padding the response) that no client should receive as an "image URL".
 */
const MAX_URI_LENGTH = 2048

/**
 * Schemes a URI may have to be passed on: content-addressed (ipfs:, ar:), https:, inline raster images and inline JSON
 * metadata. Anything else (javascript:, data:text/html, SVG, which may hold scripts) is a contract's attempt on the
 * client that would open or embed it, never an image.
 */
const ALLOWED_URI = /^(?:ipfs:|ar:|https:|data:image\/(?:png|gif|webp|jpeg)[;,]|data:application\/json[;,])/i

/** Characters no URI holds: controls, and format characters that hide text or reverse its direction. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/u

/**
 * Metadata of one NFT: its token URI, '' when the URI was not read, the contract gave none, or it is not one of the
 * allowed schemes (ALLOWED_URI).
 */
export function nftMetadata(
  standard: 'ERC721' | 'ERC1155',
  token: Address,
  tokenId: bigint,
  reads: ReadResults,
): NftMetadata {
  const key = standard === 'ERC721' ? readKeys.tokenUri(token, tokenId) : readKeys.erc1155Uri(token, tokenId)
  const uri = reads.before.get(key)
  if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH || !ALLOWED_URI.test(uri) || UNPRINTABLE.test(uri)) {
    return { rawImageUrl: '' }
  }
  return { rawImageUrl: standard === 'ERC1155' ? substituteId(uri, tokenId) : uri }
}

/** ERC-1155 URI templates name the token as `{id}`: 64 lowercase hex digits, zero-padded, without 0x (EIP-1155). */
export function substituteId(template: string, tokenId: bigint): string {
  return template.replaceAll('{id}', tokenId.toString(16).padStart(64, '0'))
}
