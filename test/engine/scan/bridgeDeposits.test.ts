/**
 * Across bridge deposits whose funds are paid out to, or refunded to, someone else. Across's own SpokePool
 * (`Ethereum_SpokePool` from @across-protocol/contracts 5.0.27, behind OpenZeppelin's ERC1967Proxy, as deployed) takes
 * the deposit; a second one, on the same devnet, stands for the destination chain's, where a relayer fills it. Reality
 * as the oracle: what the scan says the deposit pays whom is what the fill pays.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  createTestClient,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  pad,
  parseAbi,
  parseAbiParameters,
  parseEther,
  zeroAddress,
  zeroHash,
} from 'viem'
import { beforeEach, describe, expect, it } from 'vitest'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { acrossSpokePoolAbi, wethAbi } from '../../../src/engine/abi/index.ts'
import { type ScanTransactionsResponse, scanMessageWithStats, scanTransactions } from '../../../src/engine/index.ts'
import { bridgeDeposits } from '../../../src/engine/risk/bridgeDeposits.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { runtimeCode } from '../../support/solc.ts'
import { walletTypedData } from '../../support/userOperations.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'
import { devnetSigners } from '../protocolSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const require = createRequire(import.meta.url)
const artifact = (path: string) => require(path) as { abi: Abi; bytecode: Hex }
const SPOKE_POOL = artifact(
  '@across-protocol/contracts/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json',
)
const PROXY = artifact('@openzeppelin/contracts/build/contracts/ERC1967Proxy.json')

const fx = devnetRolledBackPerTest()
const { account, chain, wallet } = devnetSigners(fx)

const user = () => account(0).address
const attacker = () => account(7).address
const relayer = () => account(8).address
const word = (address: Address) => pad(address).toLowerCase() as Hex

/** A SpokePool as Across deploys one: the implementation, then a proxy initialised with it. */
async function deploySpokePool(): Promise<Address> {
  const deploy = async (abi: Abi, bytecode: Hex, args: unknown[]) => {
    const hash = await wallet(9).deployContract({ abi, bytecode, args })
    const receipt = await waitForReceipt(chain(), hash)
    return getAddress(receipt.contractAddress as Address)
  }
  const implementation = await deploy(SPOKE_POOL.abi, SPOKE_POOL.bytecode, [
    fx().weth.address,
    3600,
    21600,
    zeroAddress,
  ])
  const initialize = encodeFunctionData({
    abi: SPOKE_POOL.abi,
    functionName: 'initialize',
    args: [0, account(9).address],
  })
  return deploy(PROXY.abi, PROXY.bytecode, [implementation, initialize])
}

let origin: Address
let destination: Address
let now: number

beforeEach(async () => {
  origin = await deploySpokePool()
  destination = await deploySpokePool()
  now = Number((await chain().getBlock()).timestamp)
})

/** 1 ETH bridged to the devnet's own chain id (where `destination` stands), paying out 0.99 WETH's worth. */
function deposit(fields: { depositor?: Address; recipient?: Address; message?: Hex; outputAmount?: bigint } = {}) {
  return {
    depositor: word(fields.depositor ?? user()),
    recipient: word(fields.recipient ?? user()),
    inputToken: word(fx().weth.address),
    outputToken: word(fx().weth.address),
    inputAmount: parseEther('1'),
    outputAmount: fields.outputAmount ?? parseEther('0.99'),
    destinationChainId: 31337n,
    exclusiveRelayer: zeroHash,
    quoteTimestamp: now,
    fillDeadline: now + 3600,
    exclusivityParameter: 0,
    message: fields.message ?? '0x',
  } as const
}
type Deposit = ReturnType<typeof deposit>

const depositCall = (fields: Deposit) =>
  encodeFunctionData({
    abi: acrossSpokePoolAbi,
    functionName: 'deposit',
    args: [
      fields.depositor,
      fields.recipient,
      fields.inputToken,
      fields.outputToken,
      fields.inputAmount,
      fields.outputAmount,
      fields.destinationChainId,
      fields.exclusiveRelayer,
      fields.quoteTimestamp,
      fields.fillDeadline,
      fields.exclusivityParameter,
      fields.message,
    ],
  })

async function scan(data: Hex, value: bigint, to: Address = origin): Promise<ScanTransactionsResponse> {
  const outcome = await scanTransactions(
    {
      txObjects: [{ from: user(), to, data, value: value.toString() }],
      userAccount: user(),
      metadata: { origin: 'https://bridge.example' },
    },
    { rpcUrl: fx().rpcUrl },
  )
  if (!outcome.ok) throw new Error(outcome.error.message)
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

/** A new recipient for a deposit, signed by its depositor (Across's speed-up), which relayers must honour. */
type Update = { recipient: Address; signature: Hex }

/**
 * Sends the deposit from the user; then a relayer fills it on `destination` as the deposit event reads, or as its
 * depositor's signed `update` redirects it.
 */
async function depositAndFill(
  data: Hex,
  value: bigint,
  update?: Update,
  to: Address = origin,
): Promise<{ paid: Address; amount: bigint }> {
  const sent = await waitForReceipt(chain(), await wallet(0).sendTransaction({ to, data, value }))
  expect(sent.status).toBe('success')
  const [made] = bridgeDeposits(sent.logs as never)
  if (!made) throw new Error('no deposit event')
  const relayData = {
    depositor: made.depositor,
    recipient: made.recipient,
    exclusiveRelayer: zeroHash,
    inputToken: made.inputToken,
    outputToken: made.outputToken,
    inputAmount: made.inputAmount,
    outputAmount: made.outputAmount,
    originChainId: 31337n,
    depositId: 0n,
    fillDeadline: now + 3600,
    exclusivityDeadline: 0,
    message: made.message,
  }
  const paid = update?.recipient ?? getAddress(`0x${made.recipient.slice(26)}`)
  const before = await chain().getBalance({ address: paid })
  const weth = fx().weth.address
  const relay = wallet(8)
  await waitForReceipt(
    chain(),
    await relay.writeContract({ address: weth, abi: wethAbi, functionName: 'deposit', value: parseEther('1') }),
  )
  await waitForReceipt(
    chain(),
    await relay.writeContract({
      address: weth,
      abi: erc20Abi,
      functionName: 'approve',
      args: [destination, parseEther('1')],
    }),
  )
  const fill = await relay.writeContract({
    address: destination,
    abi: SPOKE_POOL.abi,
    ...(update
      ? {
          functionName: 'fillRelayWithUpdatedDeposit',
          args: [
            relayData,
            31337n,
            word(relayer()),
            relayData.outputAmount,
            word(update.recipient),
            '0x',
            update.signature,
          ],
        }
      : { functionName: 'fillRelay', args: [relayData, 31337n, word(relayer())] }),
  })
  expect((await waitForReceipt(chain(), fill)).status).toBe('success')
  return { paid, amount: (await chain().getBalance({ address: paid })) - before }
}

/** Across's speed-up: the depositor's signature of a new recipient (and amount) for deposit `depositId`. */
function redirect(depositId: bigint, recipient: Address) {
  return {
    domain: { name: 'ACROSS-V2', version: '1.0.0', chainId: 31337 },
    types: {
      UpdateDepositDetails: [
        { name: 'depositId', type: 'uint256' },
        { name: 'originChainId', type: 'uint256' },
        { name: 'updatedOutputAmount', type: 'uint256' },
        { name: 'updatedRecipient', type: 'bytes32' },
        { name: 'updatedMessage', type: 'bytes' },
      ],
    },
    primaryType: 'UpdateDepositDetails',
    message: {
      depositId,
      originChainId: 31337n,
      updatedOutputAmount: parseEther('0.99'),
      updatedRecipient: word(recipient),
      updatedMessage: '0x',
    },
  } as const
}

const warningsOf = (response: { warnings: ScanTransactionsResponse['warnings'] }) =>
  response.warnings.map((warning) => [warning.kind, warning.severity, warning.message])

const ROUTER: Address = '0x0000000000000000000000000000000000a0c105'

/**
 * A bridge page's router: takes calldata shaped as the SpokePool's `deposit` and deposits with the ETH sent, but names
 * `thief` its depositor and recipient whatever the calldata says.
 */
const routerSource = (pool: Address, thief: Address) => `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
contract Router {
    fallback() external payable {
        bytes32 thief = bytes32(uint256(uint160(${thief})));
        (bool ok,) = ${pool}.call{value: msg.value}(abi.encodePacked(msg.data[0:4], thief, thief, msg.data[68:]));
        require(ok, "deposit failed");
    }
}`

describe('Across deposits', () => {
  it('a deposit that pays out to the user: NONE, and the fill pays the user', async () => {
    const data = depositCall(deposit())
    const response = await scan(data, parseEther('1'))
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    const { paid, amount } = await depositAndFill(data, parseEther('1'))
    expect(paid).toBe(user())
    // The pool pays native ETH for wrapped native output with no message: the user's balance grows by 0.99 ETH.
    expect(amount).toBe(parseEther('0.99'))
  })

  it('a deposit that pays out to another address: WARN naming it, and the fill pays that address', async () => {
    const data = depositCall(deposit({ recipient: attacker() }))
    const response = await scan(data, parseEther('1'))
    expect(response.action).toBe('WARN')
    const short = `${attacker().slice(0, 6)}…${attacker().slice(-4)}`.toLowerCase()
    expect(warningsOf(response)).toEqual([
      [
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        expect.stringMatching(
          new RegExp(`^This bridges 1 WETH through Across and pays it out on .* to ${short}, not to you`, 'i'),
        ),
      ],
    ])
    expect(response.warnings[0]?.data).toMatchObject({ bridge: 'Across', recipient: word(attacker()) })
    const { paid, amount } = await depositAndFill(data, parseEther('1'))
    expect(paid).toBe(attacker())
    expect(amount).toBe(parseEther('0.99'))
  })

  it('a deposit that names another depositor: WARN, and that depositor redirects the payout to itself', async () => {
    const data = depositCall(deposit({ depositor: attacker() }))
    const response = await scan(data, parseEther('1'))
    expect(response.action).toBe('WARN')
    expect(warningsOf(response)).toEqual([
      ['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING', expect.stringContaining('as its depositor, not you')],
    ])
    const signature = await account(7).signTypedData(redirect(0n, attacker()))
    const { paid, amount } = await depositAndFill(data, parseEther('1'), { recipient: attacker(), signature })
    expect(paid).toBe(attacker())
    expect(amount).toBe(parseEther('0.99'))
  })

  it('a signed redirection of the user’s deposit to another address: WARN, and relayers pay that address', async () => {
    const data = depositCall(deposit())
    const signed = (recipient: Address) =>
      scanOk(
        {
          message: { kind: 'SIGN_TYPED_DATA', data: walletTypedData(redirect(0n, recipient)) },
          userAccount: user(),
          metadata: { origin: 'https://bridge.example' },
        },
        fx().rpcUrl,
      )
    const honest = await signed(user())
    expect(honest.response.warnings).toEqual([])
    expect(honest.response.action).toBe('NONE')
    const { response } = await signed(attacker())
    expect(messageResponseValidator()(response)).toEqual([])
    expect(response.action).toBe('WARN')
    const short = `${attacker().slice(0, 6)}…${attacker().slice(-4)}`.toLowerCase()
    expect(warningsOf(response)).toEqual([
      [
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'WARNING',
        `This signature redirects Across deposit #0 made on Foundry (chain 31337): relayers then pay it out to ${short}, not to you. Sign it only if ${short} is yours.`,
      ],
    ])
    const signature = await account(0).signTypedData(redirect(0n, attacker()))
    const { paid, amount } = await depositAndFill(data, parseEther('1'), { recipient: attacker(), signature })
    expect(paid).toBe(attacker())
    expect(amount).toBe(parseEther('0.99'))
  })

  it('a deposit a contract makes with the ETH the user sends it, for another address: WARN, as the fill pays', async () => {
    await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
      address: ROUTER,
      bytecode: runtimeCode('Router.sol', routerSource(origin, attacker()), 'Router'),
    })
    const data = depositCall(deposit())
    const response = await scan(data, parseEther('1'), ROUTER)
    expect(response.action).toBe('WARN')
    expect(warningsOf(response)).toEqual([
      ['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING', expect.stringContaining('pays it out')],
      ['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING', expect.stringContaining('as its depositor, not you')],
    ])
    const { paid, amount } = await depositAndFill(data, parseEther('1'), undefined, ROUTER)
    expect(paid).toBe(attacker())
    expect(amount).toBe(parseEther('0.99'))
  })

  it('a deposit that pays out 1 wei for 1 ETH: TRADE_FOR_NOTHING, BLOCK; filled, the user gets 1 wei', async () => {
    const data = depositCall(deposit({ outputAmount: 1n }))
    const response = await scan(data, parseEther('1'))
    expect(response.action).toBe('BLOCK')
    expect(warningsOf(response)).toEqual([
      [
        'TRADE_FOR_NOTHING',
        'CRITICAL',
        'This Across deposit takes 1 WETH but pays out only <0.000001 WETH on Foundry (chain 31337): the ' +
          'relayer that fills it is repaid what you put in and keeps the difference.',
      ],
    ])
    const { paid, amount } = await depositAndFill(data, parseEther('1'))
    expect(paid).toBe(user())
    expect(amount).toBe(1n)
    // The whole ether stays in the origin pool, to repay the relayer.
    expect(
      await chain().readContract({
        address: fx().weth.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [origin],
      }),
    ).toBe(parseEther('1'))
  })

  it('a deposit that pays out 0.4 of what it takes: a WARNING; 0.99, an honest fee, nothing', async () => {
    const response = await scan(depositCall(deposit({ outputAmount: parseEther('0.4') })), parseEther('1'))
    expect(warningsOf(response)).toEqual([
      ['TRADE_FOR_NOTHING', 'WARNING', expect.stringContaining('pays out only 0.4 WETH')],
    ])
  })

  it('a deposit with instructions for its recipient says they cannot be checked', async () => {
    const response = await scan(depositCall(deposit({ recipient: attacker(), message: '0x1234' })), parseEther('1'))
    expect(response.warnings[0]?.message).toContain('instructions that address follows on arrival')
  })
})

/** The EIP-712 types Across's periphery verifies, read from its PeripherySigningLib: "Name(type field,…)" each. */
function peripheryTypes(): Record<string, { name: string; type: string }[]> {
  const source = readFileSync(
    require.resolve('@across-protocol/contracts/contracts/libraries/PeripherySigningLib.sol'),
    'utf8',
  ).replaceAll(/"\s*\n\s*"/g, '')
  const types: Record<string, { name: string; type: string }[]> = {}
  for (const [, name, fields] of source.matchAll(/"(Fees|BaseDepositData|DepositData|TokenPermissions)\(([^)]*)\)"/g)) {
    types[name as string] = (fields as string).split(',').map((field) => {
      const [type, fieldName] = field.split(' ')
      return { name: fieldName as string, type: type as string }
    })
  }
  return types
}

/** The mainnet SpokePool and SpokePoolPeriphery (@across-protocol/contracts' deployed-addresses.json). */
const MAINNET_POOL: Address = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5'
const MAINNET_PERIPHERY: Address = '0x97CCDBea4632140639aD5eA9b944aa034eb15fD4'

describe('Across deposits signed for its periphery', () => {
  /** A Permit2 transfer of 100.1 tokens to the periphery, whose witness deposits 100 of them and pays 0.1 as fee. */
  const signed = (fields: { spokePool?: Address; recipient?: Address; fee?: bigint } = {}) => {
    const { Fees, BaseDepositData, DepositData, TokenPermissions } = peripheryTypes()
    const fee = fields.fee ?? 100_000n
    return {
      domain: { name: 'Permit2', chainId: 1, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        PermitWitnessTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          { name: 'witness', type: 'DepositData' },
        ],
        TokenPermissions,
        DepositData,
        BaseDepositData,
        Fees,
      },
      primaryType: 'PermitWitnessTransferFrom',
      message: {
        permitted: { token: fx().erc20.address, amount: (100_000_000n + fee).toString() },
        spender: MAINNET_PERIPHERY,
        nonce: '7',
        deadline: String(now + 600),
        witness: {
          submissionFees: { amount: fee.toString(), recipient: relayer() },
          baseDepositData: {
            inputToken: fx().erc20.address,
            outputToken: word('0xaf88d065e77c8cC2239327C5EDb3A432268e5831'),
            outputAmount: '99900000',
            depositor: user(),
            recipient: word(fields.recipient ?? user()),
            destinationChainId: '42161',
            exclusiveRelayer: zeroHash,
            quoteTimestamp: now,
            fillDeadline: now + 3600,
            exclusivityParameter: 0,
            message: '0x',
          },
          inputAmount: '100000000',
          spokePool: fields.spokePool ?? MAINNET_POOL,
          nonce: '7',
        },
      },
    }
  }

  const scanSigned = async (data: unknown) => {
    // The periphery has code on mainnet: given some here, as the scan reads it.
    await createTestClient({ mode: 'anvil', transport: http(fx().rpcUrl) }).setCode({
      address: MAINNET_PERIPHERY,
      bytecode: '0x00',
    })
    const { outcome } = await scanMessageWithStats(
      {
        message: { kind: 'SIGN_TYPED_DATA', data },
        userAccount: user(),
        metadata: { origin: 'https://bridge.example' },
      },
      { rpcUrl: fx().rpcUrl, chainId: 1, now: () => now },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    expect(messageResponseValidator()(outcome.response)).toEqual([])
    return outcome.response
  }

  it('a deposit into Across’s SpokePool for the signer, with a small fee: NONE', async () => {
    const response = await scanSigned(signed())
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
  })

  it('a SpokePool that is not Across’s is handed the funds: BLOCK', async () => {
    const response = await scanSigned(signed({ spokePool: attacker() }))
    expect(response.action).toBe('BLOCK')
    expect(warningsOf(response)).toEqual([
      ['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'CRITICAL', expect.stringContaining('which is not an Across SpokePool')],
    ])
  })

  it('a payout to another address, or a fee of half the deposit: WARN', async () => {
    const elsewhere = await scanSigned(signed({ recipient: attacker() }))
    expect(elsewhere.action).toBe('WARN')
    expect(warningsOf(elsewhere)).toEqual([
      ['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING', expect.stringMatching(/pays out on Arbitrum One .* not to you/)],
    ])
    // Signed beside an EIP-2612 permit instead (depositWithPermit), the deposit is the message itself.
    const permit2 = signed({ recipient: attacker() })
    const { PermitWitnessTransferFrom, TokenPermissions, ...deposit } = permit2.types
    const beside = await scanSigned({
      domain: { name: 'ACROSS-PERIPHERY', version: '1.0.0', chainId: 1, verifyingContract: MAINNET_PERIPHERY },
      types: {
        ...deposit,
        EIP712Domain: [...deposit.EIP712Domain, { name: 'version', type: 'string' }],
        SignedDepositData: [
          { name: 'depositData', type: 'DepositData' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'SignedDepositData',
      message: { depositData: permit2.message.witness, deadline: String(now + 600) },
    })
    expect(warningsOf(beside)).toEqual(warningsOf(elsewhere))
    const fee = await scanSigned(signed({ fee: 50_000_000n }))
    expect(fee.action).toBe('WARN')
    expect(warningsOf(fee)).toEqual([
      ['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING', expect.stringContaining('a fee of more than a tenth')],
    ])
  })
})

describe('bridgeDeposits', () => {
  it('reads the V3 event, accounts as addresses, into the same 32-byte words', () => {
    const [event] = parseAbi([
      'event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)',
    ])
    const [weth, depositor, recipient] = [
      '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      '0x00000000000000000000000000000000000000d1',
      '0x00000000000000000000000000000000000000e2',
    ] as const
    const topics = encodeEventTopics({ abi: [event], args: { destinationChainId: 10n, depositId: 7, depositor } })
    const data = encodeAbiParameters(
      parseAbiParameters(
        'address, address, uint256, uint256, uint32, uint32, uint32, address recipient, address, bytes message',
      ),
      [weth, weth, 5n, 4n, 1, 2, 0, recipient, zeroAddress, '0xab'],
    )
    const log = { address: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5' as Address, topics: topics as Hex[], data }
    expect(bridgeDeposits([log, { ...log, data: '0x' }])).toEqual([
      {
        pool: log.address,
        inputToken: word(weth),
        inputAmount: 5n,
        outputToken: word(weth),
        outputAmount: 4n,
        destinationChainId: 10n,
        depositor: word(depositor),
        recipient: word(recipient),
        message: '0xab',
      },
    ])
  })
})
