import './support/pageGlobals.ts'
import { describe, expect, it } from 'vitest'
import { ETHER_MAIL } from '../../../src/devnet/eip712.ts'
import { plantedError, plantedField, plantedMethod } from '../../../src/extension/inpage/plantedFields.ts'
import { withPlanted } from './support/planted.ts'

const FRIEND = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

describe('plantedField', () => {
  const tx = { from: FRIEND, to: FRIEND, data: '0x', chainId: '0x7a69' }

  it('finds a transaction field the request leaves out and the page put on Object.prototype, as a value or getter', async () => {
    expect(plantedField('eth_sendTransaction', [tx])).toBeUndefined()
    const [read, send, sign, walletSend] = await withPlanted({ value: '0xde0b6b3a7640000' }, () => [
      (tx as { value?: string }).value,
      plantedField('eth_sendTransaction', [tx]),
      plantedField('eth_signTransaction', [tx]),
      plantedField('wallet_sendTransaction', [tx]),
    ])
    expect(read).toBe('0xde0b6b3a7640000')
    expect(send).toEqual({ where: 'the transaction', name: 'value' })
    expect(sign).toEqual({ where: 'the transaction', name: 'value' })
    expect(walletSend).toEqual({ where: 'the transaction', name: 'value' })
    const fee = await withPlanted({ 'get:maxFeePerGas': '0xffffffffffff' }, () =>
      plantedField('eth_sendTransaction', [{ ...tx, value: '0x0' }]),
    )
    expect(fee).toEqual({ where: 'the transaction', name: 'maxFeePerGas' })
  })

  it('lets through a field the request has, and names no wallet reads for the method', async () => {
    const found = await withPlanted({ value: '0x1', kind: 'x' }, () => [
      plantedField('eth_sendTransaction', [{ ...tx, value: '0x0' }]),
      plantedField('personal_sign', ['0x6869', FRIEND]),
      plantedField('eth_sendRawTransaction', ['0x02']),
    ])
    expect(found).toEqual([undefined, undefined, undefined])
  })

  it('checks a batch and each of its calls', async () => {
    const batch = { version: '2.0.0', from: FRIEND, chainId: '0x7a69', atomicRequired: false, capabilities: {} }
    const calls = [{ to: FRIEND, value: '0x1', data: '0x' }, { to: FRIEND }]
    expect(
      await withPlanted({ data: '0x095ea7b3' }, () => plantedField('wallet_sendCalls', [{ ...batch, calls }])),
    ).toEqual({
      where: 'call 1',
      name: 'data',
    })
    expect(await withPlanted({ calls: [] }, () => plantedField('wallet_sendCalls', [batch]))).toEqual({
      where: 'the batch',
      name: 'calls',
    })
  })

  it('checks the capabilities of a batch and of its calls, whose names are an open set', async () => {
    const call = { to: FRIEND, value: '0x1', data: '0x' }
    const paymaster = { url: 'https://pay.example' }
    const batch = { version: '2.0.0', from: FRIEND, chainId: '0x7a69', atomicRequired: false }
    const evil = { url: 'https://evil.example' }
    const found = await withPlanted({ paymasterService: evil }, () => [
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: {}, calls: [call] }]),
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: { paymasterService: paymaster }, calls: [call] }]),
      plantedField('wallet_sendCalls', [{ ...batch, calls: [call, { ...call, capabilities: {} }] }]),
      plantedField('wallet_sendCalls', [{ ...batch, calls: [call] }]),
    ])
    expect(found).toEqual([
      { where: "the batch's capabilities", name: 'paymasterService' },
      // A name the page added could be any capability's field: the nested object lacks it too.
      { where: "the batch's capabilities", name: 'paymasterService' },
      { where: 'the capabilities of call 1', name: 'paymasterService' },
      undefined,
    ])
    const inner = await withPlanted({ context: { policy: 'planted' } }, () =>
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: { paymasterService: paymaster }, calls: [call] }]),
    )
    expect(inner).toEqual({ where: "the batch's capabilities", name: 'context' })
    const missing = await withPlanted({ capabilities: { paymasterService: evil } }, () =>
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: {}, calls: [call] }]),
    )
    expect(missing).toEqual({ where: 'call 0', name: 'capabilities' })
    const deep: Record<string, unknown> = {}
    let level = deep
    for (let depth = 0; depth < 12; depth++) level = level.next = { context: 1 } as Record<string, unknown>
    const tooDeep = await withPlanted({ context: 'planted' }, () =>
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: { ...deep, context: 0 }, calls: [call] }]),
    )
    expect(tooDeep).toEqual({ where: "the batch's capabilities", name: 'context' })
    expect(
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: { paymasterService: paymaster }, calls: [call] }]),
    ).toBeUndefined()
  })

  it('checks capabilities, or fields of them, that are lists or plain values, which read through their prototypes', async () => {
    const call = { to: FRIEND, value: '0x1', data: '0x' }
    const batch = { version: '2.0.0', from: FRIEND, chainId: '0x7a69', atomicRequired: false }
    const evil = { url: 'https://evil.example' }
    const onObjects = await withPlanted({ paymasterService: evil, url: evil.url }, () => [
      // A wallet's capabilities.paymasterService, or its .url, reads the page's through [] and "x" alike.
      ([] as unknown as { paymasterService: unknown }).paymasterService,
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: [], calls: [call] }]),
      plantedField('wallet_sendCalls', [{ ...batch, capabilities: 'none', calls: [call] }]),
      plantedField('wallet_sendCalls', [{ ...batch, calls: [{ ...call, capabilities: { paymasterService: [] } }] }]),
    ])
    expect(onObjects).toEqual([
      evil,
      { where: "the batch's capabilities", name: 'paymasterService' },
      { where: "the batch's capabilities", name: 'paymasterService' },
      { where: 'the capabilities of call 0', name: 'url' },
    ])
    const onLists = await withPlanted(
      { paymasterService: evil },
      () => plantedField('wallet_sendCalls', [{ ...batch, capabilities: [], calls: [call] }]),
      Array.prototype,
    )
    expect(onLists).toEqual({ where: "the batch's capabilities", name: 'paymasterService' })
    const onText = await withPlanted(
      { url: evil.url },
      () => plantedField('wallet_sendCalls', [{ ...batch, capabilities: { paymasterService: 'x' }, calls: [call] }]),
      String.prototype,
    )
    expect(onText).toEqual({ where: "the batch's capabilities", name: 'url' })
    // A polyfill's method on String.prototype or Array.prototype does not refuse a paymaster's URL or a list deeper
    // down, whose named fields no wallet reads.
    const sponsored = { paymasterService: { url: 'https://pay.example', chains: ['0x1'] } }
    for (const prototype of [String.prototype, Array.prototype]) {
      const polyfilled = await withPlanted(
        { polyfilled: () => 0 },
        () => plantedField('wallet_sendCalls', [{ ...batch, capabilities: sponsored, calls: [call] }]),
        prototype,
      )
      expect(polyfilled).toBeUndefined()
    }
    expect(
      plantedField('wallet_sendCalls', [
        { ...batch, capabilities: { paymasterService: ['x', 1, true] }, calls: [call] },
      ]),
    ).toBeUndefined()
  })

  it('finds capabilities that read any name through an object the page put beneath a builtin prototype', () => {
    const call = { to: FRIEND, value: '0x1', data: '0x' }
    const batch = { version: '2.0.0', from: FRIEND, chainId: '0x7a69', atomicRequired: false }
    const evil = { url: 'https://evil.example' }
    const answering = new Proxy(Object.create(null), { get: (_target, key) => (key === 'url' ? evil.url : evil) })
    const found: unknown[] = []
    for (const [prototype, capabilities] of [
      [Array.prototype, []],
      [String.prototype, { paymasterService: 'x' }],
      [Number.prototype, 0],
      [Boolean.prototype, { paymasterService: true }],
    ] as const) {
      Object.setPrototypeOf(prototype, answering)
      try {
        found.push(plantedField('wallet_sendCalls', [{ ...batch, capabilities, calls: [call] }]))
        found.push(
          plantedField('wallet_sendCalls', [{ ...batch, capabilities: { paymasterService: evil }, calls: [call] }]),
        )
      } finally {
        Object.setPrototypeOf(prototype, Object.prototype)
      }
    }
    const where = "the batch's capabilities"
    expect(found).toEqual([
      { where, beneath: 'Array.prototype' },
      undefined,
      { where, beneath: 'String.prototype' },
      undefined,
      { where, beneath: 'Number.prototype' },
      undefined,
      { where, beneath: 'Boolean.prototype' },
      undefined,
    ])
    expect(plantedError({ where, beneath: 'Array.prototype' }).message).toContain(
      "the batch's capabilities reads any field it lacks through an object the page put beneath Array.prototype",
    )
  })

  it('checks an ERC-7715 permission request, an open set of fields like capabilities', async () => {
    const request = {
      chainId: '0x7a69',
      signer: { type: 'account', data: { address: FRIEND } },
      permission: { type: 'native-token-stream', data: { amountPerSecond: '0x1' } },
    }
    for (const method of ['wallet_grantPermissions', 'wallet_requestExecutionPermissions'] as const) {
      expect(plantedField(method, [[request]])).toBeUndefined()
      const found = await withPlanted({ maxAmount: '0xffff' }, () => plantedField(method, [[request]]))
      expect(found).toEqual({ where: 'the permission request', name: 'maxAmount' })
    }
  })

  it('checks typed data given as an object or as JSON text, its domain, and legacy entries', async () => {
    const data = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }] },
      primaryType: 'EIP712Domain',
      domain: { name: 'Token' },
      message: {},
    }
    const [object, json] = await withPlanted({ verifyingContract: FRIEND }, () => [
      plantedField('eth_signTypedData_v4', [FRIEND, data]),
      plantedField('eth_signTypedData_v4', [FRIEND, JSON.stringify(data)]),
    ])
    expect(object).toEqual({ where: 'the domain', name: 'verifyingContract' })
    expect(json).toEqual({ where: 'the domain', name: 'verifyingContract' })
    const legacy = await withPlanted({ value: 'planted' }, () =>
      plantedField('eth_signTypedData_v1', [[{ type: 'string', name: 'a' }], FRIEND]),
    )
    expect(legacy).toEqual({ where: 'entry 0', name: 'value' })
  })

  it('checks a struct, a list, the domain or the types given as text, a number or a list, read through their prototypes', async () => {
    const domain = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: FRIEND, salt: '0x00' }
    const { from, contents } = ETHER_MAIL.message
    const mail = (change: Record<string, unknown>) => ({ ...ETHER_MAIL, domain, ...change })
    const onText = await withPlanted(
      { wallet: FRIEND, verifyingContract: FRIEND, Mail: [], type: 'address' },
      () => [
        plantedField('eth_signTypedData_v4', [FRIEND, mail({ message: { from, to: 'Bob', contents } })]),
        plantedField('eth_signTypedData_v4', [FRIEND, JSON.stringify(mail({ domain: 'Ether Mail' }))]),
        plantedField('eth_signTypedData_v4', [FRIEND, mail({ types: 'none' })]),
        plantedField('eth_signTypedData_v4', [FRIEND, mail({ types: { ...ETHER_MAIL.types, Person: ['name'] } })]),
        plantedField('eth_signTypedData_v1', [['entry'], FRIEND]),
      ],
      String.prototype,
    )
    expect(onText).toEqual([
      { where: 'the message.to', name: 'wallet', on: 'String.prototype' },
      { where: 'the domain', name: 'verifyingContract', on: 'String.prototype' },
      { where: 'the types', name: 'Mail', on: 'String.prototype' },
      { where: 'field 0 of type Person', name: 'type', on: 'String.prototype' },
      { where: 'entry 0', name: 'type', on: 'String.prototype' },
    ])
    const list = {
      types: { EIP712Domain: [{ name: 'name', type: 'string' }], Ballot: [{ name: 'choices', type: 'uint256[]' }] },
      primaryType: 'Ballot',
      domain: { name: 'Ballot' },
      message: { choices: '12' },
    }
    // A list given as text reads its list methods (map, forEach) from String.prototype, added names included.
    const asText = await withPlanted(
      { map: () => [] },
      () => plantedField('eth_signTypedData_v4', [FRIEND, list]),
      String.prototype,
    )
    expect(asText).toEqual({ where: 'the message.choices', name: 'map' })
    const asArray = await withPlanted(
      { wallet: FRIEND },
      () => plantedField('eth_signTypedData_v4', [FRIEND, mail({ message: { from, to: [], contents } })]),
      Array.prototype,
    )
    expect(asArray).toEqual({ where: 'the message.to', name: 'wallet', on: 'Array.prototype' })
    Object.setPrototypeOf(Number.prototype, new Proxy({}, {}))
    let beneath: unknown
    try {
      beneath = plantedField('eth_signTypedData_v4', [FRIEND, mail({ message: { from, to: 5, contents } })])
    } finally {
      Object.setPrototypeOf(Number.prototype, Object.prototype)
    }
    expect(beneath).toEqual({ where: 'the message.to', beneath: 'Number.prototype' })
    expect(plantedField('eth_signTypedData_v4', [FRIEND, mail({ message: { from, to: 'Bob', contents } })])).toBe(
      undefined,
    )
  })

  it('walks the message as its types declare it, into structs and arrays of them', async () => {
    const domain = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: FRIEND, salt: '0x00' }
    const { from, to, contents } = ETHER_MAIL.message
    const noContents = { ...ETHER_MAIL, domain, message: { from, to } }
    const noWallet = { ...ETHER_MAIL, domain, message: { from, to: { name: to.name }, contents } }
    const group = {
      types: { Person: ETHER_MAIL.types.Person, Group: [{ name: 'members', type: 'Person[]' }] },
      primaryType: 'Group',
      domain,
      message: { members: [from, { name: 'Eve' }] },
    }
    const found = await withPlanted({ wallet: '0x000000000000000000000000000000000000dead', contents: 'hi' }, () => [
      plantedField('eth_signTypedData_v4', [FRIEND, JSON.stringify(noContents)]),
      plantedField('eth_signTypedData_v4', [FRIEND, group]),
      plantedField('eth_signTypedData_v4', [FRIEND, { ...ETHER_MAIL, domain }]),
    ])
    expect(found).toEqual([
      { where: 'the message', name: 'contents' },
      { where: 'the message.members[1]', name: 'wallet' },
      undefined,
    ])
    const struct = await withPlanted({ wallet: '0x000000000000000000000000000000000000dead' }, () =>
      plantedField('eth_signTypedData_v4', [FRIEND, noWallet]),
    )
    expect(struct).toEqual({ where: 'the message.to', name: 'wallet' })
  })
  it('checks the type definitions a wallet reads to encode, whatever the values', async () => {
    const domain = { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: FRIEND, salt: '0x00' }
    const untyped = {
      ...ETHER_MAIL,
      domain,
      types: { ...ETHER_MAIL.types, Mail: [...ETHER_MAIL.types.Mail.slice(0, 2), { name: 'contents' }] },
    }
    const found = await withPlanted(
      { address: [{ name: 'x', type: 'uint8' }], EIP712Domain: [], 'get:type': 'string' },
      () => [
        plantedField('eth_signTypedData_v4', [FRIEND, { ...ETHER_MAIL, domain }]),
        plantedField('eth_signTypedData_v4', [
          FRIEND,
          { ...ETHER_MAIL, domain, types: { ...ETHER_MAIL.types, EIP712Domain: [], address: [] } },
        ]),
        plantedField('eth_signTypedData_v4', [
          FRIEND,
          { ...untyped, types: { ...untyped.types, EIP712Domain: [], address: [] } },
        ]),
      ],
    )
    expect(found).toEqual([
      { where: 'the types', name: 'EIP712Domain' },
      undefined,
      { where: 'field 2 of type Mail', name: 'type' },
    ])
    const atomic = await withPlanted({ address: [{ name: 'x', type: 'uint8' }] }, () =>
      plantedField('eth_signTypedData_v4', [FRIEND, { ...ETHER_MAIL, domain }]),
    )
    expect(atomic).toEqual({ where: 'the types', name: 'address' })
  })

  it("finds an item a wallet reads past an array's end that the page put on Array.prototype", async () => {
    const domain = { name: 'Ballot', chainId: 31337 }
    const votes = (type: string, ids: string[]) => ({
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Votes: [{ name: 'ids', type }],
      },
      primaryType: 'Votes',
      domain,
      message: { ids },
    })
    const [params, oneTx, short, shortText, dynamic, full, nested] = await withPlanted(
      { 0: { to: FRIEND, value: '0x1' }, 1: '7', 3: '9' },
      () => [
        plantedField('eth_signTypedData_v4', [FRIEND]),
        plantedField('eth_sendTransaction', [tx]),
        plantedField('eth_signTypedData_v4', [FRIEND, votes('uint256[2]', ['1'])]),
        plantedField('eth_signTypedData_v4', [FRIEND, JSON.stringify(votes('uint256[2]', ['1']))]),
        plantedField('eth_signTypedData_v4', [FRIEND, votes('uint256[]', ['1'])]),
        plantedField('eth_signTypedData_v4', [FRIEND, votes('uint256[2]', ['1', '2'])]),
        plantedField('eth_signTypedData_v4', [FRIEND, votes('uint256[2][4]', [])]),
      ],
      Array.prototype,
    )
    expect(params).toEqual({ where: 'the list of params', index: 1 })
    expect(oneTx).toBeUndefined()
    expect(short).toEqual({ where: 'the message.ids', index: 1 })
    expect(shortText).toEqual({ where: 'the message.ids', index: 1 })
    expect(dynamic).toBeUndefined()
    expect(full).toBeUndefined()
    expect(nested).toEqual({ where: 'the message.ids', index: 0 })
    const empty = await withPlanted(
      { 0: { to: FRIEND } },
      () => plantedField('eth_sendTransaction', []),
      Array.prototype,
    )
    expect(empty).toEqual({ where: 'the list of params', index: 0 })
    expect(plantedError({ where: 'the message.ids', index: 1 }).message).toContain(
      'the message.ids ends before item 1, and the page gave every array an item 1',
    )
    const [innerShort, oddSize] = await withPlanted(
      { 1: '7' },
      () => [
        plantedField('eth_signTypedData_v4', [FRIEND, votes('uint256[2][2]', [['1', '2'], ['1']] as never)]),
        plantedField('eth_signTypedData_v4', [FRIEND, votes('uint256[02]', ['1'])]),
      ],
      Array.prototype,
    )
    expect(innerShort).toEqual({ where: 'the message.ids[1]', index: 1 })
    expect(oddSize).toEqual({ where: 'the message.ids', index: 1 })
  })

  it("finds an item past an array's end that the page put further down the chain: on Object.prototype, or an object of its own", async () => {
    const onObject = await withPlanted({ 1: FRIEND }, () => plantedField('personal_sign', ['0x6869']))
    expect(onObject).toEqual({ where: 'the list of params', index: 1 })
    const own = new Proxy({}, { get: (_target, key) => (key === '1' ? FRIEND : undefined) })
    Object.setPrototypeOf(Array.prototype, own)
    let found: unknown
    let full: unknown
    try {
      found = plantedField('personal_sign', ['0x6869'])
      full = plantedField('personal_sign', ['0x6869', FRIEND])
    } finally {
      Object.setPrototypeOf(Array.prototype, Object.prototype)
    }
    expect(found).toEqual({ where: 'the list of params', index: 1 })
    expect(full).toBeUndefined()
  })
})

describe('plantedMethod', () => {
  it('finds a method a wallet would read from the prototype of a primitive given as a request', async () => {
    const values = ['eth_chainId', 7, true, 7n, Symbol.iterator]
    expect(values.map(plantedMethod)).toEqual([false, false, false, false, false])
    expect([{}, null, undefined, () => {}].map(plantedMethod)).toEqual([false, false, false, false])
    for (const prototype of [
      String.prototype,
      Number.prototype,
      Boolean.prototype,
      BigInt.prototype,
      Symbol.prototype,
    ]) {
      const found = await withPlanted(
        { 'get:method': 'eth_sendTransaction' },
        () => values.map(plantedMethod),
        prototype,
      )
      expect(found.filter(Boolean), prototype.constructor.name).toHaveLength(1)
    }
    expect(await withPlanted({ method: 'eth_sendTransaction' }, () => values.map(plantedMethod))).toEqual(
      values.map(() => true),
    )
    // A Proxy the page puts beneath a primitive's prototype could answer any name.
    Object.setPrototypeOf(Number.prototype, new Proxy({}, {}))
    let beneath: unknown
    try {
      beneath = [7, 'eth_chainId'].map(plantedMethod)
    } finally {
      Object.setPrototypeOf(Number.prototype, Object.prototype)
    }
    expect(beneath).toEqual([true, false])
  })
})
