/**
 * Settings of Safe 1.5.0's ExtensibleFallbackHandler that give away the Safe's signature: a domain verifier decides
 * every EIP-1271 check of the Safe for one EIP-712 domain, a method handler answers a call in the Safe's name. The Safe
 * calls itself and its fallback forwards the call to the handler, so the Safe's configuration does not change. The
 * handler here is a stand-in with the real one's setters, events and caller check (HandlerContext), placed at the
 * real one's canonical address: the engine reads the calldata and the events, never the handler's code.
 */
import {
  type Address,
  concat,
  createTestClient,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  http,
  keccak256,
  pad,
  parseAbi,
  size,
  stringToHex,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { execTransactionData } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { SAFE_SCENARIOS, safeAttacker } from '../../../src/devnet/safeProposals.ts'
import { type SafeTx, scanTransactionsWithStats, type Warning } from '../../../src/engine/index.ts'
import { safeDeployment } from '../../../src/engine/safe/deployments.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { devnetClients, ownerSignatures, scanSafeProposal } from '../safeSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const HANDLER_SETTINGS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
/// The settings of Safe 1.5.0's ExtensibleFallbackHandler as it writes them: the Safe forwards a call it does not
/// know with its caller appended, and only the Safe itself may change its own settings.
contract HandlerSettings {
    event ChangedDomainVerifier(address indexed safe, bytes32 domainSeparator, address oldVerifier, address newVerifier);
    event ChangedSafeMethod(address indexed safe, bytes4 selector, bytes32 oldMethod, bytes32 newMethod);

    mapping(address => mapping(bytes32 => address)) public domainVerifiers;
    mapping(address => mapping(bytes4 => bytes32)) public safeMethods;

    modifier onlySelf() {
        address sender;
        assembly { sender := shr(96, calldataload(sub(calldatasize(), 20))) }
        require(sender == msg.sender, "only safe can call this method");
        _;
    }

    function setDomainVerifier(bytes32 domainSeparator, address newVerifier) external onlySelf {
        address old = domainVerifiers[msg.sender][domainSeparator];
        domainVerifiers[msg.sender][domainSeparator] = newVerifier;
        emit ChangedDomainVerifier(msg.sender, domainSeparator, old, newVerifier);
    }

    function setSafeMethod(bytes4 selector, bytes32 newMethod) external onlySelf {
        bytes32 old = safeMethods[msg.sender][selector];
        safeMethods[msg.sender][selector] = newMethod;
        emit ChangedSafeMethod(msg.sender, selector, old, newMethod);
    }
}
`

/** ExtensibleFallbackHandler 1.5.0's canonical address (safe-deployments). */
const EXTENSIBLE_FALLBACK_HANDLER: Address = '0x85a8ca358D388530ad0fB95D0cb89Dd44Fc242c3'
const PERMIT2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const COMPOSABLE_COW: Address = '0xfdaFc9d1902f4e0b84f65F49f244b32b31013b74'

const fx = devnetRolledBackPerTest()
const { chain, wallet } = devnetClients(fx)
const abi = parseAbi([
  'function nonce() view returns (uint256)',
  'function setFallbackHandler(address handler)',
  'function setDomainVerifier(bytes32 domainSeparator, address newVerifier)',
  'function setSafeMethod(bytes4 selector, bytes32 newMethod)',
  'function domainVerifiers(address safe, bytes32 domainSeparator) view returns (address)',
  'function multiSend(bytes transactions) payable',
  'function execTransactionFromModule(address to, uint256 value, bytes data, uint8 operation)',
])
const nonce = () => chain().readContract({ address: fx().safe.address, abi, functionName: 'nonce' })
const attacker = () => safeAttacker(fx())
const packed = (to: Address, data: Hex): Hex =>
  encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0n, BigInt(size(data)), data])

/** Permit2's EIP-712 domain separator on the devnet's chain. */
const permit2Domain = () =>
  keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [
        keccak256(stringToHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
        keccak256(stringToHex('Permit2')),
        BigInt(fx().chainId),
        PERMIT2,
      ],
    ),
  )
const setVerifier = (verifier: Address) =>
  encodeFunctionData({ abi, functionName: 'setDomainVerifier', args: [permit2Domain(), verifier] })
const setHandler = () =>
  encodeFunctionData({ abi, functionName: 'setFallbackHandler', args: [EXTENSIBLE_FALLBACK_HANDLER] })

async function placeHandler(): Promise<void> {
  const code = runtimeCode('HandlerSettings.sol', HANDLER_SETTINGS, 'HandlerSettings')
  await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
    address: EXTENSIBLE_FALLBACK_HANDLER,
    bytecode: code,
  })
}

const scanProposal = (tx: SafeTx) => scanSafeProposal(fx(), tx)

/** Owners 0 and 1 sign, dev account 7 executes. */
async function execute(tx: SafeTx): Promise<void> {
  const data = execTransactionData(tx, await ownerSignatures(fx(), tx))
  const hash = await wallet(7).sendTransaction({ to: fx().safe.address, data })
  expect((await waitForReceipt(chain(), hash)).status).toBe('success')
}

const verifierOf = () =>
  chain().readContract({
    address: EXTENSIBLE_FALLBACK_HANDLER,
    abi,
    functionName: 'domainVerifiers',
    args: [fx().safe.address, permit2Domain()],
  })

const handlerWarnings = (warnings: Warning[]) =>
  warnings.filter(
    (warning) =>
      typeof warning.data === 'object' &&
      warning.data &&
      ('domainVerifier' in warning.data || 'selector' in warning.data),
  )

describe('a setting of the ExtensibleFallbackHandler that gives away the Safe’s signature', () => {
  it('Safe already on the handler; setDomainVerifier(Permit2’s domain, attacker) → CRITICAL, BLOCK; executed, it holds', async () => {
    expect(safeDeployment(EXTENSIBLE_FALLBACK_HANDLER)?.name).toBe('ExtensibleFallbackHandler')
    await placeHandler()
    await execute(plainSafeTx(fx().safe.address, 0n, await nonce(), setHandler()))
    const tx = plainSafeTx(fx().safe.address, 0n, await nonce(), setVerifier(attacker()))
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(handlerWarnings(response.warnings)).toEqual([
      expect.objectContaining({
        severity: 'CRITICAL',
        kind: 'SET_OWNER_AUTHORITY',
        data: {
          safe: fx().safe.address.toLowerCase(),
          field: 'fallbackHandler',
          domainSeparator: permit2Domain(),
          domainVerifier: attacker().toLowerCase(),
        },
      }),
    ])
    expect(handlerWarnings(response.warnings)[0]?.message).toContain('counts as signed by the Safe')
    await execute(tx)
    expect(await verifierOf()).toBe(attacker())
  })

  it('one batch: set the handler, then the domain verifier → CRITICAL, BLOCK', async () => {
    await placeHandler()
    const batch = concat([packed(fx().safe.address, setHandler()), packed(fx().safe.address, setVerifier(attacker()))])
    const data = encodeFunctionData({ abi, functionName: 'multiSend', args: [batch] })
    const tx = { ...plainSafeTx(fx().safeContracts.multiSendCallOnly, 0n, await nonce(), data), operation: 1 }
    const response = await scanProposal(tx)
    expect(response.action).toBe('BLOCK')
    expect(handlerWarnings(response.warnings).map((warning) => warning.severity)).toEqual(['CRITICAL'])
    await execute(tx)
    expect(await verifierOf()).toBe(attacker())
  })

  it('setSafeMethod routing a selector to an unknown handler → CRITICAL, BLOCK', async () => {
    await placeHandler()
    await execute(plainSafeTx(fx().safe.address, 0n, await nonce(), setHandler()))
    // isValidSignature(bytes,bytes), the legacy EIP-1271 check, answered by the attacker (a non-static method).
    const method = concat(['0x01', pad(attacker(), { size: 31 })])
    const data = encodeFunctionData({ abi, functionName: 'setSafeMethod', args: ['0x20c13b0b', method] })
    const response = await scanProposal(plainSafeTx(fx().safe.address, 0n, await nonce(), data))
    expect(response.action).toBe('BLOCK')
    expect(handlerWarnings(response.warnings)).toEqual([
      expect.objectContaining({
        severity: 'CRITICAL',
        data: {
          safe: fx().safe.address.toLowerCase(),
          field: 'fallbackHandler',
          selector: '0x20c13b0b',
          methodHandler: attacker().toLowerCase(),
        },
      }),
    ])
  })

  it('ComposableCoW as a domain’s verifier, as Safe{Wallet} sets it for CoW orders → WARNING only', async () => {
    await placeHandler()
    await execute(plainSafeTx(fx().safe.address, 0n, await nonce(), setHandler()))
    const response = await scanProposal(plainSafeTx(fx().safe.address, 0n, await nonce(), setVerifier(COMPOSABLE_COW)))
    expect(response.action).toBe('WARN')
    expect(handlerWarnings(response.warnings).map((warning) => warning.severity)).toEqual(['WARNING'])
    expect(handlerWarnings(response.warnings)[0]?.message).toContain('ComposableCoW')
  })

  it('set by a module’s inner call the calldata does not show → CRITICAL from the handler’s event', async () => {
    await placeHandler()
    await execute(plainSafeTx(fx().safe.address, 0n, await nonce(), setHandler()))
    await execute(SAFE_SCENARIOS['safe-enable-module'].build(fx(), await nonce()))
    // The module's own logic would make this call; anvil lets the test send it as the module.
    const data = encodeFunctionData({
      abi,
      functionName: 'execTransactionFromModule',
      args: [fx().safe.address, 0n, setVerifier(attacker()), 0],
    })
    const { outcome } = await scanTransactionsWithStats(
      {
        txObjects: [{ from: fx().safeAttacks.module, to: fx().safe.address, data }],
        userAccount: fx().safe.address,
        metadata: { origin: 'https://example.org' },
      },
      { rpcUrl: fx().rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    expect(outcome.response.action).toBe('BLOCK')
    expect(handlerWarnings(outcome.response.warnings)).toEqual([
      expect.objectContaining({
        severity: 'CRITICAL',
        data: expect.objectContaining({ domainVerifier: attacker().toLowerCase() }),
      }),
    ])
  })
})
