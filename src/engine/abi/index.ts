/**
 * # abi — the ABIs the engine knows, and decoding with them
 *
 * Token standards (ERC-20, ERC-721, ERC-1155), WETH, Safe, MultiSend, SignMessageLib, CoW's settlement, Permit2 and
 * the delegation of lending positions (Aave's credit delegation, Compound III's managers), Across's bridge deposits,
 * the OP Stack's standard bridge and portal.
 *
 * - `abis.ts`: the ABIs themselves, for decoding and for the simulation's reads.
 * - `abiIndex.ts`: their functions and events indexed by selector once, which keeps decoding cheap.
 * - `decode.ts`: decodedCalldata and decodedLogs in the reference shapes, and calldata for the engine's own checks
 *   (decodeKnownFunction, addressesInArguments).
 * - `text.ts`: bytes as printable text, when they are.
 * - `revert.ts`: revert data as a reason a person can read: Error(string), Panic, OpenZeppelin errors, Safe's GS0xx
 *   codes.
 */

export { functionDecoder } from './abiIndex.ts'
export {
  accountExecuteAbi,
  acrossSpokePoolAbi,
  contractControlAbi,
  cowSettlementAbi,
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  lendingDelegationAbi,
  multiSendAbi,
  opStackBridgeAbi,
  safeAbi,
  safeAllowanceModuleAbi,
  signMessageLibAbi,
  wethAbi,
} from './abis.ts'
export {
  addressesInArguments,
  type DecodedFunction,
  decodeCalldata,
  decodeKnownFunction,
  decodeLog,
  serialize,
} from './decode.ts'
export { decodeRevert } from './revert.ts'
export { printableText, reorders, reordersText } from './text.ts'
