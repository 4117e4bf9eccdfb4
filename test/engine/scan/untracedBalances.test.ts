/**
 * What the balance reads show against what the events and traced transfers say. Tokens that move balances without
 * events, whose events cancel out, whose balanceOf lies or that take a cut no event shows; an approve() without an
 * Approval; ETH forwarded by SELFDESTRUCT (outside traceTransfers on anvil); a contract that logs a WETH-style Deposit
 * without being a token. Each scan is executed on the devnet and compared with what really moved.
 */
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  maxUint256,
  numberToHex,
  parseAbi,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import type { ScanTransactionsResponse } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { deployable } from '../../support/solc.ts'
import { devnetClient, expectRealityMatches } from '../protocolSupport.ts'
import { accountDiffs, deployOnDevnet, scanOnDevnet } from '../transactionSupport.ts'

const TOKENS = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/** transfer() and approve() change state and emit no event, as some non-standard tokens do. */
contract SilentToken {
    string public name = "Silent Token";
    string public symbol = "SIL";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    constructor(address holder) { balanceOf[holder] = 1000 ether; }
    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value; balanceOf[to] += value; return true;
    }
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value; return true;
    }
}

/** transfer() moves the balances and logs the transfer and a "refund" back: the events net to zero. */
contract RoundTripToken {
    string public name = "Round Trip";
    string public symbol = "RTT";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);
    constructor(address holder) { balanceOf[holder] = 1000 ether; emit Transfer(address(0), holder, 1000 ether); }
    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value; balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        emit Transfer(to, msg.sender, value);
        return true;
    }
}

/** balanceOf always reports 1000; transfer() moves the real balance and logs it honestly. */
contract LyingBalanceToken {
    string public name = "Liar";
    string public symbol = "LIE";
    uint8 public constant decimals = 18;
    mapping(address => uint256) internal real;
    event Transfer(address indexed from, address indexed to, uint256 value);
    constructor(address holder) { real[holder] = 1000 ether; emit Transfer(address(0), holder, 1000 ether); }
    function balanceOf(address) external pure returns (uint256) { return 1000 ether; }
    function transfer(address to, uint256 value) external returns (bool) {
        real[msg.sender] -= value; real[to] += value; emit Transfer(msg.sender, to, value); return true;
    }
}

/** 3% of each transfer to a treasury: logged (FeeToken) or not (SneakyFeeToken). */
contract FeeToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    bool public immutable logsCut;
    mapping(address => uint256) public balanceOf;
    address public constant treasury = 0x4444444444444444444444444444444444444444;
    event Transfer(address indexed from, address indexed to, uint256 value);
    constructor(address holder, string memory symbol_, bool logsCut_) {
        name = symbol_; symbol = symbol_; logsCut = logsCut_;
        balanceOf[holder] = 1000 ether; emit Transfer(address(0), holder, 1000 ether);
    }
    function transfer(address to, uint256 value) external returns (bool) {
        uint256 cut = value * 3 / 100;
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value - cut;
        balanceOf[treasury] += cut;
        if (logsCut) { emit Transfer(msg.sender, to, value - cut); emit Transfer(msg.sender, treasury, cut); }
        else emit Transfer(msg.sender, to, value);
        return true;
    }
}

/** claim() forwards msg.value with a plain CALL, or with SELFDESTRUCT (Cancun: the contract stays, its balance moves). */
contract CallForwarder {
    address payable public immutable sink;
    constructor(address payable sink_) { sink = sink_; }
    function claim() external payable { (bool ok, ) = sink.call{value: msg.value}(""); require(ok); }
}
contract SelfdestructClaim {
    address payable public immutable sink;
    constructor(address payable sink_) { sink = sink_; }
    function claim() external payable { selfdestruct(sink); }
}

/** The old Gnosis MultiSigWallet's deposit log, the same event as WETH's: event Deposit(address indexed, uint). */
contract OldMultiSigWallet {
    event Deposit(address indexed sender, uint256 value);
    receive() external payable { if (msg.value > 0) emit Deposit(msg.sender, msg.value); }
}
`

const RECIPIENT: Address = '0x1111111111111111111111111111111111111111'
const SINK: Address = '0x2222222222222222222222222222222222222222'
const TREASURY: Address = '0x4444444444444444444444444444444444444444'
const CLAIM = encodeFunctionData({ abi: parseAbi(['function claim() payable']), functionName: 'claim' })
const transfer = (to: Address, value: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] })

describe('balance reads against events and traced transfers', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  }, 60_000)
  afterAll(() => devnet?.stop())

  const client = () => devnetClient(devnet.fixtures.rpcUrl)
  const user = () => getAddress(devnet.fixtures.accounts[0]?.address as Address)

  /** Deploys a contract of TOKENS: the devnet is not rolled back, so every contract gets an address of its own. */
  const deploy = (name: string, args: unknown[] = []) =>
    deployOnDevnet(
      devnet.fixtures.rpcUrl,
      devnet.fixtures.accounts[9]?.address as Address,
      deployable('Tokens.sol', TOKENS, name),
      args,
    )

  async function scan(to: Address, data: Hex, value = 0n) {
    const tx: TxRequest = { from: user(), to, data, value: numberToHex(value) }
    return { response: await scanOnDevnet(devnet.fixtures.rpcUrl, tx), tx }
  }

  const diffsOf = accountDiffs
  const unreliable = (response: ScanTransactionsResponse) =>
    response.warnings.filter((warning) => warning.kind === 'RELIABLE_SIMULATION_NOT_POSSIBLE')

  it('a transfer() without a Transfer event: the reads show 100 SIL sent and received, and a warning names SIL', async () => {
    const token = await deploy('SilentToken', [user()])
    const { response, tx } = await scan(token, transfer(RECIPIENT, parseEther('100')))
    expect(diffsOf(response, user())).toEqual(['Send 100 SIL'])
    expect(diffsOf(response, RECIPIENT)).toEqual(['Receive 100 SIL'])
    const [sent] = response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address] ?? []
    expect(sent?.rawInfo.data).toMatchObject({ counterparty: { address: RECIPIENT.toLowerCase() } })
    expect(unreliable(response).map((warning) => warning.message)).toEqual([expect.stringMatching(/^SIL \(/)])
    expect(response.action).toBe('WARN')
    await expectRealityMatches(devnet.fixtures.rpcUrl, response, tx)
  })

  it('Transfer events that cancel out while the balances move: Send 100 RTT, and a warning names RTT', async () => {
    const token = await deploy('RoundTripToken', [user()])
    const { response, tx } = await scan(token, transfer(RECIPIENT, parseEther('100')))
    expect(diffsOf(response, user())).toEqual(['Send 100 RTT'])
    expect(diffsOf(response, RECIPIENT)).toEqual(['Receive 100 RTT'])
    expect(unreliable(response).map((warning) => warning.message)).toEqual([expect.stringMatching(/^RTT \(/)])
    await expectRealityMatches(devnet.fixtures.rpcUrl, response, tx)
  })

  it('approve(max) without an Approval event: the allowance read shows the unlimited approval, and it is warned', async () => {
    const token = await deploy('SilentToken', [user()])
    const spender = await deploy('CallForwarder', [SINK])
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] })
    const { response, tx } = await scan(token, approve)
    const [change, ...others] =
      response.simulationResults.aggregated.expectedStateChanges[user().toLowerCase() as Address] ?? []
    expect(others).toEqual([])
    expect(change?.rawInfo).toMatchObject({
      kind: 'ERC20_APPROVAL',
      data: { spender: { address: spender.toLowerCase() } },
    })
    expect(change?.humanReadableDiff).toMatch(/unlimited SIL/)
    expect(response.warnings.map((warning) => warning.kind)).toContain('UNLIMITED_ALLOWANCE_TO_UNKNOWN_SPENDER')
    const hash = await client().sendTransaction({ account: user(), to: token, data: tx.data, chain: null })
    await waitForReceipt(client(), hash)
    const allowance = await client().readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [user(), spender],
    })
    expect(allowance).toBe(maxUint256)
  })

  it('a balanceOf that never changes while the events move 100 LIE: the events are shown, and a warning names LIE', async () => {
    const token = await deploy('LyingBalanceToken', [user()])
    const { response } = await scan(token, transfer(RECIPIENT, parseEther('100')))
    expect(diffsOf(response, user())).toEqual(['Send 100 LIE'])
    expect(diffsOf(response, RECIPIENT)).toEqual(['Receive 100 LIE'])
    const [warning] = unreliable(response)
    expect(warning?.message).toMatch(
      /^LIE \(.*by its events your balance changes by -100 LIE, by its balanceOf by 0 LIE/,
    )
  })

  it('a fee token that logs its cut lists the treasury; one that does not is warned about, as executed', async () => {
    const logged = await deploy('FeeToken', [user(), 'FEE', true])
    const honest = await scan(logged, transfer(RECIPIENT, parseEther('100')))
    expect(diffsOf(honest.response, TREASURY)).toEqual(['Receive 3 FEE'])
    expect(unreliable(honest.response)).toEqual([])
    await expectRealityMatches(devnet.fixtures.rpcUrl, honest.response, honest.tx)
    const unlogged = await deploy('FeeToken', [user(), 'SNK', false])
    const sneaky = await scan(unlogged, transfer(RECIPIENT, parseEther('100')))
    expect(diffsOf(sneaky.response, RECIPIENT)).toEqual(['Receive 97 SNK'])
    expect(unreliable(sneaky.response).map((warning) => warning.message)).toEqual([expect.stringMatching(/^SNK \(/)])
  })

  it('ETH forwarded with SELFDESTRUCT: no "Receive 0 ETH" for the contract, and the hidden outflow is a drain warning', async () => {
    const forwarder = await deploy('SelfdestructClaim', [SINK])
    const { response, tx } = await scan(forwarder, CLAIM, parseEther('1'))
    expect(diffsOf(response, user())).toEqual(['Send 1 ETH'])
    expect(diffsOf(response, forwarder)).toEqual([])
    const drains = response.warnings.filter((warning) => warning.kind === 'SUSPECTED_MALICIOUS')
    expect(drains.map((warning) => warning.message)).toEqual([expect.stringMatching(/cannot see: 1 ETH leaves/)])
    expect(response.action).toBe('WARN')
    const sinkBefore = await client().getBalance({ address: SINK })
    await expectRealityMatches(devnet.fixtures.rpcUrl, response, tx)
    expect((await client().getBalance({ address: SINK })) - sinkBefore).toBe(parseEther('1'))
  })

  it('the same claim forwarding with a CALL is traced: the sink is shown, and no untraced outflow is claimed', async () => {
    const forwarder = await deploy('CallForwarder', [SINK])
    const { response } = await scan(forwarder, CLAIM, parseEther('1'))
    expect(diffsOf(response, SINK)).toEqual(['Receive 1 ETH'])
    const drains = response.warnings.filter((warning) => warning.kind === 'SUSPECTED_MALICIOUS')
    expect(drains.map((warning) => warning.message)).toEqual([expect.stringMatching(/would end up with 0x2222/)])
  })

  it('1 ETH paid into a contract that logs Deposit but is no token: only "Send 1 ETH"', async () => {
    const wallet = await deploy('OldMultiSigWallet')
    const { response, tx } = await scan(wallet, '0x', parseEther('1'))
    expect(diffsOf(response, user())).toEqual(['Send 1 ETH'])
    expect(Object.keys(response.simulationResults.aggregated.expectedStateChanges)).toEqual([
      user().toLowerCase(),
      wallet.toLowerCase(),
    ])
    // Reality: the wallet holds the ETH and has no balanceOf (the shared reality check would read it as a token).
    const hash = await client().sendTransaction({
      account: user(),
      to: wallet,
      value: BigInt(tx.value ?? 0),
      chain: null,
    })
    expect((await waitForReceipt(client(), hash)).status).toBe('success')
    expect(await client().getBalance({ address: wallet })).toBe(parseEther('1'))
  })
})
