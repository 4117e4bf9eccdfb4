/** Seaport orders, other typed data, raw messages and malformed requests, against the devnet. */
import {
  type Address,
  createPublicClient,
  erc20Abi,
  http,
  keccak256,
  parseEther,
  stringToHex,
  toHex,
  zeroAddress,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../../src/devnet/devnet.ts'
import {
  NAMED_DOMAIN_FIELDS,
  permit2PermitSingle,
  type SeaportItem,
  seaportOrder,
  type TypedData,
} from '../../../src/devnet/eip712.ts'
import type { Fixtures } from '../../../src/devnet/fixtures.ts'
import { shortAddress } from '../../../src/engine/assets/index.ts'
import { NATIVE_ASSET_ADDRESS, scanMessage, scanMessageWithStats } from '../../../src/engine/index.ts'
import { startTestDevnet } from '../../support/devnet.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'

describe('scanMessage: orders, other typed data, raw messages, malformed input', () => {
  let devnet: Devnet
  let fixtures: Fixtures
  let user: Address
  let fee: Address
  const validate = messageResponseValidator()
  const request = (message: object, userAccount: string = user) => ({
    message,
    userAccount,
    metadata: { origin: 'https://opensea.io' },
  })
  const typed = (data: unknown) => request({ kind: 'SIGN_TYPED_DATA', data })
  const order = (offer: SeaportItem[], consideration: SeaportItem[]) =>
    typed(seaportOrder({ offerer: user, chainId: '31337', offer, consideration }))
  const ape = (tokenId: string) => ({
    itemType: '2',
    token: fixtures.erc721.address,
    identifierOrCriteria: tokenId,
    startAmount: '1',
    endAmount: '1',
  })
  const eth = (amount: bigint, recipient: string) => ({
    itemType: '0',
    token: zeroAddress,
    identifierOrCriteria: '0',
    startAmount: amount.toString(),
    endAmount: amount.toString(),
    recipient,
  })

  beforeAll(async () => {
    devnet = await startTestDevnet()
    fixtures = devnet.fixtures
    user = fixtures.accounts[0]?.address as Address
    fee = fixtures.accounts[4]?.address as Address
  })
  afterAll(() => devnet?.stop())

  describe('Seaport orders', () => {
    it('selling an NFT for ETH: send the NFT, receive the ETH paid to the user (fees to others excluded)', async () => {
      const { response, roundTrips } = await scanOk(
        order([ape('1')], [eth(parseEther('0.975'), user), eth(parseEther('0.025'), fee)]),
        fixtures.rpcUrl,
      )
      expect(validate(response)).toEqual([])
      expect(response.action).toBe('NONE')
      expect(response.warnings).toEqual([])
      const changes = response.simulationResults.expectedStateChanges
      expect(changes.map((c) => c.humanReadableDiff)).toEqual(['Send Devnet Apes #1', 'Receive 0.975 ETH'])
      expect(changes[0]?.rawInfo).toMatchObject({
        kind: 'ERC721_TRANSFER',
        data: {
          tokenId: '1',
          amount: { before: '1', after: '0' },
          contract: { address: fixtures.erc721.address.toLowerCase() },
          metadata: { rawImageUrl: 'https://example.invalid/dape/1' },
        },
      })
      expect(response.simulationResults.protocol).toMatchObject({ name: 'Seaport', trustLevel: 'TRUSTED' })
      const received = changes[1]?.rawInfo.data as { amount: { before: string } } | undefined
      const balance = BigInt(received?.amount.before ?? '0')
      expect(balance).toBeGreaterThan(parseEther('9000'))
      expect(changes[1]?.rawInfo).toMatchObject({
        kind: 'NATIVE_ASSET_TRANSFER',
        data: {
          amount: { before: balance.toString(), after: (balance + parseEther('0.975')).toString() },
          contract: { address: NATIVE_ASSET_ADDRESS, kind: 'ACCOUNT' },
        },
      })
      expect(roundTrips).toBe(1)
    })

    it('giving NFTs away for nothing, or for 1 wei, is a CRITICAL trade for nothing: BLOCK', async () => {
      for (const consideration of [[eth(parseEther('1'), fee)], [eth(1n, user)]]) {
        const { response } = await scanOk(order([ape('2'), ape('3')], consideration), fixtures.rpcUrl)
        expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
        expect(response.action).toBe('BLOCK')
        expect(
          response.simulationResults.expectedStateChanges.filter((c) => c.humanReadableDiff.startsWith('Send')),
        ).toHaveLength(2)
      }
    })

    it('buying with USDC: send the ERC-20 the user offers, receive the NFT', async () => {
      const usdc = {
        itemType: '1',
        token: fixtures.erc20.address,
        identifierOrCriteria: '0',
        startAmount: '250000000',
        endAmount: '250000000',
      }
      const nft = { ...ape('4'), recipient: user }
      const { response } = await scanOk(order([usdc], [nft]), fixtures.rpcUrl)
      expect(validate(response)).toEqual([])
      expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
        'Send 250 USDC',
        'Receive Devnet Apes #4',
      ])
      expect(response.simulationResults.expectedStateChanges[0]?.rawInfo).toMatchObject({
        kind: 'ERC20_TRANSFER',
        data: { amount: { before: '10000000000', after: '9750000000' } },
      })
      expect(response.action).toBe('NONE')
    })

    it('an order for "any NFT of a collection" shows what is paid and "any item" of the collection', async () => {
      const criteria = {
        ...eth(0n, user),
        itemType: '4',
        token: fixtures.erc721.address,
        startAmount: '1',
        endAmount: '1',
      }
      const { response } = await scanOk(order([eth(parseEther('1'), user)], [criteria]), fixtures.rpcUrl)
      expect(response.simulationResults.error).toBeNull()
      expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
        'Send 1 ETH',
        'Receive any 1 Devnet Apes',
      ])
      expect(response.action).toBe('NONE')
    })

    it('an item type Seaport does not define cannot be read: UNSUPPORTED_ORDER_TYPE and a warning in words', async () => {
      const unknown = { ...eth(1n, user), itemType: '9' }
      const { response } = await scanOk(order([ape('1')], [unknown]), fixtures.rpcUrl)
      expect(response.simulationResults.error?.kind).toBe('UNSUPPORTED_ORDER_TYPE')
      expect(response.simulationResults.decodedMessage?.primaryType).toBe('OrderComponents')
      expect(response.action).toBe('WARN')
      expect(response.warnings[0]?.message).toMatch(/^This message could not be read — do not sign unless you know why/)
    })
  })

  it('unknown typed data: no state changes, action NONE, its fields decoded for display, no RPC traffic', async () => {
    const data = {
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallet', type: 'address' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'to', type: 'Person[]' },
          { name: 'contents', type: 'string' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Mail',
      domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: fixtures.deployer },
      message: {
        from: { name: 'Cow', wallet: user },
        to: [{ name: 'Bob', wallet: fee }],
        contents: 'Hello, Bob!',
        amount: '123456789012345678901234567890',
      },
    }
    const { outcome, stats } = await scanMessageWithStats(typed(data), { rpcUrl: fixtures.rpcUrl, chainId: 31337 })
    if (!outcome.ok) throw new Error(outcome.error.message)
    expect(validate(outcome.response)).toEqual([])
    expect(outcome.response.action).toBe('NONE')
    expect(outcome.response.simulationResults).toEqual({
      error: null,
      expectedStateChanges: [],
      protocol: null,
      decodedMessage: {
        primaryType: 'Mail',
        fields: [
          { name: 'from', type: 'Person', value: ['Cow', user.toLowerCase()] },
          { name: 'to', type: 'Person[]', value: [['Bob', fee.toLowerCase()]] },
          { name: 'contents', type: 'string', value: 'Hello, Bob!' },
          { name: 'amount', type: 'uint256', value: '123456789012345678901234567890' },
        ],
      },
    })
    expect(stats.roundTrips).toBe(0)
  })

  it("Hyperliquid's agent approval (a struct named HyperliquidTransaction:ApproveAgent) is read: WARN naming the agent, decoded", async () => {
    const data = {
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        'HyperliquidTransaction:ApproveAgent': [
          { name: 'hyperliquidChain', type: 'string' },
          { name: 'agentAddress', type: 'address' },
          { name: 'agentName', type: 'string' },
          { name: 'nonce', type: 'uint64' },
        ],
      },
      primaryType: 'HyperliquidTransaction:ApproveAgent',
      domain: { name: 'HyperliquidSignTransaction', version: '1', chainId: 42161, verifyingContract: zeroAddress },
      message: { hyperliquidChain: 'Mainnet', agentAddress: fee, agentName: 'bot', nonce: 1764254000000 },
    }
    const { response } = await scanOk(request({ kind: 'SIGN_TYPED_DATA', data }, user), fixtures.rpcUrl)
    expect(validate(response)).toEqual([])
    // The agent places and cancels orders for the account (its SDKs' sign_agent): NONE, unwarned, before.
    expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['SET_OWNER_AUTHORITY', 'WARNING']])
    expect(response.warnings[0]?.message).toContain(`makes ${shortAddress(fee)} an agent of your Hyperliquid account`)
    expect(response.action).toBe('WARN')
    expect(response.simulationResults.error).toBeNull()
    expect(response.simulationResults.decodedMessage?.fields.map((field) => field.value)).toEqual([
      'Mainnet',
      fee.toLowerCase(),
      'bot',
      '1764254000000',
    ])
  })

  it("Hyperliquid's convertToMultiSigUser to another's signers: USER_ACCOUNT_OWNER_CHANGE naming them; to the signer alone: NONE", async () => {
    // Its SDKs' sign_convert_to_multi_sig_user_action: once Hyperliquid has it, only the listed users' signatures act.
    const convert = (users: string[]) => ({
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        'HyperliquidTransaction:ConvertToMultiSigUser': [
          { name: 'hyperliquidChain', type: 'string' },
          { name: 'signers', type: 'string' },
          { name: 'nonce', type: 'uint64' },
        ],
      },
      primaryType: 'HyperliquidTransaction:ConvertToMultiSigUser',
      domain: { name: 'HyperliquidSignTransaction', version: '1', chainId: 42161, verifyingContract: zeroAddress },
      message: {
        hyperliquidChain: 'Mainnet',
        signers: JSON.stringify({ authorizedUsers: users, threshold: 1 }),
        nonce: 1764254000000,
      },
    })
    const taken = (await scanOk(request({ kind: 'SIGN_TYPED_DATA', data: convert([fee]) }, user), fixtures.rpcUrl))
      .response
    expect(validate(taken)).toEqual([])
    expect(taken.warnings.map((w) => [w.kind, w.severity])).toEqual([['USER_ACCOUNT_OWNER_CHANGE', 'WARNING']])
    expect(taken.warnings[0]?.message).toContain(`into a multi-sig of ${shortAddress(fee)} (threshold 1)`)
    expect(taken.action).toBe('WARN')
    const own = (await scanOk(request({ kind: 'SIGN_TYPED_DATA', data: convert([user]) }, user), fixtures.rpcUrl))
      .response
    expect(own.warnings).toEqual([])
    expect(own.action).toBe('NONE')
  })

  describe("Hyperliquid's sends, executed by its own chain: where they pay", () => {
    /** A user-signed Hyperliquid action as its SDKs build it: `fields` of `HyperliquidTransaction:<action>`. */
    const hyperliquid = (action: string, fields: [string, string][], message: Record<string, unknown>) => ({
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        [`HyperliquidTransaction:${action}`]: fields.map(([name, type]) => ({ name, type })),
      },
      primaryType: `HyperliquidTransaction:${action}`,
      domain: { name: 'HyperliquidSignTransaction', version: '1', chainId: 42161, verifyingContract: zeroAddress },
      message: { hyperliquidChain: 'Mainnet', ...message },
    })
    const USD_FIELDS: [string, string][] = [
      ['hyperliquidChain', 'string'],
      ['destination', 'string'],
      ['amount', 'string'],
      ['time', 'uint64'],
    ]
    const scanSend = async (data: unknown) => {
      const { response } = await scanOk(request({ kind: 'SIGN_TYPED_DATA', data }, user), fixtures.rpcUrl)
      expect(validate(response)).toEqual([])
      return response
    }

    it('a withdrawal to the signer: NONE; a usdSend of 25000 USDC to another address: WARN naming it', async () => {
      const time = 1764254000000
      const home = await scanSend(
        hyperliquid('Withdraw', USD_FIELDS, { destination: user.toLowerCase(), amount: '1500.5', time }),
      )
      expect(home.warnings).toEqual([])
      expect(home.action).toBe('NONE')
      const away = await scanSend(
        hyperliquid('UsdSend', USD_FIELDS, { destination: fee.toLowerCase(), amount: '25000', time }),
      )
      expect(away.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_PROCEEDS_TO_OTHER_ADDRESS', 'WARNING']])
      expect(away.warnings[0]?.message).toContain(
        `sends 25000 USDC of your Hyperliquid account to ${shortAddress(fee)}`,
      )
      expect(away.action).toBe('WARN')
    })

    it('a spotSend names the token it moves', async () => {
      const fields: [string, string][] = [...USD_FIELDS.slice(0, 2), ['token', 'string'], ...USD_FIELDS.slice(2)]
      const message = { destination: fee.toLowerCase(), token: 'PURR:0xc1fb593aeffbeb02f85e0308e9956a90', amount: '10' }
      const response = await scanSend(hyperliquid('SpotSend', fields, { ...message, time: 1764254000000 }))
      expect(response.warnings[0]?.message).toContain('sends 10 PURR of your Hyperliquid account')
      expect(response.action).toBe('WARN')
    })
  })

  describe('Farcaster account transfers (IdRegistry), in the shapes of @farcaster/core', () => {
    const ID_REGISTRY = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b'
    const registry = (primaryType: string, fields: [string, string][], message: Record<string, unknown>) => ({
      types: { EIP712Domain: NAMED_DOMAIN_FIELDS, [primaryType]: fields.map(([name, type]) => ({ name, type })) },
      primaryType,
      domain: { name: 'Farcaster IdRegistry', version: '1', chainId: 10, verifyingContract: ID_REGISTRY },
      message: { fid: '12345', nonce: '0', deadline: '1900000000', ...message },
    })
    const TRANSFER: [string, string][] = [
      ['fid', 'uint256'],
      ['to', 'address'],
      ['nonce', 'uint256'],
      ['deadline', 'uint256'],
    ]
    const scanTransfer = async (data: unknown) => {
      const { response } = await scanOk(request({ kind: 'SIGN_TYPED_DATA', data }, user), fixtures.rpcUrl)
      expect(validate(response)).toEqual([])
      return response
    }

    it('a transfer of the account to another address: USER_ACCOUNT_OWNER_CHANGE naming the fid and who gets it', async () => {
      const response = await scanTransfer(registry('Transfer', TRANSFER, { to: fee }))
      expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['USER_ACCOUNT_OWNER_CHANGE', 'WARNING']])
      expect(response.warnings[0]?.message).toContain(
        `hands your Farcaster account (fid 12345) to ${shortAddress(fee)}`,
      )
      expect(response.action).toBe('WARN')
    })

    it('a transfer to the signer (an account moved between its own addresses): NONE', async () => {
      const fields: [string, string][] = [...TRANSFER.slice(0, 2), ['recovery', 'address'], ...TRANSFER.slice(2)]
      const response = await scanTransfer(registry('TransferAndChangeRecovery', fields, { to: user, recovery: fee }))
      expect(response.warnings).toEqual([])
      expect(response.action).toBe('NONE')
    })
  })

  describe("Velora Delta orders, as @velora-dex/sdk's produceDeltaOrderTypedData builds them", () => {
    const deltaOrder = (beneficiary: Address, fields: Record<string, unknown> = {}) => ({
      types: {
        EIP712Domain: NAMED_DOMAIN_FIELDS,
        Order: [
          ['owner', 'address'],
          ['beneficiary', 'address'],
          ['srcToken', 'address'],
          ['destToken', 'address'],
          ['srcAmount', 'uint256'],
          ['destAmount', 'uint256'],
          ['expectedAmount', 'uint256'],
          ['deadline', 'uint256'],
          ['kind', 'uint8'],
          ['nonce', 'uint256'],
          ['partnerAndFee', 'uint256'],
          ['permit', 'bytes'],
          ['metadata', 'bytes'],
          ['bridge', 'Bridge'],
        ].map(([name, type]) => ({ name, type })),
        Bridge: [
          ['protocolSelector', 'bytes4'],
          ['destinationChainId', 'uint256'],
          ['outputToken', 'address'],
          ['scalingFactor', 'int8'],
          ['protocolData', 'bytes'],
        ].map(([name, type]) => ({ name, type })),
      },
      primaryType: 'Order',
      domain: { name: 'Portikus', version: '2.0.0', chainId: 31337, verifyingContract: fixtures.deployer },
      message: {
        owner: user,
        beneficiary,
        srcToken: fixtures.erc20.address,
        destToken: fixtures.weth.address,
        srcAmount: '1000000000',
        destAmount: '290000000000000000',
        expectedAmount: '300000000000000000',
        deadline: '1900000000',
        kind: 0,
        nonce: '1764254000000',
        partnerAndFee: '0',
        permit: '0x',
        metadata: '0x',
        bridge: {
          protocolSelector: '0x00000000',
          destinationChainId: '0',
          outputToken: zeroAddress,
          scalingFactor: 0,
          protocolData: '0x',
        },
        ...fields,
      },
    })
    const balanceOf = (token: Address) =>
      createPublicClient({ chain: foundry, transport: http(fixtures.rpcUrl) }).readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [user],
      })

    it('paying the owner (the SDK default): NONE; paying another address: WARN naming it', async () => {
      const own = (await scanOk(typed(deltaOrder(user)), fixtures.rpcUrl)).response
      expect(validate(own)).toEqual([])
      expect(own.warnings).toEqual([])
      expect(own.action).toBe('NONE')
      const elsewhere = (await scanOk(typed(deltaOrder(fee)), fixtures.rpcUrl)).response
      // Only the sale is the signer's, as for a CoW order paid elsewhere: 1,000 USDC out for nothing shown back.
      expect(elsewhere.warnings.map((w) => w.kind)).toEqual([
        'TRADE_PROCEEDS_TO_OTHER_ADDRESS',
        'IMBALANCED_DOLLAR_VALUE',
      ])
      expect(elsewhere.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
        'Send 1,000 USDC',
      ])
      expect(elsewhere.warnings[0]?.message).toContain(`pays what it buys to ${shortAddress(fee)}, not to you`)
      expect(elsewhere.action).toBe('WARN')
    })

    it('shows what it sells and buys, read from the devnet tokens: "Send 1,000 USDC", "Receive at least 0.29 WETH"', async () => {
      const { response } = await scanOk(typed(deltaOrder(user)), fixtures.rpcUrl)
      const changes = response.simulationResults.expectedStateChanges
      expect(changes.map((c) => c.humanReadableDiff)).toEqual(['Send 1,000 USDC', 'Receive at least 0.29 WETH'])
      const usdc = await balanceOf(fixtures.erc20.address)
      const weth = await balanceOf(fixtures.weth.address)
      expect(changes.map((c) => (c.rawInfo.data as { amount: unknown }).amount)).toEqual([
        { before: usdc.toString(), after: (usdc - 1_000_000_000n).toString() },
        { before: weth.toString(), after: (weth + 290_000_000_000_000_000n).toString() },
      ])
      const buy = (await scanOk(typed(deltaOrder(user, { kind: 1 })), fixtures.rpcUrl)).response
      expect(buy.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
        'Send at most 1,000 USDC',
        'Receive 0.29 WETH',
      ])
    })

    it('paying the owner 1 wei of WETH for 1,000 USDC: TRADE_FOR_NOTHING, BLOCK', async () => {
      const drain = deltaOrder(user, { destAmount: '1', expectedAmount: '1' })
      const { response } = await scanOk(typed(drain), fixtures.rpcUrl)
      expect(validate(response)).toEqual([])
      expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['TRADE_FOR_NOTHING', 'CRITICAL']])
      expect(response.action).toBe('BLOCK')
      expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
        'Send 1,000 USDC',
        'Receive at least <0.000001 WETH',
      ])
    })

    it('a zero beneficiary, which the settlement pays to the owner: NONE, its proceeds shown (WARN naming 0x0 before)', async () => {
      const { response } = await scanOk(typed(deltaOrder(zeroAddress)), fixtures.rpcUrl)
      expect(validate(response)).toEqual([])
      expect(response.warnings).toEqual([])
      expect(response.action).toBe('NONE')
      expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
        'Send 1,000 USDC',
        'Receive at least 0.29 WETH',
      ])
    })

    describe('cross-chain, bought here and bridged to Base', () => {
      const BASE_WETH = '0x4200000000000000000000000000000000000006'
      const bridge = {
        protocolSelector: '0x5f3bd1c8',
        destinationChainId: '8453',
        outputToken: BASE_WETH,
        scalingFactor: 0,
        // Opaque to Preflight: how the bridge pays out.
        protocolData: `0x${'00'.repeat(31)}01`,
      }

      it('only the sale is shown here, and a warning names the chain and token it pays in (NONE and WETH here before)', async () => {
        const { response } = await scanOk(typed(deltaOrder(user, { bridge })), fixtures.rpcUrl)
        expect(validate(response)).toEqual([])
        expect(response.simulationResults.expectedStateChanges.map((c) => c.humanReadableDiff)).toEqual([
          'Send 1,000 USDC',
        ])
        // No dollar comparison of 1,000 USDC against nothing: the proceeds are not missing, they are elsewhere.
        expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([
          ['RELIABLE_SIMULATION_NOT_POSSIBLE', 'WARNING'],
        ])
        expect(response.warnings[0]?.message).toContain(
          `pays what it buys on Base (chain 8453), through a bridge, as the token ${shortAddress(BASE_WETH)} there`,
        )
        expect(response.warnings[0]?.data).toEqual({ destinationChainId: 8453, outputToken: BASE_WETH })
        expect(response.action).toBe('WARN')
      })

      it('bridging 1 wei of WETH for 1,000 USDC is still a trade for nothing, judged on what it buys here: BLOCK', async () => {
        const drain = deltaOrder(user, { bridge, destAmount: '1', expectedAmount: '1' })
        const { response } = await scanOk(typed(drain), fixtures.rpcUrl)
        expect(validate(response)).toEqual([])
        expect(response.warnings.map((w) => w.kind)).toEqual(['TRADE_FOR_NOTHING', 'RELIABLE_SIMULATION_NOT_POSSIBLE'])
        expect(response.action).toBe('BLOCK')
      })
    })
  })

  it('takes the typed data as a JSON string too, the way eth_signTypedData_v4 carries it', async () => {
    const data = JSON.stringify({
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], Login: [{ name: 'nonce', type: 'string' }] },
      primaryType: 'Login',
      domain: { chainId: '0x7a69' },
      message: { nonce: 'abc' },
    })
    const { response } = await scanOk(typed(data), fixtures.rpcUrl)
    expect(response.simulationResults.decodedMessage?.fields).toEqual([{ name: 'nonce', type: 'string', value: 'abc' }])
  })

  describe('raw messages', () => {
    it('PERSONAL_SIGN shows the text of hex-encoded UTF-8; action NONE', async () => {
      const text = 'Welcome to OpenSea!\n\nNonce: 7f3a'
      const { response, roundTrips } = await scanOk(
        request({ kind: 'PERSONAL_SIGN', rawMessage: stringToHex(text) }),
        fixtures.rpcUrl,
      )
      expect(validate(response)).toEqual([])
      expect(response.action).toBe('NONE')
      expect(response.simulationResults.decodedMessage).toEqual({
        primaryType: 'PERSONAL_SIGN',
        fields: [{ name: 'message', type: 'string', value: text }],
      })
      expect(roundTrips).toBe(0)
    })

    it('SIGN_MESSAGE of a bare 32-byte hash is blind signing: ETH_SIGN_TX_HASH, CRITICAL, BLOCK', async () => {
      const hash = keccak256(toHex('0x02f8…a transaction'))
      const { response } = await scanOk(request({ kind: 'SIGN_MESSAGE', rawMessage: hash }), fixtures.rpcUrl)
      expect(validate(response)).toEqual([])
      expect(response.warnings.map((w) => [w.kind, w.severity])).toEqual([['ETH_SIGN_TX_HASH', 'CRITICAL']])
      expect(response.action).toBe('BLOCK')
    })
  })

  describe('malformed typed data: WARN, and an error naming the field in the response, never a throw', () => {
    const base = () =>
      permit2PermitSingle({
        chainId: '31337',
        token: fixtures.erc20.address,
        amount: 1n,
        expiration: 1900000000,
        spender: fee,
        sigDeadline: 1900000000,
      })
    const details = (data: TypedData) => data.message.details as Record<string, unknown>
    const cases: [string, () => unknown, RegExp][] = [
      [
        'no EIP712Domain',
        () => {
          const data = base()
          delete data.types.EIP712Domain
          return data
        },
        /^message\.data\.types\.EIP712Domain: missing/,
      ],
      [
        'a field of an undefined type',
        () => {
          const data = base()
          data.types.PermitSingle = [...(data.types.PermitSingle ?? []), { name: 'extra', type: 'Undeclared' }]
          return data
        },
        /^message\.data\.types\.PermitSingle\[\d+\]\.type: "Undeclared" is neither an EIP-712 type nor defined$/,
      ],
      [
        'undefined primary type',
        () => ({ ...base(), primaryType: 'PermitAll' }),
        /^message\.data\.primaryType: "PermitAll" is not defined/,
      ],
      [
        'wrong field type',
        () => {
          const data = base()
          details(data).amount = 'abc'
          return data
        },
        /^message\.data\.message\.details\.amount: expected uint160, got "abc"$/,
      ],
      ['empty domain', () => ({ ...base(), domain: {} }), /^message\.data\.domain: empty/],
      [
        'huge number',
        () => {
          const data = base()
          details(data).amount = 2 ** 70
          return data
        },
        /^message\.data\.message\.details\.amount: expected uint160, got the number .* beyond 2\^53/,
      ],
      [
        'number out of range',
        () => {
          const data = base()
          details(data).expiration = (2n ** 48n).toString()
          return data
        },
        /^message\.data\.message\.details\.expiration: expected uint48, got "281474976710656" \(out of range/,
      ],
      [
        'cyclic types',
        () => {
          const data = base()
          data.types.PermitDetails = [...(data.types.PermitDetails ?? []), { name: 'next', type: 'PermitSingle' }]
          return data
        },
        /^message\.data\.types\.\w+: cyclic type: /,
      ],
      [
        'a domain value of the wrong type',
        () => ({ ...base(), domain: { ...base().domain, verifyingContract: { ens: 'permit2.eth' } } }),
        /^message\.data\.domain\.verifyingContract: expected address, got \{"ens":"permit2\.eth"\}$/,
      ],
      ['not an object', () => 'hello', /^message\.data: expected an object/],
    ]
    for (const [name, payload, expected] of cases) {
      it(name, async () => {
        const outcome = await scanMessage(typed(payload()), { rpcUrl: fixtures.rpcUrl })
        if (!outcome.ok) throw new Error(`expected a response, got ${outcome.error.message}`)
        expect(outcome.response.simulationResults.error?.kind).toBe('INVALID_MESSAGE')
        expect(outcome.response.simulationResults.error?.humanReadableError).toMatch(expected)
        expect(outcome.response.simulationResults.expectedStateChanges).toEqual([])
        // Never "no issues": the user is warned that the message is malformed, and why.
        expect(outcome.response.action).toBe('WARN')
        const [warning, ...others] = outcome.response.warnings
        expect(others).toEqual([])
        expect(warning).toMatchObject({ kind: 'RELIABLE_SIMULATION_NOT_POSSIBLE', severity: 'WARNING' })
        expect(warning?.message).toContain('malformed')
        expect(warning?.message).toContain(outcome.response.simulationResults.error?.humanReadableError)
        expect(warning?.message).toMatch(/^This message could not be read — do not sign unless you know why\. /)
        expect(validate(outcome.response)).toEqual([])
      })
    }
  })

  describe('malformed requests: INVALID_REQUEST naming the field', () => {
    const cases: [string, unknown, string][] = [
      ['not an object', 42, 'request'],
      ['null', null, 'request'],
      [
        'no message',
        { userAccount: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', metadata: { origin: 'https://a.example' } },
        'message',
      ],
      [
        'unknown kind',
        {
          message: { kind: 'SIGN_EVERYTHING' },
          userAccount: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
          metadata: { origin: 'https://a.example' },
        },
        'message.kind',
      ],
      [
        'bad userAccount',
        {
          message: { kind: 'PERSONAL_SIGN', rawMessage: '0x' },
          userAccount: 'bob',
          metadata: { origin: 'https://a.example' },
        },
        'userAccount',
      ],
      [
        'no origin',
        {
          message: { kind: 'PERSONAL_SIGN', rawMessage: '0x' },
          userAccount: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
          metadata: {},
        },
        'metadata.origin',
      ],
      [
        'rawMessage not a string',
        {
          message: { kind: 'SIGN_MESSAGE', rawMessage: 7 },
          userAccount: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
          metadata: { origin: 'https://a.example' },
        },
        'message.rawMessage',
      ],
    ]
    for (const [name, body, field] of cases) {
      it(name, async () => {
        const outcome = await scanMessage(body, { rpcUrl: fixtures.rpcUrl })
        expect(outcome).toMatchObject({ ok: false, error: { kind: 'INVALID_REQUEST', field } })
      })
    }
  })
})
