/** The ABIs the engine knows: token standards, WETH, Safe, MultiSend and Permit2 (for decoding and for reads). */
import { parseAbi } from 'viem'

export const erc20Abi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
  'function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
])

export const erc721Abi = parseAbi([
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function approve(address to, uint256 tokenId)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
])

export const erc1155Abi = parseAbi([
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
  'function uri(uint256 id) view returns (string)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event URI(string value, uint256 indexed id)',
])

export const wethAbi = parseAbi([
  'function deposit() payable',
  'function withdraw(uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
])

export const safeAbi = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function nonce() view returns (uint256)',
  'function VERSION() view returns (string)',
  'function masterCopy() view returns (address)',
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 _nonce) view returns (bytes32)',
  'function approveHash(bytes32 hashToApprove)',
  'function addOwnerWithThreshold(address owner, uint256 _threshold)',
  'function removeOwner(address prevOwner, address owner, uint256 _threshold)',
  'function swapOwner(address prevOwner, address oldOwner, address newOwner)',
  'function changeThreshold(uint256 _threshold)',
  'function enableModule(address module)',
  'function disableModule(address prevModule, address module)',
  'function setGuard(address guard)',
  'function setFallbackHandler(address handler)',
  'function setModuleGuard(address moduleGuard)',
  'function changeMasterCopy(address _masterCopy)',
  'event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)',
  'event SafeReceived(address indexed sender, uint256 value)',
  'event AddedOwner(address indexed owner)',
  'event RemovedOwner(address indexed owner)',
  'event ChangedThreshold(uint256 threshold)',
  'event ApproveHash(bytes32 indexed approvedHash, address indexed owner)',
  'event EnabledModule(address indexed module)',
  'event DisabledModule(address indexed module)',
  'event ChangedGuard(address indexed guard)',
  'event ChangedFallbackHandler(address indexed handler)',
  'event ChangedModuleGuard(address indexed moduleGuard)',
])

export const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

/** Safe's SignMessageLib, delegate-called by a Safe to sign a message on chain (EIP-1271 without owners' signatures). */
export const signMessageLibAbi = parseAbi([
  'function signMessage(bytes _data)',
  'event SignMsg(bytes32 indexed msgHash)',
])

/** CoW Protocol's settlement: an order's owner can sign it on chain, by the order's ID alone. */
export const cowSettlementAbi = parseAbi([
  'function setPreSignature(bytes orderUid, bool signed)',
  'event PreSignature(address indexed owner, bytes orderUid, bool signed)',
])

/**
 * Lending positions handed to another address: Aave V3's credit delegation on a debt token (the delegatee borrows in
 * the delegator's name, against the delegator's collateral) and Compound III's managers (Comet: a manager withdraws,
 * transfers and borrows from the owner's whole account). Both can be given by a signature any relayer submits.
 */
export const lendingDelegationAbi = parseAbi([
  'function approveDelegation(address delegatee, uint256 amount)',
  'function delegationWithSig(address delegator, address delegatee, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function borrowAllowance(address fromUser, address toUser) view returns (uint256)',
  'event BorrowAllowanceDelegated(address indexed fromUser, address indexed toUser, address indexed asset, uint256 amount)',
  'function allow(address manager, bool isAllowed)',
  'function allowBySig(address owner, address manager, bool isAllowed, uint256 nonce, uint256 expiry, uint8 v, bytes32 r, bytes32 s)',
  'function isAllowed(address owner, address manager) view returns (bool)',
])

/**
 * Safe's allowance module, behind Safe{Wallet}'s spending limits: a Safe names delegates and gives each an allowance of
 * a token (the zero address for the native currency), renewed every `resetTimeMin` minutes, which the delegate then
 * takes without any owner's confirmation.
 */
export const safeAllowanceModuleAbi = parseAbi([
  'function addDelegate(address delegate)',
  'function removeDelegate(address delegate, bool removeAllowances)',
  'function setAllowance(address delegate, address token, uint96 allowanceAmount, uint16 resetTimeMin, uint32 resetBaseMin)',
  'function resetAllowance(address delegate, address token)',
])

/**
 * Across's SpokePool: deposits (accounts as bytes32 since v3.5, as addresses in `depositV3` and the V3 event) are paid
 * out on another chain to their `recipient`, and refunded to, or redirected by a signature of, their `depositor`.
 */
export const acrossSpokePoolAbi = parseAbi([
  'function deposit(bytes32 depositor, bytes32 recipient, bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 destinationChainId, bytes32 exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, bytes message) payable',
  'function depositV3(address depositor, address recipient, address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 destinationChainId, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, bytes message) payable',
  'event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)',
  'event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)',
])

/**
 * ERC-4337's IAccountExecute: the EntryPoint (v0.7 and later) calls `executeUserOp(userOp, userOpHash)` on an account
 * whose operation's `callData` starts with this function's selector, and the account runs the rest.
 */
export const accountExecuteAbi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function executeUserOp(PackedUserOperation userOp, bytes32 userOpHash)',
])

/**
 * Who controls a contract: OpenZeppelin's Ownable and Ownable2Step, AccessControl, and ERC-1967 proxies with their
 * admins (ProxyAdmin's calls included); ds-auth's owner (DSProxy); Compound's admin, in its contracts and its Timelock.
 * A multisig that owns a protocol signs these; a drained protocol began with one.
 */
export const contractControlAbi = parseAbi([
  'function transferOwnership(address newOwner)',
  'function renounceOwnership()',
  'function acceptOwnership()',
  'function grantRole(bytes32 role, address account)',
  'function revokeRole(bytes32 role, address account)',
  'function renounceRole(bytes32 role, address callerConfirmation)',
  'function upgradeTo(address newImplementation)',
  'function upgradeToAndCall(address newImplementation, bytes data)',
  'function changeAdmin(address newAdmin)',
  'function upgrade(address proxy, address implementation)',
  'function upgradeAndCall(address proxy, address implementation, bytes data)',
  'function changeProxyAdmin(address proxy, address newAdmin)',
  'event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)',
  'event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner)',
  'event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)',
  'event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)',
  'event Upgraded(address indexed implementation)',
  'event BeaconUpgraded(address indexed beacon)',
  'event AdminChanged(address previousAdmin, address newAdmin)',
  'function setOwner(address owner_)',
  'function _setPendingAdmin(address newPendingAdmin)',
  'function setPendingAdmin(address pendingAdmin_)',
  'function setAuthority(address authority_)',
  'event LogSetOwner(address indexed owner)',
  'event LogSetAuthority(address indexed authority)',
  'event NewAdmin(address oldAdmin, address newAdmin)',
  'event NewPendingAdmin(address oldPendingAdmin, address newPendingAdmin)',
])

const permit2Abi = parseAbi([
  'struct PermitDetails { address token; uint160 amount; uint48 expiration; uint48 nonce; }',
  'struct PermitSingle { PermitDetails details; address spender; uint256 sigDeadline; }',
  'struct AllowanceTransferDetails { address from; address to; uint160 amount; address token; }',
  'struct TokenSpenderPair { address token; address spender; }',
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function permit(address owner, PermitSingle permitSingle, bytes signature)',
  'function transferFrom(address from, address to, uint160 amount, address token)',
  'function transferFrom(AllowanceTransferDetails[] transferDetails)',
  'function lockdown(TokenSpenderPair[] approvals)',
  'function invalidateNonces(address token, address spender, uint48 newNonce)',
  'event Permit(address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration, uint48 nonce)',
])

/**
 * Uniswap's routers and V3 position manager: swaps and liquidity (the devnet deploys them from their npm artifacts).
 * Decoded, their token arguments (a swap's path) tell the read plan which balances a swap moves.
 */
const uniswapAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'struct ExactOutputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 deadline; uint256 amountOut; uint256 amountInMaximum; uint160 sqrtPriceLimitX96; }',
  'struct ExactInputParams { bytes path; address recipient; uint256 deadline; uint256 amountIn; uint256 amountOutMinimum; }',
  'struct MintParams { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'struct DecreaseLiquidityParams { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'struct CollectParams { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  'function removeLiquidity(address tokenA, address tokenB, uint256 liquidity, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB)',
  'function removeLiquidityETH(address token, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256 amountToken, uint256 amountETH)',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
  'function exactOutputSingle(ExactOutputSingleParams params) payable returns (uint256 amountIn)',
  'function exactInput(ExactInputParams params) payable returns (uint256 amountOut)',
  'function refundETH() payable',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function mint(MintParams params) payable returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'function decreaseLiquidity(DecreaseLiquidityParams params) payable returns (uint256 amount0, uint256 amount1)',
  'function collect(CollectParams params) payable returns (uint256 amount0, uint256 amount1)',
])

/** Errors a revert may carry that the engine can explain: OpenZeppelin v5 token errors and common ones. */
export const knownErrorsAbi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC721InvalidApprover(address approver)',
  'error ERC721InvalidOperator(address operator)',
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155InvalidSender(address sender)',
  'error ERC1155InvalidReceiver(address receiver)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error ERC2612ExpiredSignature(uint256 deadline)',
  'error ERC2612InvalidSigner(address signer, address owner)',
  'error OwnableUnauthorizedAccount(address account)',
  'error ReentrancyGuardReentrantCall()',
  'error SafeERC20FailedOperation(address token)',
])

/**
 * The OP Stack's canonical bridge: the standard bridge (deposits from L1, withdrawals from L2) pays out on the other
 * chain to `to`; the portal's deposit transactions mint `msg.value` to their sender there and send `_value` of it to
 * `_to`. Bedrock bridges emit both a legacy Deposit event and a Bridge event for each deposit.
 */
export const opStackBridgeAbi = parseAbi([
  'function depositETH(uint32 _minGasLimit, bytes _extraData) payable',
  'function depositETHTo(address _to, uint32 _minGasLimit, bytes _extraData) payable',
  'function depositERC20(address _l1Token, address _l2Token, uint256 _amount, uint32 _minGasLimit, bytes _extraData)',
  'function depositERC20To(address _l1Token, address _l2Token, address _to, uint256 _amount, uint32 _minGasLimit, bytes _extraData)',
  'function bridgeETHTo(address _to, uint32 _minGasLimit, bytes _extraData) payable',
  'function bridgeERC20To(address _localToken, address _remoteToken, address _to, uint256 _amount, uint32 _minGasLimit, bytes _extraData)',
  'function depositTransaction(address _to, uint256 _value, uint64 _gasLimit, bool _isCreation, bytes _data) payable',
  'event ETHDepositInitiated(address indexed from, address indexed to, uint256 amount, bytes extraData)',
  'event ERC20DepositInitiated(address indexed l1Token, address indexed l2Token, address indexed from, address to, uint256 amount, bytes extraData)',
  'event ETHBridgeInitiated(address indexed from, address indexed to, uint256 amount, bytes extraData)',
  'event ERC20BridgeInitiated(address indexed localToken, address indexed remoteToken, address indexed from, address to, uint256 amount, bytes extraData)',
  'event TransactionDeposited(address indexed from, address indexed to, uint256 indexed version, bytes opaqueData)',
])

/** Every function and event ABI used to decode calldata and logs, most specific first. */
export const decodingAbis = [
  erc20Abi,
  erc721Abi,
  erc1155Abi,
  wethAbi,
  safeAbi,
  multiSendAbi,
  signMessageLibAbi,
  cowSettlementAbi,
  permit2Abi,
  uniswapAbi,
  contractControlAbi,
  lendingDelegationAbi,
  safeAllowanceModuleAbi,
  acrossSpokePoolAbi,
  opStackBridgeAbi,
] as const
