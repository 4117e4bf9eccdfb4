/** Permit messages against the devnet tokens (seed §2.3, §2.6, §2.8.3): EIP-2612, DAI-style, Permit2, ERC-721. */

import { SignTypedDataVersion, signTypedData } from '@metamask/eth-sig-util'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  hexToBytes,
  http,
  keccak256,
  maxUint160,
  maxUint256,
  parseAbi,
  parseSignature,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import {
  DAI_PERMIT_FIELDS,
  ERC721_PERMIT_FIELDS,
  eip2612Permit,
  NAMED_DOMAIN_FIELDS,
  PERMIT2_TYPES,
  permit2PermitSingle,
  permit2TypedData,
} from '../../../src/devnet/eip712.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { shortAddress } from '../../../src/engine/assets/index.ts'
import { scanMessageWithStats } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

const tokenAbi = parseAbi([
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
])

const DAY = 86_400

describe('scanMessage: permits', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let user: Address
  /** A contract, so no APPROVAL_TO_EOA unless a test wants one. */
  let router: Address
  const now = Math.floor(Date.now() / 1000)
  const validate = messageResponseValidator()
  const client = () => createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) })
  /** Submits the user's EIP-2612 permit from dev account `submitter`; returns the allowance the token then holds. */
  const submitPermit = async (signature: Hex, submitter: number, spender: Address, value: bigint, deadline: number) => {
    const { r, s, v } = parseSignature(signature)
    const wallet = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(fixtures.accounts[submitter]?.privateKey as Hex),
    })
    const hash = await wallet.writeContract({
      address: fixtures.erc20.address,
      abi: tokenAbi,
      functionName: 'permit',
      args: [user, spender, value, BigInt(deadline), Number(v), r, s],
    })
    expect((await waitForReceipt(client(), hash)).status).toBe('success')
    return client().readContract({
      address: fixtures.erc20.address,
      abi: tokenAbi,
      functionName: 'allowance',
      args: [user, spender],
    })
  }
  /** The user's next EIP-2612 nonce at the devnet token. */
  const userNonce = () =>
    client().readContract({ address: fixtures.erc20.address, abi: tokenAbi, functionName: 'nonces', args: [user] })
  const request = (data: unknown, userAccount: string = user, origin = 'https://app.uniswap.org') => ({
    message: { kind: 'SIGN_TYPED_DATA', data },
    userAccount,
    metadata: { origin },
  })
  /** The seed's token-permit example (§2.3): Permit2 PermitSingle with a max uint160 amount. */
  const permitSingle = (amount: bigint) =>
    permit2PermitSingle({
      chainId: String(fixtures.chainId),
      token: fixtures.erc20.address,
      amount,
      expiration: now + 30 * DAY,
      spender: router,
      sigDeadline: now + 1800,
    })
  const eip2612 = (owner: Address, spender: Address, value: bigint, nonce: bigint, deadline: number) =>
    eip2612Permit({
      name: 'USD Coin',
      chainId: fixtures.chainId,
      token: fixtures.erc20.address,
      owner,
      spender,
      value,
      nonce,
      deadline,
    })

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    user = fixtures.accounts[0]?.address as Address
    router = fixtures.safeContracts.multiSend
  })
  afterAll(() => devnet?.stop())

  it('seed §2.8.3: an unlimited PermitSingle → ERC20_PERMIT, PERMIT_UNLIMITED_ALLOWANCE (WARNING), action WARN', async () => {
    const { response, roundTrips } = await scanOk(request(permitSingle(maxUint160)), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['PERMIT_UNLIMITED_ALLOWANCE', 'WARNING']])
    expect(response.warnings[0]?.message).toContain('all of your USDC')
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.protocol).toMatchObject({ name: 'Permit2', trustLevel: 'TRUSTED' })
    expect(response.simulationResults.expectedStateChanges).toEqual([
      {
        humanReadableDiff: `Permit ${router.slice(0, 6).toLowerCase()}…${router.slice(-4).toLowerCase()} to spend unlimited USDC until ${new Date((now + 30 * DAY) * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
        rawInfo: {
          kind: 'ERC20_PERMIT',
          data: {
            contract: { address: fixtures.erc20.address.toLowerCase(), kind: 'ACCOUNT' },
            owner: { address: user.toLowerCase(), kind: 'ACCOUNT' },
            spender: { address: router.toLowerCase(), kind: 'ACCOUNT' },
            amount: maxUint160.toString(),
            nonce: '0',
            deadline: now + 30 * DAY,
            asset: expect.objectContaining({
              address: fixtures.erc20.address.toLowerCase(),
              symbol: 'USDC',
              decimals: 6,
            }),
            // Unlimited, but all it can take at once is the 10,000 USDC the user holds (no price on the devnet).
            canTakeNow: { amount: '10000000000', dollarValue: null },
          },
        },
      },
    ])
    expect(roundTrips).toBe(1)
  })

  it('takes one round trip of a single request once token metadata and the chain id are known', async () => {
    const options = { rpcUrl: fixtures.rpcUrl, chainId: fixtures.chainId, now: () => now }
    const { outcome, stats } = await scanMessageWithStats(request(permitSingle(parseUnits('6', 6))), options)
    expect(outcome.ok).toBe(true)
    expect(stats).toMatchObject({ roundTrips: 1, requests: 1 })
  })

  it('a bounded, short Permit2 allowance to a contract raises nothing: action NONE', async () => {
    const { response } = await scanOk(request(permitSingle(parseUnits('25', 6))), fixtures.rpcUrl, now)
    expect(response.action).toBe('NONE')
    expect(response.warnings).toEqual([])
    expect(response.simulationResults.expectedStateChanges[0]?.humanReadableDiff).toMatch(
      /to spend up to 25 USDC until/,
    )
  })

  it('an EIP-2612 permit the devnet token accepts: scanned, then signed and submitted on chain', async () => {
    const spender = fixtures.accounts[3]?.address as Address
    const nonce = await userNonce()
    const deadline = now + 3600
    const data = eip2612(user, spender, parseUnits('500', 6), nonce, deadline)
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.expectedStateChanges.map((c) => c.rawInfo)).toEqual([
      {
        kind: 'ERC20_PERMIT',
        data: expect.objectContaining({
          amount: '500000000',
          nonce: nonce.toString(),
          deadline,
          owner: { address: user.toLowerCase(), kind: 'ACCOUNT' },
          spender: { address: spender.toLowerCase(), kind: 'ACCOUNT' },
        }),
      },
    ])
    // The spender is a plain account: that alone is worth a warning.
    expect(response.warnings.map((w) => w.kind)).toEqual(['APPROVAL_TO_EOA'])
    expect(response.action).toBe('WARN')

    const owner = privateKeyToAccount(fixtures.accounts[0]?.privateKey as Hex)
    const signature = await owner.signTypedData({
      domain: { ...data.domain, verifyingContract: fixtures.erc20.address },
      types: { Permit: data.types.Permit },
      primaryType: 'Permit',
      message: { owner: user, spender, value: parseUnits('500', 6), nonce, deadline: BigInt(deadline) },
    })
    expect(await submitPermit(signature, 3, spender, parseUnits('500', 6), deadline)).toBe(parseUnits('500', 6))
  })

  it('a permit whose domain holds chainId and the token undeclared: a wallet that signs them grants it, so WARN', async () => {
    const nonce = await userNonce()
    const deadline = now + 3600
    const honest = eip2612(user, router, parseUnits('900', 6), nonce, deadline)
    // As the page sends it: the domain names the chain and the token, its type only name and version.
    const data = { ...honest, types: { ...honest.types, EIP712Domain: NAMED_DOMAIN_FIELDS.slice(0, 2) } }
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('WARN')
    expect(response.warnings).toEqual([
      expect.objectContaining({
        kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE',
        message: expect.stringMatching(/holds chainId, verifyingContract but its types do not declare them/),
      }),
    ])
    // A wallet that takes the domain's type from the fields it holds (ethers; viem without EIP712Domain) signs the
    // full domain, and the token honours that signature.
    const owner = privateKeyToAccount(fixtures.accounts[0]?.privateKey as Hex)
    const signature = await owner.signTypedData({
      domain: { ...data.domain, verifyingContract: fixtures.erc20.address },
      types: { Permit: honest.types.Permit },
      primaryType: 'Permit',
      message: { owner: user, spender: router, value: parseUnits('900', 6), nonce, deadline: BigInt(deadline) },
    })
    expect(await submitPermit(signature, 4, router, parseUnits('900', 6), deadline)).toBe(parseUnits('900', 6))
  })

  it('a permit with its spender and token written in decimal: MetaMask signs it, the token honours it, BLOCK', async () => {
    const spender = fixtures.accounts[5]?.address as Address
    const nonce = await userNonce()
    const deadline = now + 3600
    const data = eip2612(user, spender, parseUnits('700', 6), nonce, deadline)
    // The scanner-evasion trick: addresses as decimal numbers, which the wallet's encoder reads as the same address.
    const disguised = {
      ...data,
      domain: { ...data.domain, verifyingContract: BigInt(fixtures.erc20.address).toString() },
      message: { ...data.message, spender: BigInt(spender).toString() },
    }
    const { response } = await scanOk(request(disguised), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('BLOCK')
    expect(response.warnings.map((w) => [w.kind, w.severity, (w.data as { field: string }).field])).toEqual([
      ['NON_CANONICAL_ADDRESS', 'CRITICAL', 'domain.verifyingContract'],
      ['NON_CANONICAL_ADDRESS', 'CRITICAL', 'message.spender'],
      ['APPROVAL_TO_EOA', 'WARNING', undefined],
    ])
    expect(response.warnings[1]?.message).toContain(`Your wallet signs it as ${spender.toLowerCase()}`)
    expect(response.simulationResults.expectedStateChanges.map((change) => change.rawInfo)).toEqual([
      {
        kind: 'ERC20_PERMIT',
        data: expect.objectContaining({
          amount: '700000000',
          contract: { address: fixtures.erc20.address.toLowerCase(), kind: 'ACCOUNT' },
          spender: { address: spender.toLowerCase(), kind: 'ACCOUNT' },
        }),
      },
    ])

    // Signed by MetaMask's own encoder, exactly as written, and submitted: the token sets the allowance.
    const signature = signTypedData({
      privateKey: Buffer.from(hexToBytes(fixtures.accounts[0]?.privateKey as Hex)),
      data: disguised as never,
      version: SignTypedDataVersion.V4,
    }) as Hex
    expect(await submitPermit(signature, 5, spender, parseUnits('700', 6), deadline)).toBe(parseUnits('700', 6))
  })

  it('a DAI-style permit with allowed=true and expiry 0: unlimited and never expiring', async () => {
    const data = {
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        Permit: DAI_PERMIT_FIELDS,
      },
      primaryType: 'Permit',
      domain: { name: 'Dai Stablecoin', version: '1', chainId: '0x7a69', verifyingContract: fixtures.erc20.address },
      message: { holder: user, spender: router, nonce: 0, expiry: 0, allowed: true },
    }
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
      kind: 'ERC20_PERMIT',
      data: { amount: maxUint256.toString(), deadline: null },
    })
    expect(response.simulationResults.expectedStateChanges[0]?.humanReadableDiff).toMatch(
      /unlimited USDC, with no expiry$/,
    )
    expect(response.warnings.map((w) => w.kind).sort()).toEqual(['PERMIT_NO_EXPIRATION', 'PERMIT_UNLIMITED_ALLOWANCE'])
    expect(response.action).toBe('WARN')
  })

  it('a permit of zero revokes: shown as a revoke, NONE whoever it names; submitted, the allowance is 0', async () => {
    const spender = fixtures.accounts[6]?.address as Address
    const owner = privateKeyToAccount(fixtures.accounts[0]?.privateKey as Hex)
    const sign = async (value: bigint, nonce: bigint, deadline: number) => {
      const data = eip2612(user, spender, value, nonce, deadline)
      const signature = await owner.signTypedData({
        domain: { ...data.domain, verifyingContract: fixtures.erc20.address },
        types: { Permit: data.types.Permit },
        primaryType: 'Permit',
        message: { owner: user, spender, value, nonce, deadline: BigInt(deadline) },
      })
      return { data, signature }
    }
    const deadline = now + 3600
    const granted = await sign(parseUnits('500', 6), await userNonce(), deadline)
    expect(await submitPermit(granted.signature, 6, spender, parseUnits('500', 6), deadline)).toBe(parseUnits('500', 6))

    // The spender is a person, yet a permit of zero only takes its allowance away.
    const revoke = await sign(0n, await userNonce(), deadline)
    const { response } = await scanOk(request(revoke.data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.warnings).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
      `Revoke ${shortAddress(spender)}'s approval to spend your USDC`,
    ])
    expect(await submitPermit(revoke.signature, 6, spender, 0n, deadline)).toBe(0n)

    // DAI's permit revokes with allowed=false, and its expiry 0 (never) is no reason to worry then.
    const dai = {
      types: { EIP712Domain: NAMED_DOMAIN_FIELDS, Permit: DAI_PERMIT_FIELDS },
      primaryType: 'Permit',
      domain: { name: 'Dai Stablecoin', version: '1', chainId: '0x7a69', verifyingContract: fixtures.erc20.address },
      message: { holder: user, spender, nonce: 0, expiry: 0, allowed: false },
    }
    const daiRevoke = (await scanOk(request(dai), fixtures.rpcUrl, now)).response
    expect(daiRevoke.warnings).toEqual([])
    expect(daiRevoke.action).toBe('NONE')
    expect(daiRevoke.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
      kind: 'ERC20_PERMIT',
      data: { amount: '0' },
    })
  })

  it('a PermitBatch: one change per token; more than the whole supply counts as unlimited', async () => {
    const data = permit2TypedData(
      String(fixtures.chainId),
      'PermitBatch',
      { PermitBatch: PERMIT2_TYPES.PermitBatch, PermitDetails: PERMIT2_TYPES.PermitDetails },
      {
        details: [
          { token: fixtures.erc20.address, amount: '1000000', expiration: now + DAY, nonce: 0 },
          // The devnet wrapped 220 WETH in all (20 for holders, 100 in each Uniswap pool): 300 WETH limits nothing.
          { token: fixtures.weth.address, amount: parseUnits('300', 18).toString(), expiration: now + DAY, nonce: 0 },
        ],
        spender: router,
        sigDeadline: now + 1800,
      },
    )
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    const changes = response.simulationResults.expectedStateChanges
    expect(changes.map((c) => c.humanReadableDiff.replace(/ until .*/, ''))).toEqual([
      `Permit ${router.slice(0, 6).toLowerCase()}…${router.slice(-4).toLowerCase()} to spend up to 1 USDC`,
      `Permit ${router.slice(0, 6).toLowerCase()}…${router.slice(-4).toLowerCase()} to spend unlimited WETH`,
    ])
    expect(response.warnings.map((w) => [w.kind, w.message.includes('WETH')])).toEqual([
      ['PERMIT_UNLIMITED_ALLOWANCE', true],
    ])
  })

  it('PermitTransferFrom and PermitWitnessTransferFrom: a one-time transfer permission', async () => {
    const { TokenPermissions, transferFields } = PERMIT2_TYPES
    const plain = permit2TypedData(
      String(fixtures.chainId),
      'PermitTransferFrom',
      { PermitTransferFrom: [{ name: 'permitted', type: 'TokenPermissions' }, ...transferFields], TokenPermissions },
      {
        permitted: { token: fixtures.erc20.address, amount: '2500000' },
        spender: router,
        nonce: '7',
        deadline: now + 600,
      },
    )
    const witness = permit2TypedData(
      String(fixtures.chainId),
      'PermitWitnessTransferFrom',
      {
        PermitWitnessTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          ...transferFields,
          { name: 'witness', type: 'ExclusiveDutchOrder' },
        ],
        TokenPermissions,
        ExclusiveDutchOrder: [{ name: 'swapper', type: 'address' }],
      },
      {
        permitted: { token: fixtures.erc20.address, amount: '2500000' },
        spender: router,
        nonce: '8',
        deadline: '281474976710655',
        witness: { swapper: user },
      },
    )
    const first = await scanOk(request(plain), fixtures.rpcUrl, now)
    expect(first.response.simulationResults.expectedStateChanges[0]?.humanReadableDiff).toMatch(
      /to transfer up to 2.5 USDC until/,
    )
    expect(first.response.action).toBe('NONE')
    const second = await scanOk(request(witness), fixtures.rpcUrl, now)
    expect(second.response.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
      kind: 'ERC20_PERMIT',
      data: { nonce: '8', deadline: 281474976710655 },
    })
    expect(second.response.warnings.map((w) => w.kind)).toEqual(['PERMIT_NO_EXPIRATION'])
    expect(validate(second.response)).toEqual([])
  })

  /** A UniswapX exclusive Dutch order selling 100 of the user's USDC through the router, paying `outputs`. */
  const dutchOrder = (outputs: { token: string; startAmount: string; endAmount: string; recipient: string }[]) => {
    const { TokenPermissions, transferFields } = PERMIT2_TYPES
    const reactor = router
    return permit2TypedData(
      String(fixtures.chainId),
      'PermitWitnessTransferFrom',
      {
        PermitWitnessTransferFrom: [
          { name: 'permitted', type: 'TokenPermissions' },
          ...transferFields,
          { name: 'witness', type: 'ExclusiveDutchOrder' },
        ],
        TokenPermissions,
        ExclusiveDutchOrder: [
          { name: 'info', type: 'OrderInfo' },
          { name: 'decayStartTime', type: 'uint256' },
          { name: 'decayEndTime', type: 'uint256' },
          { name: 'exclusiveFiller', type: 'address' },
          { name: 'exclusivityOverrideBps', type: 'uint256' },
          { name: 'inputToken', type: 'address' },
          { name: 'inputStartAmount', type: 'uint256' },
          { name: 'inputEndAmount', type: 'uint256' },
          { name: 'outputs', type: 'DutchOutput[]' },
        ],
        OrderInfo: [
          { name: 'reactor', type: 'address' },
          { name: 'swapper', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          { name: 'additionalValidationContract', type: 'address' },
          { name: 'additionalValidationData', type: 'bytes' },
        ],
        DutchOutput: [
          { name: 'token', type: 'address' },
          { name: 'startAmount', type: 'uint256' },
          { name: 'endAmount', type: 'uint256' },
          { name: 'recipient', type: 'address' },
        ],
      },
      {
        permitted: { token: fixtures.erc20.address, amount: '100000000' },
        spender: reactor,
        nonce: '9',
        deadline: now + 600,
        witness: {
          info: {
            reactor,
            swapper: user,
            nonce: '9',
            deadline: now + 600,
            additionalValidationContract: '0x0000000000000000000000000000000000000000',
            additionalValidationData: '0x',
          },
          decayStartTime: now,
          decayEndTime: now + 60,
          exclusiveFiller: '0x0000000000000000000000000000000000000000',
          exclusivityOverrideBps: '0',
          inputToken: fixtures.erc20.address,
          inputStartAmount: '100000000',
          inputEndAmount: '100000000',
          outputs,
        },
      },
    )
  }

  it('a UniswapX order (PermitWitnessTransferFrom): a one-time transfer out, and the least the order pays back', async () => {
    const data = dutchOrder([
      {
        token: fixtures.weth.address,
        startAmount: parseUnits('0.034', 18).toString(),
        endAmount: parseUnits('0.033', 18).toString(),
        recipient: user,
      },
      {
        token: fixtures.weth.address,
        startAmount: '100000000000000',
        endAmount: '100000000000000',
        recipient: router,
      },
    ])
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    const changes = response.simulationResults.expectedStateChanges
    expect(changes.map((change) => change.rawInfo.kind)).toEqual(['ERC20_PERMIT', 'ERC20_TRANSFER'])
    expect(changes[0]?.humanReadableDiff).toMatch(/to transfer up to 100 USDC until/)
    expect(changes[1]?.humanReadableDiff).toBe('Receive at least 0.033 WETH')
    const paid = changes[1]?.rawInfo.data as { amount: { before: string; after: string }; asset: { price: unknown } }
    expect(BigInt(paid.amount.after) - BigInt(paid.amount.before)).toBe(parseUnits('0.033', 18))
    expect(paid.asset.price).toMatchObject({ source: 'Chainlink', dollarValuePerToken: 3000 })
    expect(response.action).toBe('NONE')
  })

  it('a UniswapX order whose outputs all pay others: the transfer out, nothing back, and the receivers named', async () => {
    const attacker = fixtures.accounts[8]?.address as Address
    const output = (recipient: Address, amount: string) => ({
      token: fixtures.weth.address,
      startAmount: amount,
      endAmount: amount,
      recipient,
    })
    const data = dutchOrder([output(attacker, parseUnits('0.033', 18).toString()), output(router, '100000000000000')])
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('WARN')
    const changes = response.simulationResults.expectedStateChanges
    expect(changes.map((change) => change.rawInfo.kind)).toEqual(['ERC20_PERMIT'])
    const warning = response.warnings.find((w) => w.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')
    expect(warning?.data).toEqual({ receivers: [attacker.toLowerCase(), router.toLowerCase()] })
    expect(warning?.message).toMatch(
      /^The order this signature transfer carries sells your tokens and pays what it buys to/,
    )

    // A wei to the signer does not hide the rest going elsewhere: the signer's share is judged on its own.
    const dusted = dutchOrder([output(user, '1'), output(attacker, parseUnits('0.033', 18).toString())])
    const withDust = (await scanOk(request(dusted), fixtures.rpcUrl, now)).response
    expect(withDust.warnings.find((w) => w.kind === 'TRADE_PROCEEDS_TO_OTHER_ADDRESS')?.data).toEqual({
      receivers: [attacker.toLowerCase()],
    })
    // Paying next to nothing to anyone is a trade for nothing.
    const forNothing = (await scanOk(request(dutchOrder([output(attacker, '1')])), fixtures.rpcUrl, now)).response
    expect(forNothing.action).toBe('BLOCK')
    expect(forNothing.warnings.map((w) => w.kind)).toContain('TRADE_FOR_NOTHING')
  })

  it('a UniswapX order paying the signer only in a token it cannot value: WARN naming it, for a buyer to check', async () => {
    const { abi, bytecode } = fixtureArtifact('DevToken')
    const deployer = fixtures.accounts[8] as { address: Address; privateKey: Hex }
    const wallet = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(deployer.privateKey),
    })
    const hash = await wallet.deployContract({
      abi,
      bytecode,
      args: ['ApeCoin 2', 'APE2', 18, [deployer.address], [parseUnits('1000000', 18)]],
    } as never)
    const junk = (await waitForReceipt(client(), hash)).contractAddress as Address
    const amount = parseUnits('1000000', 18).toString()
    const data = dutchOrder([{ token: junk, startAmount: amount, endAmount: amount, recipient: user }])
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.simulationResults.expectedStateChanges[1]?.humanReadableDiff).toBe(
      'Receive at least 1,000,000 APE2',
    )
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['SUSPECTED_MALICIOUS', 'WARNING']])
    expect(response.warnings[0]?.message).toMatch(
      /^The order this signature transfer carries pays you only in 1,000,000 APE2 \(0x/,
    )
  })

  it('an ERC-721 permit (Uniswap V3 positions style) → an ERC721_APPROVAL state change', async () => {
    const data = {
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        Permit: ERC721_PERMIT_FIELDS,
      },
      primaryType: 'Permit',
      domain: {
        name: 'Devnet Apes',
        version: '1',
        chainId: fixtures.chainId,
        verifyingContract: fixtures.erc721.address,
      },
      message: { spender: router, tokenId: '1', nonce: '0', deadline: now + 600 },
    }
    const { response } = await scanOk(request(data), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.expectedStateChanges).toEqual([
      {
        humanReadableDiff: `Approve ${router.slice(0, 6).toLowerCase()}…${router.slice(-4).toLowerCase()} to transfer Devnet Apes #1`,
        rawInfo: {
          kind: 'ERC721_APPROVAL',
          data: expect.objectContaining({
            amount: { before: '0', after: '1' },
            tokenId: '1',
            metadata: { rawImageUrl: 'https://example.invalid/dape/1' },
            owner: { address: user.toLowerCase(), kind: 'ACCOUNT' },
            spender: { address: router.toLowerCase(), kind: 'ACCOUNT' },
            asset: expect.objectContaining({ address: fixtures.erc721.address.toLowerCase(), name: 'Devnet Apes' }),
          }),
        },
      },
    ])
  })

  it('a permit signed through the multisig wallet (userAccount = the Safe) works as for any account', async () => {
    const safe = fixtures.safe.address
    const data = eip2612(safe, router, parseUnits('10', 6), 0n, now + 3600)
    const { response } = await scanOk(request(data, safe), fixtures.rpcUrl, now)
    expect(response.action).toBe('NONE')
    expect(response.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
      kind: 'ERC20_PERMIT',
      data: { owner: { address: safe.toLowerCase() }, amount: '10000000' },
    })
    expect(response.simulationResults.multisig).toBeUndefined()
  })

  it('a permit requested by a blocklisted site is blocked whatever it grants', async () => {
    const { response } = await scanOk(request(permitSingle(1n), user, 'https://azukishop.live'), fixtures.rpcUrl, now)
    expect(response.action).toBe('BLOCK')
    expect(response.warnings[0]).toMatchObject({ kind: 'TRUSTED_BLOCKLIST_DOMAIN', severity: 'CRITICAL' })
    expect(response.simulationResults.expectedStateChanges[0]?.rawInfo.kind).toBe('ERC20_PERMIT')
  })

  // Last: it moves the user's USDC for real.
  it('an EIP-3009 TransferWithAuthorization to a person: the transfer shown, WARN; submitted, it moves exactly that', async () => {
    const attacker = fixtures.drainer.attacker
    const value = parseUnits('4000', 6)
    const message = {
      from: user,
      to: attacker,
      value,
      validAfter: 0n,
      validBefore: BigInt(now + 3600),
      nonce: keccak256(toHex('a claim page')),
    }
    const data = {
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      domain: { name: 'USD Coin', version: '1', chainId: fixtures.chainId, verifyingContract: fixtures.erc20.address },
      message: { ...message, value: value.toString(), validAfter: '0', validBefore: String(now + 3600) },
    }
    const { response } = await scanOk(request(data, user, 'https://claim.example'), fixtures.rpcUrl, now)
    expect(validate(response)).toEqual([])
    expect(response.action).toBe('WARN')
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['APPROVAL_TO_EOA', 'WARNING']])
    expect(response.warnings[0]?.message).toContain('sends your USDC to')
    const held = await client().readContract({
      address: fixtures.erc20.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user],
    })
    expect(response.simulationResults.expectedStateChanges).toEqual([
      {
        humanReadableDiff: 'Send 4,000 USDC',
        rawInfo: {
          kind: 'ERC20_TRANSFER',
          data: expect.objectContaining({
            amount: { before: held.toString(), after: (held - value).toString() },
            counterparty: { address: attacker.toLowerCase(), kind: 'ACCOUNT' },
          }),
        },
      },
    ])

    // Reality: anyone (here dev account 5) submits the signature, and exactly the value shown moves.
    const signature = await privateKeyToAccount(fixtures.accounts[0]?.privateKey as Hex).signTypedData({
      domain: data.domain,
      types: { TransferWithAuthorization: data.types.TransferWithAuthorization },
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const balance = (account: Address) =>
      client().readContract({
        address: fixtures.erc20.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [account],
      })
    const before = { user: await balance(user), attacker: await balance(attacker) }
    const { r, s, v } = parseSignature(signature)
    const submitter = createWalletClient({
      chain: foundry,
      transport: http(fixtures.rpcUrl),
      account: privateKeyToAccount(fixtures.accounts[5]?.privateKey as Hex),
    })
    const hash = await submitter.writeContract({
      address: fixtures.erc20.address,
      abi: parseAbi([
        'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
      ]),
      functionName: 'transferWithAuthorization',
      args: [user, attacker, value, 0n, BigInt(now + 3600), message.nonce, Number(v), r, s],
    })
    expect((await waitForReceipt(client(), hash)).status).toBe('success')
    expect(before.user - (await balance(user))).toBe(value)
    expect((await balance(attacker)) - before.attacker).toBe(value)
  })
})
