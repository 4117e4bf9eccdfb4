/** Uniswap pool addresses, computed (CREATE2 from the factory, no read) and cached: for TWAPs and for swap read plans. */
import {
  type Address,
  encodeAbiParameters,
  encodePacked,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbiParameters,
} from 'viem'
import type { PriceSources, V2Deployment, V3Deployment } from './sources.ts'

let poolKey: ReturnType<typeof parseAbiParameters<'address, address, uint24'>> | undefined
/** A V3 pool key's ABI, parsed on first use rather than while a service worker starts. */
const poolKeyParameters = () => (poolKey ??= parseAbiParameters('address, address, uint24'))
const cache = new Map<string, Address>()

/** The two tokens in pool order: token0 is the lower address. */
export function sortTokens(a: Address, b: Address): [Address, Address] {
  return a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
}

/** The address of a Uniswap V3 pool (whether or not it was created). */
export function v3PoolAddress(deployment: V3Deployment, a: Address, b: Address, fee: number): Address {
  const [token0, token1] = sortTokens(a, b)
  return created(`v3:${deployment.factory}:${token0}:${token1}:${fee}`, deployment, () =>
    keccak256(encodeAbiParameters(poolKeyParameters(), [token0, token1, fee])),
  )
}

/** The address of a Uniswap V2 pair (whether or not it was created). */
export function v2PairAddress(deployment: V2Deployment, a: Address, b: Address): Address {
  const [token0, token1] = sortTokens(a, b)
  return created(`v2:${deployment.factory}:${token0}:${token1}`, deployment, () =>
    keccak256(encodePacked(['address', 'address'], [token0, token1])),
  )
}

/** The CREATE2 address the factory gives the contract with `salt`, computed once per `key` (hashing is the cost). */
function created(key: string, deployment: V2Deployment | V3Deployment, salt: () => Hex): Address {
  let address = cache.get(key)
  if (!address) {
    address = getContractAddress({
      opcode: 'CREATE2',
      from: deployment.factory,
      salt: salt(),
      bytecodeHash: deployment.initCodeHash,
    })
    cache.set(key, address)
  }
  return address
}

/**
 * Every V2 pair and V3 pool of the chain's deployments between any two of `tokens`: the accounts a swap between them
 * may move, so their balances can be read in the same call as the swap.
 */
export function poolsBetween(sources: PriceSources, tokens: Address[]): Address[] {
  const pools: Address[] = []
  for (const [index, a] of tokens.entries()) {
    for (const b of tokens.slice(index + 1)) {
      if (a.toLowerCase() === b.toLowerCase()) continue
      for (const deployment of sources.uniswapV2) pools.push(v2PairAddress(deployment, a, b))
      for (const deployment of sources.uniswapV3) {
        for (const fee of deployment.fees) pools.push(v3PoolAddress(deployment, a, b, fee))
      }
    }
  }
  return pools
}
