/**
 * Hyperliquid's signed sends: `usdSend`, `withdraw3`, `spotSend` and `sendAsset` are EIP-712 messages its own chain
 * executes once its API receives them, moving the signer's Hyperliquid funds to the destination they name (another
 * Hyperliquid account, or an address on Arbitrum for a withdrawal). Nothing on the wallet's chain moves, so only the
 * fields can say where the funds go; a send to the signer's own address (a withdrawal home) raises nothing.
 */
import { type Address, isAddress, isAddressEqual } from 'viem'
import type { Warning } from '../api/index.ts'
import { shortAddress } from '../assets/index.ts'
import { makeWarning } from '../risk/index.ts'
import { structSignature, type TypedData } from './typedData.ts'

/** What a send moves and where: the amount as Hyperliquid writes it ("1.5"), the token's name, the destination. */
export type HyperliquidSend = { amount: string; token: string; destination: string }

/** usdSend and withdraw3 move USDC and share their fields; spotSend names its token as "NAME:0xtokenId". */
const USD_SEND = 'string hyperliquidChain,string destination,string amount,uint64 time'
const SPOT_SEND = 'string hyperliquidChain,string destination,string token,string amount,uint64 time'
const SEND_ASSET =
  'string hyperliquidChain,string destination,string sourceDex,string destinationDex,string token,string amount,' +
  'string fromSubAccount,uint64 nonce'

/** The Hyperliquid send a payload signs, or null when it is none. */
export function findHyperliquidSend(typedData: TypedData): HyperliquidSend | null {
  const shape = structSignature(typedData.types, typedData.primaryType)
  if (shape !== USD_SEND && shape !== SPOT_SEND && shape !== SEND_ASSET) return null
  // Every field these shapes read is an EIP-712 string.
  const { amount, token, destination } = typedData.message as Record<string, string>
  return {
    amount: amount as string,
    token: shape === USD_SEND ? 'USDC' : ((token as string).split(':')[0] as string),
    destination: destination as string,
  }
}

/** TRADE_PROCEEDS_TO_OTHER_ADDRESS (WARNING) when the send pays anyone but the signer, named with what it moves. */
export function hyperliquidSendWarnings(send: HyperliquidSend, signer: Address): Warning[] {
  const address = isAddress(send.destination, { strict: false }) ? (send.destination as Address) : null
  if (address && isAddressEqual(address, signer)) return []
  const who = address ? shortAddress(address) : `"${send.destination}"`
  return [
    makeWarning(
      'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
      'WARNING',
      `This signature sends ${send.amount} ${send.token} of your Hyperliquid account to ${who}, not to you, as soon ` +
        'as Hyperliquid receives it: it is no transaction of this chain, so Preflight cannot simulate it. Sign it only ' +
        `if you mean to pay ${who}.`,
      { venue: 'Hyperliquid', destination: send.destination, amount: send.amount, token: send.token },
    ),
  ]
}
