/**
 * Validates a message scan request (seed §2.3). The envelope (message kind, userAccount, metadata) must be right or the
 * scan cannot start; the typed-data payload itself is checked by messages/typedData.ts and reported inside the
 * response.
 */
import { type Address, type InvalidRequest, invalid, isRecord, parseAddress, parseOrigin } from '../api/index.ts'

/** Raw messages longer than this are refused: no wallet shows a megabyte of text to sign. */
const MAX_RAW_MESSAGE_CHARS = 1_000_000

export type MessageScanInput = {
  userAccount: Address
  origin: string
  message: { kind: 'SIGN_TYPED_DATA'; data: unknown } | { kind: 'SIGN_MESSAGE' | 'PERSONAL_SIGN'; rawMessage: string }
}

type Result = { ok: true; value: MessageScanInput } | { ok: false; error: InvalidRequest }

/** Checks the request envelope; the first problem found is returned, naming the field. */
export function parseMessageRequest(request: unknown): Result {
  if (!isRecord(request)) return invalid('request', 'must be a JSON object with message, userAccount and metadata')
  const { message } = request
  if (!isRecord(message)) return invalid('message', 'must be an object with kind and data (or rawMessage)')
  const userAccount = parseAddress(request.userAccount, 'userAccount')
  if (!userAccount.ok) return userAccount
  if (!isRecord(request.metadata)) return invalid('metadata', 'must be an object with the origin of the request')
  const origin = parseOrigin(request.metadata.origin, 'metadata.origin')
  if (!origin.ok) return origin
  const base = { userAccount: userAccount.value, origin: origin.value }
  if (message.kind === 'SIGN_TYPED_DATA') {
    // eth_signTypedData_v4 carries the payload as a JSON string; the scan API carries it as an object. Take both.
    const data = typeof message.data === 'string' ? parseJson(message.data) : message.data
    return { ok: true, value: { ...base, message: { kind: 'SIGN_TYPED_DATA', data } } }
  }
  if (message.kind === 'SIGN_MESSAGE' || message.kind === 'PERSONAL_SIGN') {
    const { rawMessage } = message
    if (typeof rawMessage !== 'string') {
      return invalid('message.rawMessage', 'must be the message as a string (0x-hex bytes or text)')
    }
    if (rawMessage.length > MAX_RAW_MESSAGE_CHARS) {
      return invalid('message.rawMessage', `has ${rawMessage.length} characters; at most ${MAX_RAW_MESSAGE_CHARS}`)
    }
    return { ok: true, value: { ...base, message: { kind: message.kind, rawMessage } } }
  }
  return invalid(
    'message.kind',
    `must be SIGN_TYPED_DATA, SIGN_MESSAGE or PERSONAL_SIGN, got ${JSON.stringify(message.kind)}`,
  )
}

/** The parsed JSON, or the original string (which then fails typed-data validation with a clear error). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
