/**
 * Regenerates src/engine/risk/data/knownSpenders.json: the contracts that take approvals for a living (marketplace
 * exchanges, conduits and transfer delegates, swap routers, Permit2, lending markets, bridge pools), per chain, from
 * maintained deployment packages on npm, never typed in by hand; and, from the same Aave address book,
 * src/engine/risk/data/aaveInterestTokens.json: Aave V3's aTokens and variable debt tokens, the only contracts whose
 * interest events the balance reads trust. Run `npx tsx test/tools/knownSpenders.ts` to refresh both (it downloads the
 * pinned package versions with `npm pack`); bump a version below to take a newer list.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getAddress, getContractAddress, isAddress } from 'viem'
import * as viemChains from 'viem/chains'

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
const CURVE = '@curvefi/api@2.70.1'
const SUSHI = 'sushi@7.3.15'
const PANCAKE_ROUTER = '@pancakeswap/smart-router@7.7.3'
const PANCAKE_PERMIT2 = '@pancakeswap/permit2-sdk@1.2.2'
const PANCAKE_CHAINS = '@pancakeswap/chains@0.9.0'
const LIDO = '@lido-sdk/constants@3.5.1'
const MORPHO = '@morpho-org/morpho-ts@2.8.0'
const PARASWAP = '@paraswap/dex-lib@5.0.6'
const BALANCER_V3 = '@balancer/sdk@6.1.1'
const ONE_INCH_V5 = '@1inch/limit-order-protocol-utils@4.0.1'
const PENDLE = '@pendle/core-v2@6.11.0'
const ACROSS = '@across-protocol/contracts@5.0.27'
const COMPOUND = '@compound-finance/compound-js@0.6.2'
const VELODROME = '@dromos-labs/sdk.js@0.3.0-alpha.3'

/** ParaSwap's contracts that take approvals, as dex-lib's per-chain config names them. */
const PARASWAP_SPENDERS: [key: string, name: string][] = [
  ['augustusV6Address', 'ParaSwap Augustus v6 router'],
  ['tokenTransferProxyAddress', 'ParaSwap token transfer proxy (Augustus v5)'],
  ['augustusRFQAddress', 'ParaSwap AugustusRFQ (limit orders)'],
]

/**
 * Balancer's contracts in @balancer/sdk's address maps that users approve (or grant through Permit2): V3's vault and
 * routers, and V2's vault on the chains its deployment files do not cover. Pool factories are left out: pools are
 * anyone's to create.
 */
const BALANCER_SDK_SPENDERS: [map: string, entry: string, name: string][] = [
  ['balancerV3Contracts', 'Vault', 'Balancer V3 vault'],
  ['balancerV3Contracts', 'Router', 'Balancer V3 router'],
  ['balancerV3Contracts', 'BatchRouter', 'Balancer V3 batch router'],
  ['balancerV3Contracts', 'CompositeLiquidityRouter', 'Balancer V3 composite liquidity router'],
  ['balancerV3Contracts', 'BufferRouter', 'Balancer V3 buffer router'],
  ['balancerV3Contracts', 'UnbalancedAddViaSwapRouter', 'Balancer V3 unbalanced add-via-swap router'],
  ['balancerV2Contracts', 'Vault', 'Balancer vault'],
]

/** Pendle's deployment entries that take approvals: the router and the limit order router. */
const PENDLE_SPENDERS: [entry: string, name: string][] = [
  ['router', 'Pendle router'],
  ['limitRouter', 'Pendle limit order router'],
]

/**
 * Velodrome's and Aerodrome's (one codebase; Aerodrome is the Base deployment) contracts that take approvals, as the
 * Sugar SDK's per-chain config names them: the V2 router, the universal router and Slipstream's position manager.
 */
const VELODROME_SPENDERS: [key: string, name: string][] = [
  ['ROUTER_ADDRESS', 'router'],
  ['UNIVERSAL_ROUTER_ADDRESS', 'universal router'],
  ['NFPM_ADDRESS', 'Slipstream position manager'],
]

/** Sushi's contracts that take approvals, as its EVM config names them (chain id → address). */
const SUSHI_SPENDERS: [map: string, name: string][] = [
  ['RED_SNWAPPER_ADDRESS', 'Sushi swap router (RedSnwapper)'],
  ['SUSHISWAP_V2_ROUTER_ADDRESS', 'SushiSwap V2 router'],
  ['SUSHISWAP_V3_POSITION_MANAGER', 'SushiSwap V3 position manager'],
]

/** PancakeSwap's contracts that take approvals: each package, the map in its bundle, and the name they go by. */
const PANCAKE_SPENDERS: [spec: string, map: string, name: string][] = [
  [PANCAKE_ROUTER, 'SMART_ROUTER_ADDRESSES', 'PancakeSwap smart router'],
  [PANCAKE_ROUTER, 'V2_ROUTER_ADDRESS', 'PancakeSwap V2 router'],
  [PANCAKE_PERMIT2, 'PERMIT2_ADDRESSES', 'PancakeSwap Permit2'],
]

/** Curve's aliases that take approvals on each chain: the swap router and the zap that deposits and stakes. */
const CURVE_ALIASES: [alias: string, name: string][] = [
  ['router', 'Curve router'],
  ['deposit_and_stake', 'Curve deposit-and-stake zap'],
]

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

/**
 * `ledger`: the contract keeps what it is paid on account for whoever the call names (a lending market's supply
 * `onBehalf`), so being paid says nothing of who gets it.
 */
type Spender = { name: string; protocol?: string; ledger?: true }
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

/** Lists a ledger: a contract that keeps what it is paid on account for whoever the call names (Spender.ledger). */
function addLedger(spenders: Spenders, chain: string, address: string, name: string): void {
  spenders[chain] ??= {}
  ;(spenders[chain] as Record<string, Spender>)[getAddress(address)] = { name, ledger: true }
}

function generate(): { sources: string[]; spenders: Spenders; interestTokens: InterestTokens } {
  const directory = mkdtempSync(join(tmpdir(), 'spenders-'))
  // The unpacked packages' own imports (viem, tiny-invariant) resolve to this project's installed copies.
  symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(directory, 'node_modules'))
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
    for (const [chain, address, name] of curveSpenders(packed(CURVE, directory))) add(spenders, chain, address, name)
    const sushi = createRequire(import.meta.url)(join(packed(SUSHI, directory), '_cjs/evm/config/index.js')) as Record<
      string,
      Record<string, string>
    >
    for (const [map, name] of SUSHI_SPENDERS) {
      for (const [chain, address] of Object.entries(sushi[map] ?? {})) add(spenders, chain, address, name)
    }
    const { ChainId } = createRequire(import.meta.url)(join(packed(PANCAKE_CHAINS, directory), 'dist/index.js')) as {
      ChainId: Record<string, number>
    }
    const pancake = new Map<string, string>()
    for (const [spec, map, name] of PANCAKE_SPENDERS) {
      if (!pancake.has(spec)) pancake.set(spec, packed(spec, directory))
      for (const [chain, address] of pancakeAddresses(pancake.get(spec) as string, map, ChainId)) {
        add(spenders, chain, address, name)
      }
    }
    const lido = createRequire(import.meta.url)(join(packed(LIDO, directory), 'dist/cjs/index.js')) as {
      TOKENS_BY_NETWORK: Record<string, { WSTETH?: string }>
      WITHDRAWAL_QUEUE_BY_NETWORK: Record<string, string>
    }
    for (const [chain, tokens] of Object.entries(lido.TOKENS_BY_NETWORK)) {
      if (tokens.WSTETH) add(spenders, chain, tokens.WSTETH, 'Lido wstETH (wraps stETH)', 'lido')
    }
    for (const [chain, address] of Object.entries(lido.WITHDRAWAL_QUEUE_BY_NETWORK)) {
      add(spenders, chain, address, 'Lido withdrawal queue', 'lido')
    }
    // Morpho Blue is one singleton per chain; bundler3's general adapter pulls tokens only from the bundle's initiator.
    // Vaults (MetaMorpho, Vault V2) are left out: their factories deploy them for anyone.
    const morpho = createRequire(import.meta.url)(join(packed(MORPHO, directory), 'lib/cjs/addresses.js')) as {
      addresses: Record<string, { morpho?: string; bundler3?: { generalAdapter1?: string } }>
    }
    for (const [chain, book] of Object.entries(morpho.addresses)) {
      if (book.morpho) addLedger(spenders, chain, book.morpho, 'Morpho Blue')
      const adapter = book.bundler3?.generalAdapter1
      if (adapter) add(spenders, chain, adapter, 'Morpho bundler3 general adapter')
    }
    for (const [chain, address, name] of paraswapSpenders(packed(PARASWAP, directory))) {
      add(spenders, chain, address, name)
    }
    for (const [chain, address, name] of balancerSdkSpenders(packed(BALANCER_V3, directory))) {
      add(spenders, chain, address, name)
    }
    // 1inch's aggregation router v5 is its limit order protocol v3, as the v3 utils name it.
    for (const [chain, address] of oneInchV5Routers(packed(ONE_INCH_V5, directory))) {
      add(spenders, chain, address, '1inch aggregation router v5', '1inch')
    }
    const pendle = join(packed(PENDLE, directory), 'deployments')
    for (const file of readdirSync(pendle)) {
      if (!file.endsWith('-core.json')) continue
      const book = JSON.parse(readFileSync(join(pendle, file), 'utf8')) as Record<string, unknown>
      const chain = String((book.network as { chainId: number }).chainId)
      for (const [entry, name] of PENDLE_SPENDERS) {
        if (typeof book[entry] === 'string') add(spenders, chain, book[entry], name)
      }
    }
    const across = JSON.parse(
      readFileSync(join(packed(ACROSS, directory), 'dist/broadcast/deployed-addresses.json'), 'utf8'),
    ) as { chains: Record<string, { contracts: Record<string, { address: string }> }> }
    for (const [chain, { contracts }] of Object.entries(across.chains)) {
      const spokePool = contracts.SpokePool?.address
      // Its non-EVM chains (Solana, TRON) list addresses of other shapes.
      if (spokePool && isAddress(spokePool, { strict: false }))
        add(spenders, chain, spokePool, 'Across SpokePool', 'across')
    }
    for (const [chain, address, name] of compoundMarkets(packed(COMPOUND, directory))) {
      addLedger(spenders, chain, address, name)
    }
    for (const [chain, address, name] of velodromeSpenders(packed(VELODROME, directory))) {
      add(spenders, chain, address, name)
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
      CURVE,
      SUSHI,
      PANCAKE_ROUTER,
      PANCAKE_PERMIT2,
      PANCAKE_CHAINS,
      LIDO,
      MORPHO,
      PARASWAP,
      BALANCER_V3,
      ONE_INCH_V5,
      PENDLE,
      ACROSS,
      COMPOUND,
      VELODROME,
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

/**
 * Curve's router and deposit-and-stake zap per chain, and the pools its library lists with their deposit zaps, read
 * from the library's constants as text: its modules import ethers and memoizee, which this tool does not install.
 * network_constants.js maps each chain id to its ALIASES_X and POOLS_DATA_X blocks; pools/*.js hold the pool blocks.
 */
function curveSpenders(api: string): [chain: string, address: string, name: string][] {
  const constants = join(api, 'lib/constants')
  const network = readFileSync(join(constants, 'network_constants.js'), 'utf8')
  const block = (text: string, start: string): string => {
    const from = text.indexOf(start)
    if (from < 0) throw new Error(`${CURVE}: ${start} not found`)
    const to = text.indexOf('\nexport const ', from + 1)
    return text.slice(from, to < 0 ? undefined : to)
  }
  const pools = new Map<string, string>()
  for (const file of readdirSync(join(constants, 'pools'))) {
    if (!file.endsWith('.js')) continue
    const text = readFileSync(join(constants, 'pools', file), 'utf8')
    for (const [, name] of text.matchAll(/^export const (POOLS_DATA_\w+) = /gm)) {
      pools.set(name as string, block(text, `export const ${name} = `))
    }
  }
  const chains = [...network.matchAll(/^ {4}(\d+): \{\n\s+NAME: '[^']*',\n\s+ALIASES: (\w+),\n\s+POOLS_DATA: (\w+),/gm)]
  if (chains.length === 0) throw new Error(`${CURVE}: no chains found in NETWORK_CONSTANTS`)
  const found: [string, string, string][] = []
  for (const [, chain, aliases, poolsData] of chains) {
    const aliasStart = network.indexOf(`const ${aliases} = `)
    const aliasBlock = network.slice(aliasStart, network.indexOf('});', aliasStart))
    for (const [alias, name] of CURVE_ALIASES) {
      const address = new RegExp(`^\\s+"${alias}": "(0x[0-9a-fA-F]{40})"`, 'm').exec(aliasBlock)?.[1]
      if (address && BigInt(address) !== 0n) found.push([chain as string, address, name])
    }
    let pool = ''
    for (const line of (pools.get(poolsData as string) ?? '').split('\n')) {
      pool = /^ {4}'?([\w-]+)'?: \{$/.exec(line)?.[1] ?? pool
      const swap = /^\s+swap_address: '(0x[0-9a-fA-F]{40})'/.exec(line)?.[1]
      if (swap) found.push([chain as string, swap, `Curve ${pool} pool`])
      const zap = /^\s+deposit_address: '(0x[0-9a-fA-F]{40})'/.exec(line)?.[1]
      if (zap) found.push([chain as string, zap, `Curve ${pool} pool zap`])
    }
  }
  return found
}

/**
 * One of PancakeSwap's per-chain address maps, read from the package's bundle as text (its module needs the rest of
 * PancakeSwap's SDK): each entry is `[chains.ChainId.NAME]: "0x…"`, the chain named by @pancakeswap/chains' ChainId.
 */
function pancakeAddresses(
  sdk: string,
  map: string,
  chainIds: Record<string, number>,
): [chain: string, address: string][] {
  for (const file of readdirSync(join(sdk, 'dist'))) {
    if (!file.endsWith('.js')) continue
    const text = readFileSync(join(sdk, 'dist', file), 'utf8')
    const start = text.indexOf(`var ${map} = {`)
    if (start < 0) continue
    const entries = text.slice(start, text.indexOf('\n};', start))
    return [...entries.matchAll(/^\s+\[chains\.ChainId\.(\w+)\]: "(0x[0-9a-fA-F]{40})"/gm)].map(([, name, address]) => {
      const chain = chainIds[name as string]
      if (chain === undefined) throw new Error(`${PANCAKE_CHAINS}: no chain id for ${name}`)
      return [String(chain), address as string]
    })
  }
  throw new Error(`${sdk}: ${map} not found`)
}

/** The id of a chain that viem's chain list exports under `name` ('optimism', 'base'), or null. */
function viemChainId(name: string): number | null {
  const chain = (viemChains as Record<string, { id?: number } | undefined>)[name]
  return typeof chain?.id === 'number' ? chain.id : null
}

/**
 * ParaSwap's spenders per chain, read from dex-lib's config as text (its modules need dex-lib's many dependencies):
 * each chain's block starts `[constants_1.Network.NAME]: {`, its id from the Network enum in constants.js. Chains
 * where a contract is not deployed list the zero address.
 */
function paraswapSpenders(lib: string): [chain: string, address: string, name: string][] {
  const enumText = readFileSync(join(lib, 'build/constants.js'), 'utf8')
  const ids = new Map([...enumText.matchAll(/Network\[Network\["(\w+)"\] = (\d+)\]/g)].map(([, n, id]) => [n, id]))
  const config = readFileSync(join(lib, 'build/config.js'), 'utf8')
  const blocks = config.split(/^ {4}\[constants_1\.Network\.(\w+)\]: \{$/m)
  const found: [string, string, string][] = []
  for (let i = 1; i < blocks.length; i += 2) {
    const chain = ids.get(blocks[i] as string)
    if (!chain) throw new Error(`${PARASWAP}: no chain id for ${blocks[i]}`)
    for (const [key, name] of PARASWAP_SPENDERS) {
      const address = new RegExp(`^\\s+${key}: '(0x[0-9a-fA-F]{40})'`, 'm').exec(blocks[i + 1] as string)?.[1]
      if (address && BigInt(address) !== 0n) found.push([chain, address, name])
    }
  }
  if (found.length === 0) throw new Error(`${PARASWAP}: no spenders found in build/config.js`)
  return found
}

/**
 * Balancer's vaults and routers from @balancer/sdk's bundle, read as text (its module needs balancer-maths): each map
 * is `var NAME = {`, each contract an `  Entry: {` block of `[chainId, the chain's name in a comment]: "0x…"` lines.
 */
function balancerSdkSpenders(sdk: string): [chain: string, address: string, name: string][] {
  const text = readFileSync(join(sdk, 'dist/index.js'), 'utf8')
  const found: [string, string, string][] = []
  for (const [map, entry, name] of BALANCER_SDK_SPENDERS) {
    const start = text.indexOf(`var ${map} = {`)
    if (start < 0) throw new Error(`${BALANCER_V3}: ${map} not found`)
    const body = text.slice(start, text.indexOf('\n};', start))
    const from = body.indexOf(`\n  ${entry}: {`)
    if (from < 0) throw new Error(`${BALANCER_V3}: ${map}.${entry} not found`)
    const block = body.slice(from, body.indexOf('\n  }', from))
    for (const [, chain, address] of block.matchAll(/\[(\d+) \/\* \w+ \*\/\]: "(0x[0-9a-fA-F]{40})"/g)) {
      found.push([chain as string, address as string, name])
    }
  }
  return found
}

/**
 * 1inch's limit order protocol v3 (its aggregation router v5) per chain, read from the utils' ES module as text: the
 * ChainId enum gives each `[ChainId.name]: '0x…'` entry its id.
 */
function oneInchV5Routers(utils: string): [chain: string, address: string][] {
  const text = readFileSync(join(utils, 'limit-order-protocol-addresses.const.js'), 'utf8')
  const ids = new Map([...text.matchAll(/ChainId\[ChainId\["(\w+)"\] = (\d+)\]/g)].map(([, n, id]) => [n, id]))
  const found = [...text.matchAll(/\[ChainId\.(\w+)\]: '(0x[0-9a-fA-F]{40})'/g)].map(([, name, address]) => {
    const chain = ids.get(name as string)
    if (!chain) throw new Error(`${ONE_INCH_V5}: no chain id for ${name}`)
    return [chain, address as string] as [string, string]
  })
  if (found.length === 0) throw new Error(`${ONE_INCH_V5}: no router addresses found`)
  return found
}

/**
 * Compound III's markets (Comet proxies, deployed by governance; users approve them to supply) from compound-js's
 * Comet constants: deployments are keyed `network_base` ('mainnet_usdc'); networks viem does not name the same way
 * (testnets: mumbai, fuji, goerli_arbitrum…) are left out.
 */
function compoundMarkets(lib: string): [chain: string, address: string, name: string][] {
  const constants = JSON.parse(readFileSync(join(lib, 'dist/nodejs/comet-artifacts/comet-constants.json'), 'utf8')) as {
    address: Record<string, { Comet?: string }>
  }
  const found: [string, string, string][] = []
  for (const [deployment, { Comet }] of Object.entries(constants.address)) {
    const chain = viemChainId(deployment.slice(0, deployment.lastIndexOf('_')))
    if (Comet && chain !== null) found.push([String(chain), Comet, `Compound III market (${deployment})`])
  }
  if (found.length === 0) throw new Error(`${COMPOUND}: no Comet markets found`)
  return found
}

/**
 * Velodrome's and Aerodrome's spenders from the Sugar SDK's config, read as text (its module needs wagmi): each chain's
 * block starts `CHAIN: name,` with the name of viem's chain export, then `KEY: "0x…"` lines.
 */
function velodromeSpenders(sdk: string): [chain: string, address: string, name: string][] {
  const text = readFileSync(join(sdk, 'dist/config.js'), 'utf8')
  const blocks = text.split(/^\s+CHAIN: (\w+),$/m)
  const found: [string, string, string][] = []
  for (let i = 1; i < blocks.length; i += 2) {
    const chain = viemChainId(blocks[i] as string)
    if (chain === null) throw new Error(`${VELODROME}: viem has no chain ${blocks[i]}`)
    const protocol = chain === viemChains.base.id ? 'Aerodrome' : 'Velodrome'
    for (const [key, name] of VELODROME_SPENDERS) {
      const address = new RegExp(`^\\s+${key}: "(0x[0-9a-fA-F]{40})"`, 'm').exec(blocks[i + 1] as string)?.[1]
      if (address && BigInt(address) !== 0n) found.push([String(chain), address, `${protocol} ${name}`])
    }
  }
  if (found.length === 0) throw new Error(`${VELODROME}: no chains found in dist/config.js`)
  return found
}

const { sources, spenders, interestTokens } = generate()
const note =
  'Generated by test/tools/knownSpenders.ts from the npm packages in `sources`; do not edit by hand. Contracts that ' +
  'take approvals or credit delegations for a living (exchanges, conduits, delegates, routers, lending markets, ' +
  'gateways and adapters, bridge pools), by chain ("all": every chain).'
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
