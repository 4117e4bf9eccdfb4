/**
 * Honest interest-bearing tokens against the balance-read rule (RELIABLE_SIMULATION_NOT_POSSIBLE when a token's reads
 * and events disagree by more than 2 %). An Aave V3 aToken logs, whenever it touches an account, a Transfer from the zero
 * address of all the interest the account earned since its last touch, which its balanceOf had counted all along: a
 * small withdrawal after a year of interest logs a mint while the balance goes down. A stETH-style token moves shares,
 * so balances move a wei or two less than its Transfer says. The aToken here keeps Aave's ScaledBalanceTokenBase
 * arithmetic and events (WadRayMath's rounding, `Mint`/`Burn` with `balanceIncrease`, the interest mints of
 * `_transfer`), with the pool's supply and withdraw folded into it and the liquidity index set by hand, as a year of
 * borrowers' interest would move it. Only Aave's own tokens' interest events are trusted, and the address book lists
 * none on the devnet's chain: the aToken runs at mainnet's aEthUSDC address (from the generated list) over a USDC at
 * mainnet's USDC address (from the token list), scanned with mainnet's lists, as a fork of mainnet would hold them. A
 * Compound V2 market logs its mints as transfers from its own address, whose balance never moves. Every scan is
 * executed on the devnet and compared with what moved.
 */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  numberToHex,
  parseAbi,
  parseEther,
} from 'viem'
import { describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { listedTokenWithSymbol } from '../../../src/engine/assets/index.ts'
import aaveTokens from '../../../src/engine/risk/data/aaveInterestTokens.json'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { deployable, runtimeCode } from '../../support/solc.ts'
import { devnetClient, expectRealityMatches } from '../protocolSupport.ts'
import { accountDiffs, deployOnDevnet, scanOnDevnet } from '../transactionSupport.ts'

const TOKENS = `// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.28;

interface IERC20 {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/** USDC as it moves balances, to run at mainnet's USDC address: no constructor, so anyone mints. */
contract TestUSDC {
    string public constant name = "USD Coin";
    string public constant symbol = "USDC";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    function mint(address to, uint256 value) external { totalSupply += value; balanceOf[to] += value; emit Transfer(address(0), to, value); }
    function approve(address spender, uint256 value) external returns (bool) { allowance[msg.sender][spender] = value; emit Approval(msg.sender, spender, value); return true; }
    function transfer(address to, uint256 value) external returns (bool) { move(msg.sender, to, value); return true; }
    function transferFrom(address from, address to, uint256 value) external returns (bool) { allowance[from][msg.sender] -= value; move(from, to, value); return true; }
    function move(address from, address to, uint256 value) internal { balanceOf[from] -= value; balanceOf[to] += value; emit Transfer(from, to, value); }
}

/** Aave V3's ScaledBalanceTokenBase and AToken, as they log; the Pool's supply and withdraw folded in. */
contract ScaledAToken {
    uint256 internal constant RAY = 1e27;
    uint256 internal constant HALF_RAY = 0.5e27;
    string public constant name = "Aave Ethereum USDC";
    string public constant symbol = "aEthUSDC";
    uint8 public constant decimals = 6;
    IERC20 public immutable underlying;
    address public immutable admin;
    uint256 public liquidityIndex = RAY;
    mapping(address => uint256) internal scaled;
    mapping(address => uint256) internal lastIndex;
    uint256 internal scaledSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Mint(address indexed caller, address indexed onBehalfOf, uint256 value, uint256 balanceIncrease, uint256 index);
    event Burn(address indexed from, address indexed target, uint256 value, uint256 balanceIncrease, uint256 index);
    event BalanceTransfer(address indexed from, address indexed to, uint256 value, uint256 index);

    constructor(IERC20 underlying_) { underlying = underlying_; admin = msg.sender; }

    function rayMul(uint256 a, uint256 b) internal pure returns (uint256) { return (a * b + HALF_RAY) / RAY; }
    function rayDiv(uint256 a, uint256 b) internal pure returns (uint256) { return (a * RAY + b / 2) / b; }

    /** The reserve's index, as borrowers' interest moves it over time. */
    function setLiquidityIndex(uint256 index) external { require(msg.sender == admin && index >= liquidityIndex); liquidityIndex = index; }

    function balanceOf(address user) external view returns (uint256) { return rayMul(scaled[user], liquidityIndex); }
    function totalSupply() external view returns (uint256) { return rayMul(scaledSupply, liquidityIndex); }

    function supply(uint256 amount) external {
        underlying.transferFrom(msg.sender, address(this), amount);
        uint256 index = liquidityIndex;
        uint256 amountScaled = rayDiv(amount, index);
        require(amountScaled != 0, "INVALID_MINT_AMOUNT");
        uint256 balanceIncrease = accrue(msg.sender, index);
        scaled[msg.sender] += amountScaled;
        scaledSupply += amountScaled;
        uint256 amountToMint = amount + balanceIncrease;
        emit Transfer(address(0), msg.sender, amountToMint);
        emit Mint(msg.sender, msg.sender, amountToMint, balanceIncrease, index);
    }

    function withdraw(uint256 amount) external {
        uint256 index = liquidityIndex;
        uint256 amountScaled = rayDiv(amount, index);
        require(amountScaled != 0, "INVALID_BURN_AMOUNT");
        uint256 balanceIncrease = accrue(msg.sender, index);
        scaled[msg.sender] -= amountScaled;
        scaledSupply -= amountScaled;
        if (balanceIncrease > amount) {
            uint256 amountToMint = balanceIncrease - amount;
            emit Transfer(address(0), msg.sender, amountToMint);
            emit Mint(msg.sender, msg.sender, amountToMint, balanceIncrease, index);
        } else {
            uint256 amountToBurn = amount - balanceIncrease;
            emit Transfer(msg.sender, address(0), amountToBurn);
            emit Burn(msg.sender, msg.sender, amountToBurn, balanceIncrease, index);
        }
        underlying.transfer(msg.sender, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 index = liquidityIndex;
        uint256 senderIncrease = accrue(msg.sender, index);
        uint256 recipientIncrease = accrue(to, index);
        uint256 amountScaled = rayDiv(amount, index);
        scaled[msg.sender] -= amountScaled;
        scaled[to] += amountScaled;
        if (senderIncrease > 0) {
            emit Transfer(address(0), msg.sender, senderIncrease);
            emit Mint(msg.sender, msg.sender, senderIncrease, senderIncrease, index);
        }
        if (msg.sender != to && recipientIncrease > 0) {
            emit Transfer(address(0), to, recipientIncrease);
            emit Mint(msg.sender, to, recipientIncrease, recipientIncrease, index);
        }
        emit BalanceTransfer(msg.sender, to, amountScaled, index);
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    /** The interest earned since the account's last touch, which balanceOf already counts; the index noted. */
    function accrue(address user, uint256 index) internal returns (uint256 increase) {
        increase = rayMul(scaled[user], index) - rayMul(scaled[user], lastIndex[user]);
        lastIndex[user] = index;
    }
}

/**
 * Compound V2's CErc20 as it accounts and logs (CToken.sol's mintFresh and redeemFresh): the market's own address is the
 * Transfer's sender of a mint and recipient of a redemption, while its own balance never changes. Venus, Moonwell,
 * Benqi and the other Compound forks log the same. The comptroller's checks and the interest model are left out; the
 * exchange rate is set by hand.
 */
contract CTokenMarket {
    string public constant name = "Compound USD Coin";
    string public constant symbol = "cUSDC";
    uint8 public constant decimals = 8;
    IERC20 public immutable underlying;
    address public immutable admin;
    uint256 public exchangeRateStored = 2e14;
    uint256 public totalSupply;
    mapping(address => uint256) internal accountTokens;

    event Transfer(address indexed from, address indexed to, uint256 amount);
    event Mint(address minter, uint256 mintAmount, uint256 mintTokens);
    event Redeem(address redeemer, uint256 redeemAmount, uint256 redeemTokens);

    constructor(IERC20 underlying_) { underlying = underlying_; admin = msg.sender; }

    function setExchangeRate(uint256 rate) external { require(msg.sender == admin); exchangeRateStored = rate; }
    function balanceOf(address owner) external view returns (uint256) { return accountTokens[owner]; }

    function transfer(address dst, uint256 amount) external returns (bool) {
        require(msg.sender != dst, "TransferNotAllowed");
        accountTokens[msg.sender] -= amount;
        accountTokens[dst] += amount;
        emit Transfer(msg.sender, dst, amount);
        return true;
    }

    function mint(uint256 mintAmount) external returns (uint256) {
        underlying.transferFrom(msg.sender, address(this), mintAmount);
        uint256 mintTokens = mintAmount * 1e18 / exchangeRateStored;
        totalSupply += mintTokens;
        accountTokens[msg.sender] += mintTokens;
        emit Mint(msg.sender, mintAmount, mintTokens);
        emit Transfer(address(this), msg.sender, mintTokens);
        return 0;
    }

    function redeem(uint256 redeemTokens) external returns (uint256) {
        uint256 redeemAmount = redeemTokens * exchangeRateStored / 1e18;
        totalSupply -= redeemTokens;
        accountTokens[msg.sender] -= redeemTokens;
        underlying.transfer(msg.sender, redeemAmount);
        emit Transfer(msg.sender, address(this), redeemTokens);
        emit Redeem(msg.sender, redeemAmount, redeemTokens);
        return 0;
    }
}

/** Lido's stETH as it accounts: balances are shares at the pooled ether's rate, rounded down. */
contract SharesToken {
    string public constant name = "Liquid staked Ether 2.0";
    string public constant symbol = "stETH";
    uint8 public constant decimals = 18;
    uint256 public totalShares;
    uint256 public totalPooledEther;
    mapping(address => uint256) public sharesOf;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event TransferShares(address indexed from, address indexed to, uint256 sharesValue);

    /** Seeds the pool at a rate that is no round number, as rewards leave it. */
    constructor() payable { totalShares = 1e18; totalPooledEther = 1.123456789123456789e18; sharesOf[address(0xdead)] = 1e18; }

    function balanceOf(address user) public view returns (uint256) { return sharesOf[user] * totalPooledEther / totalShares; }

    function submit() external payable returns (uint256 shares) {
        shares = msg.value * totalShares / totalPooledEther;
        sharesOf[msg.sender] += shares;
        totalShares += shares;
        totalPooledEther += msg.value;
        emit Transfer(address(0), msg.sender, shares * totalPooledEther / totalShares);
        emit TransferShares(address(0), msg.sender, shares);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        uint256 shares = amount * totalShares / totalPooledEther;
        sharesOf[msg.sender] -= shares;
        sharesOf[to] += shares;
        emit Transfer(msg.sender, to, amount);
        emit TransferShares(msg.sender, to, shares);
        return true;
    }
}
`

const aTokenAbi = parseAbi([
  'function supply(uint256 amount)',
  'function withdraw(uint256 amount)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function setLiquidityIndex(uint256 index)',
])
const RAY = 10n ** 27n
const FRIEND: Address = '0x1111111111111111111111111111111111111111'
const usdc = (amount: number) => BigInt(amount) * 10n ** 6n

/** Mainnet's USDC, from the bundled token list, and Aave's aEthUSDC over it, from the generated Aave list. */
const MAINNET_USDC = listedTokenWithSymbol(1, 'USDC')?.address as Address
const A_ETH_USDC = Object.entries(aaveTokens.tokens['1']).find(
  ([, name]) => name === 'AaveV3Ethereum USDC aToken',
)?.[0] as Address

describe('interest-bearing tokens against the balance reads', () => {
  const fx = devnetRolledBackPerTest()
  const client = () => devnetClient(fx().rpcUrl)
  // Account 0 holds the devnet's USDC.
  const user = () => getAddress(fx().accounts[0]?.address as Address)
  const admin = () => getAddress(fx().accounts[9]?.address as Address)

  async function send(from: Address, to: Address, data: Hex, value = 0n): Promise<void> {
    const hash = await client().sendTransaction({ account: from, to, data, value, chain: null })
    expect((await waitForReceipt(client(), hash)).status).toBe('success')
  }

  const deploy = (name: string, args: unknown[] = []) =>
    deployOnDevnet(fx().rpcUrl, admin(), deployable('InterestTokens.sol', TOKENS, name), args)

  async function scan(to: Address, data: Hex, value = 0n, chainId = 31337) {
    const tx: TxRequest = { from: user(), to, data, value: numberToHex(value) }
    return { response: await scanOnDevnet(fx().rpcUrl, tx, chainId), tx }
  }
  /** A scan with mainnet's lists, where Aave's tokens are listed. */
  const scanAsMainnet = (to: Address, data: Hex) => scan(to, data, 0n, 1)

  const diffsOf = accountDiffs

  /**
   * The aToken at aEthUSDC's mainnet address over USDC at its own, which the user supplied 2,000 USDC to a year of 5 %
   * interest ago, and holding 100 USDC more; the token holds the interest to pay. Deployed first, so its code carries its underlying and admin;
   * its one initialised slot (the liquidity index, slot 0) is set beside the code.
   */
  async function aTokenWithInterest(): Promise<Address> {
    const usdcCode = runtimeCode('InterestTokens.sol', TOKENS, 'TestUSDC')
    await client().setCode({ address: MAINNET_USDC, bytecode: usdcCode })
    const mint = parseAbi(['function mint(address to, uint256 value)'])
    await send(
      user(),
      MAINNET_USDC,
      encodeFunctionData({ abi: mint, functionName: 'mint', args: [user(), usdc(2_300)] }),
    )
    const deployed = await deploy('ScaledAToken', [MAINNET_USDC])
    const aToken = A_ETH_USDC
    await client().setCode({ address: aToken, bytecode: (await client().getCode({ address: deployed })) as Hex })
    await client().setStorageAt({ address: aToken, index: 0, value: numberToHex(RAY, { size: 32 }) })
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [aToken, usdc(2_000)] })
    await send(user(), MAINNET_USDC, approve)
    await send(user(), aToken, encodeFunctionData({ abi: aTokenAbi, functionName: 'supply', args: [usdc(2_000)] }))
    const interest = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [aToken, usdc(200)] })
    await send(user(), MAINNET_USDC, interest)
    const index = encodeFunctionData({ abi: aTokenAbi, functionName: 'setLiquidityIndex', args: [(RAY * 105n) / 100n] })
    await send(admin(), aToken, index)
    return aToken
  }

  it('withdrawing 50 USDC of 2,100 from an aToken (which logs a mint of 50 for the 100 earned): NONE, as executed', async () => {
    const aToken = await aTokenWithInterest()
    const withdraw = encodeFunctionData({ abi: aTokenAbi, functionName: 'withdraw', args: [usdc(50)] })
    const { response, tx } = await scanAsMainnet(aToken, withdraw)
    expect(diffsOf(response, user()).sort()).toEqual(['Receive 50 USDC', 'Send 50 aEthUSDC'])
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, response, tx)
  })

  it('sending 100 aUSDC to a friend (the interest minted first), and supplying 100 more: NONE, as executed', async () => {
    const aToken = await aTokenWithInterest()
    const transfer = encodeFunctionData({ abi: aTokenAbi, functionName: 'transfer', args: [FRIEND, usdc(100)] })
    const sent = await scanAsMainnet(aToken, transfer)
    expect(diffsOf(sent.response, user())).toEqual(['Send 100 aEthUSDC'])
    expect(diffsOf(sent.response, FRIEND)).toEqual(['Receive 100 aEthUSDC'])
    expect(sent.response.warnings).toEqual([])
    await expectRealityMatches(fx().rpcUrl, sent.response, sent.tx)

    const index = encodeFunctionData({ abi: aTokenAbi, functionName: 'setLiquidityIndex', args: [(RAY * 110n) / 100n] })
    await send(admin(), aToken, index)
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [aToken, usdc(100)] })
    await send(user(), MAINNET_USDC, approve)
    const supply = encodeFunctionData({ abi: aTokenAbi, functionName: 'supply', args: [usdc(100)] })
    const supplied = await scanAsMainnet(aToken, supply)
    expect(diffsOf(supplied.response, user()).sort()).toEqual(['Receive 100 aEthUSDC', 'Send 100 USDC'])
    expect(supplied.response.warnings).toEqual([])
    expect(supplied.response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, supplied.response, supplied.tx)
  })

  it('supplying 100 USDC to a Compound V2 market and redeeming half, logged from the market itself: NONE, as executed', async () => {
    const market = await deploy('CTokenMarket', [fx().erc20.address])
    const cToken = parseAbi([
      'function mint(uint256 mintAmount) returns (uint256)',
      'function redeem(uint256 redeemTokens) returns (uint256)',
    ])
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [market, usdc(100)] })
    await send(user(), fx().erc20.address, approve)
    const supplied = await scan(market, encodeFunctionData({ abi: cToken, functionName: 'mint', args: [usdc(100)] }))
    expect(diffsOf(supplied.response, user()).sort()).toEqual(['Receive 5,000 cUSDC', 'Send 100 USDC'])
    expect(diffsOf(supplied.response, market)).toEqual(['Receive 100 USDC'])
    expect(supplied.response.warnings).toEqual([])
    expect(supplied.response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, supplied.response, supplied.tx)

    const redeem = encodeFunctionData({ abi: cToken, functionName: 'redeem', args: [2_500n * 10n ** 8n] })
    const redeemed = await scan(market, redeem)
    expect(diffsOf(redeemed.response, user()).sort()).toEqual(['Receive 50 USDC', 'Send 2,500 cUSDC'])
    expect(redeemed.response.warnings).toEqual([])
    await expectRealityMatches(fx().rpcUrl, redeemed.response, redeemed.tx)
  })

  it('staking 1 ETH for stETH-style shares and sending 0.5 of it, each a wei or two off: NONE, as executed', async () => {
    const stEth = await deploy('SharesToken')
    const submit = encodeFunctionData({ abi: parseAbi(['function submit() payable']), functionName: 'submit' })
    const staked = await scan(stEth, submit, parseEther('1'))
    expect(staked.response.warnings).toEqual([])
    await expectRealityMatches(fx().rpcUrl, staked.response, staked.tx)
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [FRIEND, parseEther('0.5')] })
    const sent = await scan(stEth, transfer)
    expect(sent.response.warnings).toEqual([])
    expect(sent.response.action).toBe('NONE')
    await expectRealityMatches(fx().rpcUrl, sent.response, sent.tx)
  })
})
