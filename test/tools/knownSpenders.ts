/**
 * Regenerates src/engine/risk/data/knownSpenders.json: the contracts that take approvals for a living (marketplace
 * exchanges, conduits and transfer delegates, swap routers, Permit2), per chain, from maintained deployment packages
 * on npm, never typed in by hand; and, from the same Aave address book, src/engine/risk/data/aaveInterestTokens.json:
 * Aave V3's aTokens and variable debt tokens, the only contracts whose interest events the balance reads trust. Run
 * `npx tsx test/tools/knownSpenders.ts` to refresh both (it downloads the pinned package versions with `npm pack`);
 * bump a version below to take a newer list.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress, getContractAddress } from 'viem'

const OUTPUT = new URL('../../src/engine/risk/data/knownSpenders.json', import.meta.url)
const AAVE_OUTPUT = new URL('../../src/engine/risk/data/aaveInterestTokens.json', import.meta.url)

const RESERVOIR = '@reservoir0x/sdk@0.0.372'
const ZERO_EX = '@0x/contract-addresses@8.13.0'
const PERMIT2 = '@uniswap/permit2-sdk@1.4.0'
const SEAPORT_JS = '@opensea/seaport-js'
const COW = '@cowprotocol/contracts@1.8.0'
const AAVE = '@bgd-labs/aave-address-book@4.44.22'
const UNISWAP = '@uniswap/sdk-core@7.19.4'
const UNIVERSAL_ROUTER = '@uniswap/universal-router-sdk@5.13.0'
const BALANCER = '@balancer-labs/v2-deployments@3.2.0'
const ONE_INCH = '@1inch/limit-order-sdk@5.4.3'

/** The chains where 1inch's router (its limit order protocol v4) sits at an address of its own, not the shared one. */
const ONE_INCH_OWN_CHAINS = [324, 999, 4663, 5042]

/** Uniswap's contracts that take approvals, as sdk-core's address maps name them (chain id → address). */
const UNISWAP_SPENDERS: [map: string, name: string][] = [
  ['V2_ROUTER_ADDRESSES', 'Uniswap V2 router'],
  ['SWAP_ROUTER_02_ADDRESSES', 'Uniswap swap router 02'],
  ['NONFUNGIBLE_POSITION_MANAGER_ADDRESSES', 'Uniswap V3 position manager'],
]

/** The chains of Balancer's deployment files, by file name. */
const BALANCER_CHAINS: Record<string, number> = {
  mainnet: 1,
  goerli: 5,
  optimism: 10,
  bsc: 56,
  gnosis: 100,
  polygon: 137,
  arbitrum: 42161,
}

/**
 * Aave V3's own contracts that users approve or delegate credit to (the address book's names): the pool they supply
 * through, the gateway that borrows native currency for them (`approveDelegation` first), and the adapters that swap
 * collateral or debt for them.
 */
const AAVE_SPENDERS: [entry: string, name: string][] = [
  ['POOL', 'Aave pool'],
  ['WETH_GATEWAY', 'Aave native currency gateway'],
  ['DEBT_SWAP_ADAPTER', 'Aave debt swap adapter'],
  ['REPAY_WITH_COLLATERAL_ADAPTER', 'Aave repay-with-collateral adapter'],
  ['SWAP_COLLATERAL_ADAPTER', 'Aave collateral swap adapter'],
  ['WITHDRAW_SWAP_ADAPTER', 'Aave withdraw-and-swap adapter'],
]

/**
 * Reservoir's deployment book: which entries are spenders people approve, the name they go by, and their protocol in
 * src/engine/risk/data/protocols.json where it lists one (it then labels them).
 */
const RESERVOIR_SPENDERS: [group: string, entry: string, name: string, protocol?: string][] = [
  ['SeaportV11', 'Exchange', 'Seaport 1.1', 'seaport'],
  ['SeaportV14', 'Exchange', 'Seaport 1.4', 'seaport'],
  ['SeaportV15', 'Exchange', 'Seaport 1.5', 'seaport'],
  ['SeaportV16', 'Exchange', 'Seaport 1.6', 'seaport'],
  ['Blur', 'Exchange', 'Blur exchange'],
  ['Blur', 'ExecutionDelegate', 'Blur execution delegate'],
  ['BlurV2', 'Exchange', 'Blur exchange v2'],
  ['BlurV2', 'Delegate', 'Blur delegate v2'],
  ['LooksRareV2', 'Exchange', 'LooksRare exchange'],
  ['LooksRareV2', 'TransferManager', 'LooksRare transfer manager'],
  ['X2Y2', 'Erc721Delegate', 'X2Y2 ERC-721 delegate'],
  ['X2Y2', 'Erc1155Delegate', 'X2Y2 ERC-1155 delegate'],
  ['Rarible', 'NFTTransferProxy', 'Rarible NFT transfer proxy'],
  ['Rarible', 'ERC20TransferProxy', 'Rarible ERC-20 transfer proxy'],
  ['Sudoswap', 'Router', 'Sudoswap router'],
  ['Element', 'Exchange', 'Element exchange'],
  ['PaymentProcessor', 'Exchange', 'Payment Processor'],
  ['PaymentProcessorV2', 'Exchange', 'Payment Processor v2'],
  ['ZeroExV4', 'Exchange', '0x exchange proxy', '0x'],
  ['Common', 'SwapRouter', 'Uniswap swap router', 'uniswap'],
  ['RouterV6', 'ApprovalProxy', 'Reservoir approval proxy'],
]

type Spender = { name: string; protocol?: string }
type Spenders = Record<string, Record<string, Spender>>
/** Per chain, each listed token's address and what it is ("AaveV3Ethereum USDC aToken"). */
type InterestTokens = Record<string, Record<string, string>>

/** The address book's entries of a reserve that log Aave V3's interest events (Mint/Burn with balanceIncrease). */
const AAVE_INTEREST_TOKENS: [entry: string, kind: string][] = [
  ['A_TOKEN', 'aToken'],
  ['V_TOKEN', 'variable debt token'],
]

function packed(spec: string, directory: string): string {
  const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', directory], { encoding: 'utf8' })
  const target = join(directory, spec.replaceAll('/', '-').replace('@', '').split('@')[0] as string)
  execFileSync('mkdir', ['-p', target])
  execFileSync('tar', ['xzf', join(directory, file.trim()), '-C', target])
  return join(target, 'package')
}

function add(spenders: Spenders, chain: string, address: string, name: string, protocol?: string): void {
  spenders[chain] ??= {}
  ;(spenders[chain] as Record<string, Spender>)[getAddress(address)] = { name, ...(protocol ? { protocol } : {}) }
}

function generate(): { sources: string[]; spenders: Spenders; interestTokens: InterestTokens } {
  const directory = mkdtempSync(join(tmpdir(), 'spenders-'))
  const spenders: Spenders = {}
  const interestTokens: InterestTokens = {}
  try {
    const book = JSON.parse(readFileSync(join(packed(RESERVOIR, directory), 'dist/addresses.json'), 'utf8'))
    for (const [group, entry, name, protocol] of RESERVOIR_SPENDERS) {
      for (const [chain, address] of Object.entries((book[group]?.[entry] ?? {}) as Record<string, string>)) {
        add(spenders, chain, address, name, protocol)
      }
    }
    const zeroEx = JSON.parse(readFileSync(join(packed(ZERO_EX, directory), 'addresses.json'), 'utf8'))
    for (const [chain, addresses] of Object.entries(zeroEx as Record<string, { exchangeProxy?: string }>)) {
      if (addresses.exchangeProxy) add(spenders, chain, addresses.exchangeProxy, '0x exchange proxy', '0x')
    }
    const permit2 = readFileSync(join(packed(PERMIT2, directory), 'dist/cjs/src/constants.js'), 'utf8')
    const permit2Address = /PERMIT2_ADDRESS = '(0x[0-9a-fA-F]{40})'/.exec(permit2)?.[1]
    if (!permit2Address) throw new Error(`${PERMIT2}: PERMIT2_ADDRESS not found`)
    add(spenders, 'all', permit2Address, 'Permit2', 'permit2')
    const seaport = createRequire(import.meta.url)(`${SEAPORT_JS}/lib/constants.js`) as {
      OPENSEA_CONDUIT_ADDRESS: string
      KNOWN_CONDUIT_KEYS_TO_CONDUIT: Record<string, string>
    }
    add(spenders, 'all', seaport.OPENSEA_CONDUIT_ADDRESS, 'OpenSea conduit')
    for (const conduit of Object.values(seaport.KNOWN_CONDUIT_KEYS_TO_CONDUIT))
      add(spenders, 'all', conduit, 'OpenSea conduit')
    // CoW's settlement creates its vault relayer, the spender its users approve, as its first contract (nonce 1).
    const cowDeployments = join(packed(COW, directory), 'deployments')
    for (const network of readdirSync(cowDeployments)) {
      const chain = readFileSync(join(cowDeployments, network, '.chainId'), 'utf8').trim()
      const settlement = JSON.parse(readFileSync(join(cowDeployments, network, 'GPv2Settlement.json'), 'utf8')).address
      add(spenders, chain, getContractAddress({ from: settlement, nonce: 1n }), 'CoW Protocol vault relayer', 'cow')
    }
    const aave = createRequire(import.meta.url)(join(packed(AAVE, directory), 'dist/AaveAddressBook.js')) as Record<
      string,
      Record<string, unknown>
    >
    for (const [market, book] of Object.entries(aave)) {
      if (!/^AaveV3/.test(market) || typeof book.CHAIN_ID !== 'number') continue
      for (const [entry, name] of AAVE_SPENDERS) {
        if (typeof book[entry] === 'string') add(spenders, String(book.CHAIN_ID), book[entry], name, 'aave')
      }
      const assets = (book.ASSETS ?? {}) as Record<string, Record<string, unknown>>
      for (const [symbol, reserve] of Object.entries(assets)) {
        for (const [entry, kind] of AAVE_INTEREST_TOKENS) {
          const address = reserve[entry]
          if (typeof address !== 'string') continue
          const chain = String(book.CHAIN_ID)
          interestTokens[chain] ??= {}
          ;(interestTokens[chain] as Record<string, string>)[getAddress(address)] = `${market} ${symbol} ${kind}`
        }
      }
    }
    const uniswap = createRequire(import.meta.url)(
      join(packed(UNISWAP, directory), 'dist/cjs/src/addresses.js'),
    ) as Record<string, Record<string, string | Record<string, string>>>
    for (const [map, name] of UNISWAP_SPENDERS) {
      for (const [chain, address] of Object.entries(uniswap[map] ?? {})) {
        if (typeof address === 'string') add(spenders, chain, address, name, 'uniswap')
      }
    }
    for (const [chain, addresses] of Object.entries(uniswap.CHAIN_TO_ADDRESSES_MAP ?? {})) {
      const manager = typeof addresses === 'object' ? addresses.v4PositionManagerAddress : undefined
      if (manager) add(spenders, chain, manager, 'Uniswap V4 position manager', 'uniswap')
    }
    for (const [chain, address] of universalRouters(packed(UNIVERSAL_ROUTER, directory))) {
      add(spenders, chain, address, 'Uniswap universal router', 'uniswap')
    }
    // 1inch's aggregation router v6 is its limit order protocol v4: one contract, the spender of 1inch's swaps.
    const oneInch = createRequire(import.meta.url)(join(packed(ONE_INCH, directory), 'dist/cjs/constants.js')) as {
      getLimitOrderContract: (chainId: number) => string
    }
    add(spenders, 'all', oneInch.getLimitOrderContract(1), '1inch aggregation router', '1inch')
    for (const chain of ONE_INCH_OWN_CHAINS) {
      add(spenders, String(chain), oneInch.getLimitOrderContract(chain), '1inch aggregation router', '1inch')
    }
    const balancer = join(packed(BALANCER, directory), 'dist/addresses')
    for (const [file, chain] of Object.entries(BALANCER_CHAINS)) {
      const book = JSON.parse(readFileSync(join(balancer, `${file}.json`), 'utf8')) as Record<string, { name: string }>
      for (const [address, { name }] of Object.entries(book)) {
        if (name === 'Vault') add(spenders, String(chain), address, 'Balancer vault')
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
  const seaportVersion = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve(`${SEAPORT_JS}/package.json`), 'utf8'),
  ).version
  return {
    sources: [
      RESERVOIR,
      ZERO_EX,
      PERMIT2,
      `${SEAPORT_JS}@${seaportVersion}`,
      COW,
      AAVE,
      UNISWAP,
      UNIVERSAL_ROUTER,
      BALANCER,
      ONE_INCH,
    ],
    spenders: byChain(spenders),
    interestTokens: byChain(interestTokens),
  }
}

/** A per-chain list in a stable order: "all" first, then by chain id, each chain's entries by address. */
function byChain<T>(list: Record<string, Record<string, T>>): Record<string, Record<string, T>> {
  return Object.fromEntries(
    Object.entries(list)
      .sort(([a], [b]) => (a === 'all' ? -1 : b === 'all' ? 1 : Number(a) - Number(b)))
      .map(([chain, entries]) => [chain, Object.fromEntries(Object.entries(entries).sort())]),
  )
}

/**
 * Every universal router release per chain, read from the SDK's CHAIN_CONFIGS as text: its module needs ethers, which
 * this tool does not install, and each chain's block lists its releases as `address: '0x…'`.
 */
function universalRouters(sdk: string): [chain: string, address: string][] {
  const text = readFileSync(join(sdk, 'dist/cjs/src/utils/constants.js'), 'utf8')
  const start = text.indexOf('exports.CHAIN_CONFIGS = {')
  const end = text.indexOf('\nexports.', start + 1)
  if (start < 0 || end < 0) throw new Error(`${UNIVERSAL_ROUTER}: CHAIN_CONFIGS not found`)
  const found: [string, string][] = []
  let chain: string | null = null
  for (const line of text.slice(start, end).split('\n')) {
    const block = /^ {4}\[(\d+)\]: \{/.exec(line)
    if (block) chain = block[1] as string
    const address = /^\s+address: '(0x[0-9a-fA-F]{40})'/.exec(line)
    if (chain && address) found.push([chain, address[1] as string])
  }
  if (found.length === 0) throw new Error(`${UNIVERSAL_ROUTER}: no router addresses found`)
  return found
}

const { sources, spenders, interestTokens } = generate()
const note =
  'Generated by test/tools/knownSpenders.ts from the npm packages in `sources`; do not edit by hand. Contracts that ' +
  'take approvals or credit delegations for a living (exchanges, conduits, delegates, routers, lending gateways ' +
  'and adapters), by chain ("all": every chain).'
writeFileSync(OUTPUT, `${JSON.stringify({ note, sources, spenders }, null, 2)}\n`)
console.log(`wrote ${Object.values(spenders).reduce((n, entries) => n + Object.keys(entries).length, 0)} spenders`)
const aaveNote =
  'Generated by test/tools/knownSpenders.ts from the Aave address book in `sources`; do not edit by hand. Aave V3 ' +
  'aTokens and variable debt tokens, by chain: the tokens whose Mint/Burn balanceIncrease (interest counted in the ' +
  'balance read before) the balance reads trust.'
writeFileSync(AAVE_OUTPUT, `${JSON.stringify({ note: aaveNote, sources: [AAVE], tokens: interestTokens }, null, 2)}\n`)
console.log(
  `wrote ${Object.values(interestTokens).reduce((n, entries) => n + Object.keys(entries).length, 0)} Aave tokens`,
)
