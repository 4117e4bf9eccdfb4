/**
 * Safe signatures by hash against the devnet's 2-of-3 Safe: a Safe message (EIP-1271) signed by its owners as typed
 * data, an owner's approveHash and an on-chain signature through SignMessageLib. Reality is the oracle: the owners'
 * signatures of the scanned message make the Safe accept the hidden hash, the executed SignMessageLib call makes it
 * accept the hash with no signature at all, and the approved hash is recorded for the owner.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseAbi,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { safePermitHash } from '../../../src/devnet/dapp/requests.ts'
import { plainSafeTx } from '../../../src/devnet/eip712.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { scanTransactionsWithStats, type Warning } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { ownersExecution, ownersSign } from '../../support/safeExecution.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const safeAbi = parseAbi([
  'function getMessageHash(bytes message) view returns (bytes32)',
  'function isValidSignature(bytes32 dataHash, bytes signature) view returns (bytes4)',
  'function approvedHashes(address owner, bytes32 hash) view returns (uint256)',
  'function approveHash(bytes32 hashToApprove)',
  'function nonce() view returns (uint256)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
])
const signMessageLibAbi = parseAbi(['function signMessage(bytes _data)'])
/** What EIP-1271's isValidSignature(bytes32, bytes) answers for a valid signature. */
const MAGIC_VALUE = '0x1626ba7e'
const SAFE_MESSAGE_FIELDS = [{ name: 'message', type: 'bytes' }]

// Each test executes transactions for real; the devnet goes back to its fixtures afterwards.
const fx = devnetRolledBackPerTest()
const owner = (index: number) => fx().accounts[index]?.address as Address
const kinds = (warnings: Warning[]) => warnings.map((warning) => `${warning.severity} ${warning.kind}`)
const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
const validateMessage = messageResponseValidator()

/** The SafeMessage typed data Safe{Wallet} asks each owner to sign for `message`. */
function safeMessage(
  message: Hex,
  overrides: { chainId?: number; primaryType?: string; verifyingContract?: Address } = {},
) {
  const primaryType = overrides.primaryType ?? 'SafeMessage'
  return {
    types: {
      EIP712Domain: [
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      [primaryType]: SAFE_MESSAGE_FIELDS,
    },
    primaryType,
    domain: {
      chainId: overrides.chainId ?? fx().chainId,
      verifyingContract: overrides.verifyingContract ?? fx().safe.address,
    },
    message: { message },
  }
}

async function scanSafeMessage(data: unknown, signer: Address) {
  const result = await scanOk(
    {
      message: { kind: 'SIGN_TYPED_DATA', data },
      userAccount: signer,
      metadata: { origin: 'https://app.safe.global' },
    },
    fx().rpcUrl,
  )
  expect(validateMessage(result.response)).toEqual([])
  return result
}

async function scanTransaction(from: Address, to: Address, data: Hex, userAccount = from) {
  const { outcome } = await scanTransactionsWithStats(
    { txObjects: [{ from, to, data }], userAccount, metadata: { origin: 'https://app.safe.global' } },
    { rpcUrl: fx().rpcUrl },
  )
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  validateTransactionsResponse(outcome.response)
  return outcome.response
}

/** The Safe's execTransaction, signed by owners 0 and 1, that delegate-calls SignMessageLib to sign `bytes` on chain. */
async function signMessageExecution(bytes: Hex): Promise<Hex> {
  const nonce = await chain().readContract({ address: fx().safe.address, abi: safeAbi, functionName: 'nonce' })
  const signMessage = encodeFunctionData({ abi: signMessageLibAbi, functionName: 'signMessage', args: [bytes] })
  return ownersExecution(fx(), {
    ...plainSafeTx(fx().safeContracts.signMessageLib, 0n, nonce, signMessage),
    operation: 1,
  })
}

async function isValidSignature(hash: Hex, signature: Hex): Promise<Hex | 'reverted'> {
  return chain()
    .readContract({
      address: fx().safe.address,
      abi: safeAbi,
      functionName: 'isValidSignature',
      args: [hash, signature],
    })
    .catch(() => 'reverted' as const)
}

describe('Safe messages (EIP-1271)', () => {
  it('warns that the Safe would sign a hash it cannot show, and the owners’ signatures make the Safe accept it', async () => {
    const hidden = safePermitHash(fx())
    const { response, roundTrips } = await scanSafeMessage(safeMessage(hidden), owner(1))
    expect(roundTrips).toBe(1)
    expect(response.action).toBe('WARN')
    expect(kinds(response.warnings)).toEqual(['WARNING MULTISIG_BLIND_SIGNATURE'])
    const [warning] = response.warnings
    expect(warning?.message).toContain(`whatever message has the hash ${hidden}`)
    expect(warning?.message).toContain('once 2 owners have signed')
    const context = response.simulationResults.safeMessage
    expect(context).toMatchObject({
      wallet: fx().safe.address.toLowerCase(),
      version: '1.4.1',
      threshold: 2,
      owners: fx().safe.owners.map((address) => address.toLowerCase()),
      message: hidden,
      text: null,
    })
    expect(response.simulationResults.protocol?.name).toBe('Safe')
    expect(response.simulationResults.expectedStateChanges).toEqual([])

    // The hash reported is the one the Safe itself checks signatures against.
    const encoded = encodeAbiParameters([{ type: 'bytes32' }], [hidden])
    const onChain = await chain().readContract({
      address: fx().safe.address,
      abi: safeAbi,
      functionName: 'getMessageHash',
      args: [encoded],
    })
    expect(context?.safeMessageHash).toBe(onChain)
    expect(warning?.data).toMatchObject({ signs: hidden, safeMessageHash: onChain })

    // Two owners sign what the window showed; from then on the Safe answers for the hidden permit as its own.
    const signed = await ownersSign(fx(), (key) =>
      privateKeyToAccount(key).signTypedData({
        domain: { chainId: fx().chainId, verifyingContract: fx().safe.address },
        types: { SafeMessage: SAFE_MESSAGE_FIELDS },
        primaryType: 'SafeMessage',
        message: { message: hidden },
      }),
    )
    expect(await isValidSignature(hidden, signed)).toBe(MAGIC_VALUE)
    expect(await isValidSignature(keccak256(hidden), signed)).toBe('reverted')
  })

  it('shows a message that is text, and does not warn about it', async () => {
    const { response } = await scanSafeMessage(safeMessage(toHex('Sign in to app.example.org')), owner(0))
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.safeMessage?.text).toBe('Sign in to app.example.org')
  })

  it('adds the signer, chain and hash checks of Safe transactions', async () => {
    const hidden = safePermitHash(fx())
    const stranger = await scanSafeMessage(safeMessage(hidden), owner(6))
    expect(kinds(stranger.response.warnings)).toEqual([
      'WARNING MULTISIG_SIGNER_NOT_OWNER',
      'WARNING MULTISIG_BLIND_SIGNATURE',
    ])
    expect(stranger.response.warnings[0]?.message).toContain('so your signature does not count toward the Safe’s')

    const otherChain = await scanSafeMessage(safeMessage(hidden, { chainId: 1 }), owner(0))
    expect(otherChain.response.action).toBe('BLOCK')
    expect(kinds(otherChain.response.warnings)).toEqual([
      'CRITICAL MULTISIG_CHAIN_MISMATCH',
      'WARNING MULTISIG_BLIND_SIGNATURE',
    ])

    // Renamed, the struct hashes to something the Safe never checks: the signature confirms nothing.
    const renamed = await scanSafeMessage(safeMessage(hidden, { primaryType: 'Message' }), owner(0))
    expect(kinds(renamed.response.warnings)).toEqual([
      'WARNING MULTISIG_HASH_MISMATCH',
      'WARNING MULTISIG_BLIND_SIGNATURE',
    ])
    expect(renamed.response.warnings[0]?.message).toContain(
      renamed.response.simulationResults.safeMessage?.safeMessageHash,
    )
  })

  it('reports the shape for a contract that is no Safe here as unsupported, not as a message with no issues', async () => {
    const { response } = await scanSafeMessage(
      safeMessage(safePermitHash(fx()), { verifyingContract: fx().erc20.address }),
      owner(0),
    )
    expect(response.simulationResults.error?.kind).toBe('UNSUPPORTED_MESSAGE')
    expect(response.simulationResults.error?.humanReadableError).toContain('is not a Safe on this chain')
    expect(kinds(response.warnings)).toEqual(['WARNING RELIABLE_SIMULATION_NOT_POSSIBLE'])
    expect(response.action).toBe('WARN')
    expect(response.simulationResults.safeMessage).toBeUndefined()
  })

  it('leaves typed data with a single bytes field under a named domain to the generic reading', async () => {
    const data = safeMessage(safePermitHash(fx()))
    const named = {
      ...data,
      types: { ...data.types, EIP712Domain: [{ name: 'name', type: 'string' }, ...data.types.EIP712Domain] },
      domain: { name: 'Some dapp', ...data.domain },
    }
    const { response, roundTrips } = await scanSafeMessage(named, owner(0))
    expect(response.warnings).toEqual([])
    expect(response.simulationResults.safeMessage).toBeUndefined()
    expect(roundTrips).toBe(0)
  })

  it('answers a domain chain id beyond any real chain with the chain check, not an internal error', async () => {
    const huge = safeMessage(safePermitHash(fx()), { chainId: 0 })
    const { response } = await scanSafeMessage(
      { ...huge, domain: { ...huge.domain, chainId: (2n ** 256n - 1n).toString() } },
      owner(0),
    )
    expect(kinds(response.warnings)).toEqual(['CRITICAL MULTISIG_CHAIN_MISMATCH', 'WARNING MULTISIG_BLIND_SIGNATURE'])
  })
})

describe('Safe signatures by hash in transactions', () => {
  it('warns on an owner’s approveHash, which the Safe then records as that owner’s signature', async () => {
    const hidden = keccak256(toHex('a Safe transaction the request does not show'))
    const data = encodeFunctionData({ abi: safeAbi, functionName: 'approveHash', args: [hidden] })
    const response = await scanTransaction(owner(0), fx().safe.address, data)
    expect(response.action).toBe('WARN')
    expect(kinds(response.warnings)).toEqual(['WARNING MULTISIG_BLIND_SIGNATURE'])
    expect(response.warnings[0]?.message).toContain(`This records the hash ${hidden} as approved by`)

    const wallet = createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[0]?.privateKey as Hex),
    })
    await waitForReceipt(chain(), await wallet.sendTransaction({ to: fx().safe.address, data }))
    const approved = await chain().readContract({
      address: fx().safe.address,
      abi: safeAbi,
      functionName: 'approvedHashes',
      args: [owner(0), hidden],
    })
    expect(approved).toBe(1n)
  })

  it('warns on a Safe transaction that signs a hash on chain through SignMessageLib, which the Safe then accepts unsigned', async () => {
    const hidden = safePermitHash(fx())
    const data = await signMessageExecution(hidden)
    const response = await scanTransaction(owner(0), fx().safe.address, data)
    expect(response.action).toBe('WARN')
    expect(kinds(response.warnings)).toEqual(['WARNING MULTISIG_BLIND_SIGNATURE'])
    expect(response.warnings[0]?.message).toContain(
      `sign, on chain and for good, whatever message has the hash ${hidden}`,
    )

    expect(await isValidSignature(hidden, '0x')).toBe('reverted')
    const wallet = createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[7]?.privateKey as Hex),
    })
    const receipt = await waitForReceipt(chain(), await wallet.sendTransaction({ to: fx().safe.address, data }))
    expect(receipt.status).toBe('success')
    expect(await isValidSignature(hidden, '0x')).toBe(MAGIC_VALUE)
  })

  it('does not warn when SignMessageLib signs text', async () => {
    const data = await signMessageExecution(toHex('I agree to the terms of app.example.org'))
    const response = await scanTransaction(owner(0), fx().safe.address, data)
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
  })
})
