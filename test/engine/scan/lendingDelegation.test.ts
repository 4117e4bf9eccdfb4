/**
 * Lending positions handed to another address, by signature and by transaction: an Aave V3 credit delegation
 * (`DelegationWithSig`, `approveDelegation`) and a Compound III manager (`Authorization`, `allow`, Comet's `approve`).
 * Then, reality as the oracle: a relayer submits the signature, and the delegatee's borrow allowance is the amount
 * the scan named, or the manager withdraws the owner's collateral.
 *
 * Neither contract is on the devnet, so each is compiled and placed at an address:
 * - the Aave debt token is the credit delegation of Aave's DebtTokenBase and EIP712Base (@aave/core-v3 1.19.3, read
 *   from its npm package) as written there (typehash, domain from `name()` and revision "1", nonces,
 *   `_approveDelegation` and its event naming the underlying asset), without the debt accounting around it;
 * - the Comet is Compound III's CometExt `allow`, `allowInternal`, `allowBySig` and `approve`, Comet's
 *   `hasPermission`, and a `withdrawFrom` of collateral guarded as Comet's `withdrawInternal` guards it, without
 *   interest, prices or borrowing (Comet is not on npm; its source is compound-finance/comet).
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseSignature,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { beforeEach, describe, expect, it } from 'vitest'
import { NAMED_DOMAIN_FIELDS } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactions, type Warning } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const DEBT_TOKEN = getAddress('0x00000000000000000000000000000000000a4e01')
const COMET = getAddress('0x00000000000000000000000000000000000c0e01')
const DEBT_TOKEN_NAME = 'Aave Ethereum Variable Debt USDC'

const debtTokenSource = (underlying: Address) => `
// SPDX-License-Identifier: BUSL-1.1
pragma solidity ^0.8.10;
contract DelegationDebtToken {
  bytes public constant EIP712_REVISION = bytes('1');
  bytes32 internal constant EIP712_DOMAIN =
    keccak256('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)');
  bytes32 public constant DELEGATION_WITH_SIG_TYPEHASH =
    keccak256('DelegationWithSig(address delegatee,uint256 value,uint256 nonce,uint256 deadline)');
  address internal constant _underlyingAsset = ${underlying};
  mapping(address => uint256) internal _nonces;
  mapping(address => mapping(address => uint256)) internal _borrowAllowances;
  event BorrowAllowanceDelegated(address indexed fromUser, address indexed toUser, address indexed asset, uint256 amount);

  function name() public pure returns (string memory) { return '${DEBT_TOKEN_NAME}'; }
  function symbol() external pure returns (string memory) { return 'variableDebtEthUSDC'; }
  function decimals() external pure returns (uint8) { return 6; }
  function UNDERLYING_ASSET_ADDRESS() external pure returns (address) { return _underlyingAsset; }
  function nonces(address owner) external view returns (uint256) { return _nonces[owner]; }
  function DOMAIN_SEPARATOR() public view returns (bytes32) {
    return keccak256(abi.encode(EIP712_DOMAIN, keccak256(bytes(name())), keccak256(EIP712_REVISION), block.chainid, address(this)));
  }
  function approveDelegation(address delegatee, uint256 amount) external {
    _approveDelegation(msg.sender, delegatee, amount);
  }
  function delegationWithSig(address delegator, address delegatee, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
    require(delegator != address(0), '77');
    require(block.timestamp <= deadline, '78');
    uint256 currentValidNonce = _nonces[delegator];
    bytes32 digest = keccak256(abi.encodePacked('\\x19\\x01', DOMAIN_SEPARATOR(),
      keccak256(abi.encode(DELEGATION_WITH_SIG_TYPEHASH, delegatee, value, currentValidNonce, deadline))));
    require(delegator == ecrecover(digest, v, r, s), '79');
    _nonces[delegator] = currentValidNonce + 1;
    _approveDelegation(delegator, delegatee, value);
  }
  function borrowAllowance(address fromUser, address toUser) external view returns (uint256) {
    return _borrowAllowances[fromUser][toUser];
  }
  function _approveDelegation(address delegator, address delegatee, uint256 amount) internal {
    _borrowAllowances[delegator][delegatee] = amount;
    emit BorrowAllowanceDelegated(delegator, delegatee, _underlyingAsset, amount);
  }
}`

const COMET_SOURCE = `
// SPDX-License-Identifier: BUSL-1.1
pragma solidity ^0.8.15;
interface IERC20 {
  function transfer(address to, uint256 value) external returns (bool);
  function transferFrom(address from, address to, uint256 value) external returns (bool);
}
contract CometAuthorization {
  string public constant version = "0";
  bytes32 internal constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
  bytes32 internal constant AUTHORIZATION_TYPEHASH = keccak256("Authorization(address owner,address manager,bool isAllowed,uint256 nonce,uint256 expiry)");
  uint internal constant MAX_VALID_ECDSA_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;
  mapping(address => mapping(address => bool)) public isAllowed;
  mapping(address => uint) public userNonce;
  mapping(address => mapping(address => uint128)) public collateralBalanceOf;
  event Approval(address indexed owner, address indexed spender, uint256 amount);
  error BadAmount();
  error BadNonce();
  error BadSignatory();
  error InvalidValueS();
  error InvalidValueV();
  error SignatureExpired();
  error Unauthorized();

  function name() public pure returns (string memory) { return "Compound USDC"; }
  function symbol() external pure returns (string memory) { return "cUSDCv3"; }
  function decimals() external pure returns (uint8) { return 6; }
  function balanceOf(address) external pure returns (uint256) { return 0; }

  function approve(address spender, uint256 amount) external returns (bool) {
    if (amount == type(uint256).max) {
      allowInternal(msg.sender, spender, true);
    } else if (amount == 0) {
      allowInternal(msg.sender, spender, false);
    } else {
      revert BadAmount();
    }
    return true;
  }
  function allowance(address owner, address spender) external view returns (uint256) {
    return hasPermission(owner, spender) ? type(uint256).max : 0;
  }
  function allow(address manager, bool isAllowed_) external {
    allowInternal(msg.sender, manager, isAllowed_);
  }
  function allowInternal(address owner, address manager, bool isAllowed_) internal {
    isAllowed[owner][manager] = isAllowed_;
    emit Approval(owner, manager, isAllowed_ ? type(uint256).max : 0);
  }
  function allowBySig(address owner, address manager, bool isAllowed_, uint256 nonce, uint256 expiry, uint8 v, bytes32 r, bytes32 s) external {
    if (uint256(s) > MAX_VALID_ECDSA_S) revert InvalidValueS();
    if (v != 27 && v != 28) revert InvalidValueV();
    bytes32 domainSeparator = keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name())), keccak256(bytes(version)), block.chainid, address(this)));
    bytes32 structHash = keccak256(abi.encode(AUTHORIZATION_TYPEHASH, owner, manager, isAllowed_, nonce, expiry));
    bytes32 digest = keccak256(abi.encodePacked("\\x19\\x01", domainSeparator, structHash));
    address signatory = ecrecover(digest, v, r, s);
    if (signatory == address(0)) revert BadSignatory();
    if (owner != signatory) revert BadSignatory();
    if (nonce != userNonce[signatory]++) revert BadNonce();
    if (block.timestamp >= expiry) revert SignatureExpired();
    allowInternal(signatory, manager, isAllowed_);
  }
  function hasPermission(address owner, address manager) public view returns (bool) {
    return owner == manager || isAllowed[owner][manager];
  }
  function supply(address asset, uint amount) external {
    IERC20(asset).transferFrom(msg.sender, address(this), amount);
    collateralBalanceOf[msg.sender][asset] += uint128(amount);
  }
  function withdrawFrom(address src, address to, address asset, uint amount) external {
    if (!hasPermission(src, msg.sender)) revert Unauthorized();
    collateralBalanceOf[src][asset] -= uint128(amount);
    IERC20(asset).transfer(to, amount);
  }
}`

const debtTokenAbi = parseAbi([
  'function approveDelegation(address delegatee, uint256 amount)',
  'function delegationWithSig(address delegator, address delegatee, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function borrowAllowance(address fromUser, address toUser) view returns (uint256)',
])
const cometAbi = parseAbi([
  'function allow(address manager, bool isAllowed)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowBySig(address owner, address manager, bool isAllowed, uint256 nonce, uint256 expiry, uint8 v, bytes32 r, bytes32 s)',
  'function isAllowed(address owner, address manager) view returns (bool)',
  'function supply(address asset, uint256 amount)',
  'function withdrawFrom(address src, address to, address asset, uint256 amount)',
])
const wethAbi = parseAbi(['function deposit() payable'])

const fx = devnetRolledBackPerTest()
const validateMessage = messageResponseValidator()
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const account = (index: number) => privateKeyToAccount(fx().accounts[index]?.privateKey as Hex)
const wallet = (index: number) =>
  createWalletClient({ chain: foundry, transport: http(fx().rpcUrl), account: account(index) })
const user = () => account(0).address
/** A person: account 9 has no code. */
const person = () => account(9).address
/** The account that submits signatures, as any relayer may. */
const RELAYER = 5
const short = (address: Address) => `${address.slice(0, 6)}…${address.slice(-4)}`.toLowerCase()
const kinds = (warnings: Warning[]) => warnings.map((warning) => warning.kind)
const naming = (warnings: Warning[], address: Address) =>
  warnings.filter((warning) => warning.message.includes(short(address)))
/** A contract that is no known protocol: the devnet's own WETH. */
const contract = () => fx().weth.address
const deadline = () => BigInt(Math.floor(Date.now() / 1000) + 3600)

let debtTokenCode: Hex | undefined
let cometCode: Hex | undefined
beforeEach(async () => {
  debtTokenCode ??= runtimeCode('DebtToken.sol', debtTokenSource(fx().erc20.address), 'DelegationDebtToken')
  cometCode ??= runtimeCode('Comet.sol', COMET_SOURCE, 'CometAuthorization')
  const anvil = createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) })
  await anvil.setCode({ address: DEBT_TOKEN, bytecode: debtTokenCode })
  await anvil.setCode({ address: COMET, bytecode: cometCode })
})

async function send(index: number, to: Address, data: Hex, value = 0n): Promise<void> {
  const hash = await wallet(index).sendTransaction({ to, data, value })
  expect((await waitForReceipt(chain(), hash)).status).toBe('success')
}

/** A scan request for typed data as the user signs it: the domain's types spelled out, integers as decimal text. */
const messageRequest = (typedData: { types: object }) => {
  const data = { ...typedData, types: { EIP712Domain: NAMED_DOMAIN_FIELDS, ...typedData.types } }
  return {
    message: {
      kind: 'SIGN_TYPED_DATA',
      data: JSON.parse(JSON.stringify(data, (_, value) => (typeof value === 'bigint' ? value.toString() : value))),
    },
    userAccount: user(),
    metadata: { origin: 'https://lend.example' },
  }
}

async function scanTx(to: Address, data: Hex): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(
    { txObjects: [{ from: user(), to, data }], userAccount: user(), metadata: { origin: 'https://lend.example' } },
    { rpcUrl: fx().rpcUrl },
  )
  if (!outcome.ok) throw new Error(outcome.error.message)
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

describe('Aave credit delegation', () => {
  const delegation = (delegatee: Address, value: bigint, expiry: bigint, nonce = 0n) =>
    ({
      types: {
        DelegationWithSig: [
          { name: 'delegatee', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'DelegationWithSig',
      domain: { name: DEBT_TOKEN_NAME, version: '1', chainId: fx().chainId, verifyingContract: DEBT_TOKEN },
      message: { delegatee, value, nonce, deadline: expiry },
    }) as const

  /** The user signs the delegation and a relayer submits it; the allowance the delegatee holds after. */
  async function submit(delegatee: Address, value: bigint, nonce = 0n): Promise<bigint> {
    const expiry = deadline()
    const { r, s, v } = parseSignature(await account(0).signTypedData(delegation(delegatee, value, expiry, nonce)))
    const args = [user(), delegatee, value, expiry, Number(v), r, s] as const
    await send(RELAYER, DEBT_TOKEN, encodeFunctionData({ abi: debtTokenAbi, functionName: 'delegationWithSig', args }))
    return chain().readContract({
      address: DEBT_TOKEN,
      abi: debtTokenAbi,
      functionName: 'borrowAllowance',
      args: [user(), delegatee],
    })
  }

  it('a signature delegating 1,000 USDC to a person → APPROVAL_TO_EOA naming them and the amount; submitted, it is the allowance', async () => {
    const value = parseUnits('1000', 6)
    const { response } = await scanOk(messageRequest(delegation(person(), value, deadline())), fx().rpcUrl)
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('WARN')
    const [warning, ...others] = naming(response.warnings, person())
    expect(others).toEqual([])
    expect(warning).toMatchObject({ kind: 'APPROVAL_TO_EOA', severity: 'WARNING' })
    expect(warning?.message).toContain('borrow up to 1,000 USDC from Aave in your name')
    expect(warning?.message).toContain('a personal account')

    expect((warning?.data as { amount?: string } | undefined)?.amount).toBe(value.toString())
    expect(await submit(person(), value)).toBe(value)
  })

  it('an unlimited delegation to a contract, signed → LENDING_POSITION_DELEGATION, any amount', async () => {
    const { response } = await scanOk(messageRequest(delegation(contract(), maxUint256, deadline())), fx().rpcUrl)
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'LENDING_POSITION_DELEGATION')
    expect(warning?.message).toContain(`This lets ${short(contract())}, a contract, borrow any amount of USDC`)
    expect(await submit(contract(), maxUint256)).toBe(maxUint256)
  })

  it('a signature that revokes a delegation → no warning; submitted, the allowance is gone', async () => {
    await submit(person(), parseUnits('1000', 6))
    const { response } = await scanOk(messageRequest(delegation(person(), 0n, deadline(), 1n)), fx().rpcUrl)
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(await submit(person(), 0n, 1n)).toBe(0n)
  })

  it('approveDelegation as a transaction → the same warning; sent, it is the allowance', async () => {
    const value = parseUnits('250', 6)
    const data = encodeFunctionData({ abi: debtTokenAbi, functionName: 'approveDelegation', args: [person(), value] })
    const response = await scanTx(DEBT_TOKEN, data)
    expect(response.action).toBe('WARN')
    const [warning] = naming(response.warnings, person())
    expect(warning).toMatchObject({ kind: 'APPROVAL_TO_EOA', severity: 'WARNING' })
    expect(warning?.message).toContain('borrow up to 250 USDC from Aave in your name')
    await send(0, DEBT_TOKEN, data)
    expect(
      await chain().readContract({
        address: DEBT_TOKEN,
        abi: debtTokenAbi,
        functionName: 'borrowAllowance',
        args: [user(), person()],
      }),
    ).toBe(value)
  })

  it("approveDelegation to Aave's own native currency gateway (how the Aave app borrows ETH) → no warning", async () => {
    // AaveV3Ethereum.WETH_GATEWAY in @bgd-labs/aave-address-book; given code here, as it has on mainnet.
    const gateway = getAddress('0xd01607c3C5eCABa394D8be377a08590149325722')
    await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
      address: gateway,
      bytecode: '0x00',
    })
    const data = encodeFunctionData({
      abi: debtTokenAbi,
      functionName: 'approveDelegation',
      args: [gateway, parseUnits('250', 6)],
    })
    const scanOn = async (chainId: number) => {
      const txObjects = [{ from: user(), to: DEBT_TOKEN, data }]
      const outcome = await scanTransactions(
        { txObjects, userAccount: user(), metadata: { origin: 'https://app.aave.com' } },
        { rpcUrl: fx().rpcUrl, chainId },
      )
      if (!outcome.ok) throw new Error(outcome.error.message)
      return outcome.response
    }
    const mainnet = await scanOn(1)
    expect(mainnet.warnings).toEqual([])
    expect(mainnet.action).toBe('NONE')
    // Anywhere it is not Aave's, the same grantee is a contract like any other.
    expect(kinds((await scanOn(fx().chainId)).warnings)).toEqual(['LENDING_POSITION_DELEGATION'])
  })
})

describe('Compound III manager', () => {
  const authorization = (manager: Address, isAllowed: boolean, expiry: bigint) =>
    ({
      types: {
        Authorization: [
          { name: 'owner', type: 'address' },
          { name: 'manager', type: 'address' },
          { name: 'isAllowed', type: 'bool' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expiry', type: 'uint256' },
        ],
      },
      primaryType: 'Authorization',
      domain: { name: 'Compound USDC', version: '0', chainId: fx().chainId, verifyingContract: COMET },
      message: { owner: user(), manager, isAllowed, nonce: 0n, expiry },
    }) as const
  const whole = 'whole Compound III account in Compound USDC'

  /** The user signs, a relayer submits: whether the manager is allowed after. */
  async function submit(manager: Address, isAllowed: boolean): Promise<boolean> {
    const expiry = deadline()
    const { r, s, v } = parseSignature(await account(0).signTypedData(authorization(manager, isAllowed, expiry)))
    const args = [user(), manager, isAllowed, 0n, expiry, Number(v), r, s] as const
    await send(RELAYER, COMET, encodeFunctionData({ abi: cometAbi, functionName: 'allowBySig', args }))
    return chain().readContract({ address: COMET, abi: cometAbi, functionName: 'isAllowed', args: [user(), manager] })
  }

  /** The user supplies 2 WETH of collateral. */
  async function supplyCollateral(amount: bigint): Promise<void> {
    const weth = fx().weth.address
    await send(0, weth, encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), amount)
    await send(0, weth, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [COMET, amount] }))
    await send(0, COMET, encodeFunctionData({ abi: cometAbi, functionName: 'supply', args: [weth, amount] }))
  }

  it('a signature making a person manager → APPROVAL_TO_EOA for the whole account; submitted, they withdraw the collateral', async () => {
    const { response } = await scanOk(messageRequest(authorization(person(), true, deadline())), fx().rpcUrl)
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('WARN')
    const [warning, ...others] = naming(response.warnings, person())
    expect(others).toEqual([])
    expect(warning).toMatchObject({ kind: 'APPROVAL_TO_EOA', severity: 'WARNING' })
    expect(warning?.message).toContain(`a manager of your ${whole}`)
    expect(warning?.message).toContain('withdraw all your collateral')
    expect(kinds(response.warnings)).not.toContain('UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER')
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      `Make ${short(person())} manager of your ${whole}`,
    ])

    const collateral = parseEther('2')
    await supplyCollateral(collateral)
    expect(await submit(person(), true)).toBe(true)
    const weth = fx().weth.address
    const before = await chain().readContract({
      address: weth,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [person()],
    })
    const withdraw = encodeFunctionData({
      abi: cometAbi,
      functionName: 'withdrawFrom',
      args: [user(), person(), weth, collateral],
    })
    await send(9, COMET, withdraw)
    const after = await chain().readContract({
      address: weth,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [person()],
    })
    expect(after - before).toBe(collateral)
  })

  it('a signature that revokes a manager → no warning; submitted, the manager is no longer allowed', async () => {
    await send(0, COMET, encodeFunctionData({ abi: cometAbi, functionName: 'allow', args: [person(), true] }))
    const { response } = await scanOk(messageRequest(authorization(person(), false, deadline())), fx().rpcUrl)
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(response.simulationResults.expectedStateChanges.map((change) => change.humanReadableDiff)).toEqual([
      `Remove ${short(person())} as manager of your Compound III account in Compound USDC`,
    ])
    expect(await submit(person(), false)).toBe(false)
  })

  it('allow(contract, true) and approve(contract, max) as transactions → LENDING_POSITION_DELEGATION, not a token allowance', async () => {
    for (const data of [
      encodeFunctionData({ abi: cometAbi, functionName: 'allow', args: [contract(), true] }),
      encodeFunctionData({ abi: cometAbi, functionName: 'approve', args: [contract(), maxUint256] }),
    ]) {
      const response = await scanTx(COMET, data)
      expect(response.action).toBe('WARN')
      expect(kinds(response.warnings)).toEqual(['LENDING_POSITION_DELEGATION'])
      expect(response.warnings[0]?.message).toContain(
        `This makes ${short(contract())}, a contract, a manager of your ${whole}`,
      )
      const changes = response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address] ?? []
      expect(changes.map((change) => change.humanReadableDiff)).toEqual([
        `Make ${short(contract())} manager of your ${whole}`,
      ])
    }
    await send(0, COMET, encodeFunctionData({ abi: cometAbi, functionName: 'allow', args: [contract(), true] }))
    expect(
      await chain().readContract({
        address: COMET,
        abi: cometAbi,
        functionName: 'isAllowed',
        args: [user(), contract()],
      }),
    ).toBe(true)
  })
})
