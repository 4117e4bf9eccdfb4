/** Deploys and funds the devnet fixtures with a deterministic sequence of transactions from the deployer account. */
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
  parseUnits,
  zeroAddress,
} from 'viem'
import { foundry } from 'viem/chains'
import { devAccounts } from './accounts.ts'
import type { Fixtures } from './fixtures.ts'
import { artifacts, deployProtocols, fixtureArtifact } from './protocols.ts'
import { waitForReceipt } from './receipt.ts'
import { deploySafeAttacks } from './safeAttacks.ts'
import { deployCanonicalSafe, safeArtifact } from './safeDeployment.ts'

type Artifact = { abi: Abi; bytecode: Hex }

const SAFE_VERSION = '1.4.1'

/**
 * Deploys Safe v1.4.1 at its canonical addresses, a 2-of-3 Safe, the fixture tokens, the drainer, the Safe takeover
 * contracts and contracts the user and the Safe control; returns the fixtures file content.
 */
export async function deployFixtures(rpcUrl: string): Promise<Omit<Fixtures, 'startupMs'>> {
  const accounts = devAccounts(10)
  const [owner0, owner1, owner2] = accounts.map((a) => a.address) as [Address, Address, Address]
  const attacker = accounts[8]?.address as Address
  const deployer = accounts[9]?.address as Address
  const transport = http(rpcUrl, { batch: false })
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 5 })
  const wallet = createWalletClient({ chain: foundry, transport, account: deployer })

  const confirm = async (hash: Hex) => {
    const receipt = await waitForReceipt(publicClient, hash)
    if (receipt.status !== 'success') throw new Error(`fixture transaction ${hash} reverted`)
    return receipt
  }
  const deploy = async (artifact: Artifact, args: unknown[] = []) => {
    const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args })
    const receipt = await confirm(hash)
    if (!receipt.contractAddress) throw new Error(`deployment ${hash} created no contract`)
    return getAddress(receipt.contractAddress)
  }
  const call = async (to: Address, abi: Abi, functionName: string, args: unknown[], value = 0n) =>
    confirm(await wallet.sendTransaction({ to, value, data: encodeFunctionData({ abi, functionName, args }) }))

  const safe = safeArtifact('Safe.sol/Safe.json')
  const factory = safeArtifact('proxies/SafeProxyFactory.sol/SafeProxyFactory.json')
  const safeContracts = await deployCanonicalSafe({ publicClient, wallet, confirm })
  const { singleton, proxyFactory, fallbackHandler } = safeContracts

  const owners = [owner0, owner1, owner2]
  const threshold = 2
  const initializer = encodeFunctionData({
    abi: safe.abi,
    functionName: 'setup',
    args: [owners, BigInt(threshold), zeroAddress, '0x', fallbackHandler, zeroAddress, 0n, zeroAddress],
  })
  const created = await call(proxyFactory, factory.abi, 'createProxyWithNonce', [
    singleton,
    initializer,
    await freeSaltNonce(publicClient, deployer, proxyFactory, factory.abi, [singleton, initializer]),
  ])
  const [proxyCreation] = parseEventLogs({ abi: factory.abi, logs: created.logs, eventName: 'ProxyCreation' })
  const safeAddress = (proxyCreation?.args as { proxy?: Address } | undefined)?.proxy
  if (!safeAddress) throw new Error('Safe proxy creation emitted no ProxyCreation event')
  await confirm(await wallet.sendTransaction({ to: safeAddress, value: parseEther('100') }))

  const protocols = await deployProtocols(rpcUrl, {
    usdcHolders: [
      { address: safeAddress, amount: parseUnits('1000000', 6) },
      { address: owner0, amount: parseUnits('10000', 6) },
    ],
    liquidityProvider: accounts[0] as { address: Address; privateKey: Hex },
  })
  const { erc20: usdc, weth: wrapped, ...protocolFixtures } = protocols
  const erc20 = usdc.address
  const weth = wrapped.address
  const wethArtifact = artifacts.weth9()
  await call(weth, wethArtifact.abi, 'deposit', [], parseEther('20'))
  await call(weth, wethArtifact.abi, 'transfer', [owner0, parseEther('10')])
  await call(weth, wethArtifact.abi, 'transfer', [safeAddress, parseEther('10')])

  const nftTokens = [
    { tokenId: '1', owner: owner0 },
    { tokenId: '2', owner: owner0 },
    { tokenId: '3', owner: owner0 },
    { tokenId: '4', owner: safeAddress },
    { tokenId: '5', owner: safeAddress },
  ]
  const erc721 = await deploy(fixtureArtifact('DevNFT'), [
    nftTokens.map((t) => t.owner),
    nftTokens.map((t) => BigInt(t.tokenId)),
  ])

  const itemBalances = [
    { id: '1', owner: owner0, amount: '10' },
    { id: '2', owner: owner0, amount: '5' },
    { id: '1', owner: safeAddress, amount: '10' },
  ]
  const erc1155 = await deploy(fixtureArtifact('DevItems'), [
    itemBalances.map((b) => b.owner),
    itemBalances.map((b) => BigInt(b.id)),
    itemBalances.map((b) => BigInt(b.amount)),
  ])

  const drainer = await deploy(fixtureArtifact('Drainer'), [attacker])
  const safeAttacks = await deploySafeAttacks((name, args) => deploy(fixtureArtifact(name), args), attacker)

  // Contracts controlled as protocols are: a vault owned by account 0, a proxy upgraded through a ProxyAdmin the Safe owns.
  const vault = await deploy(fixtureArtifact('DevOwnedVault'), [owner0])
  const logic = await deploy(fixtureArtifact('DevLogicV1'))
  const nextLogic = await deploy(fixtureArtifact('DevLogicV2'))
  const proxyArtifact = fixtureArtifact('DevProxy')
  const proxy = await deploy(proxyArtifact, [logic, safeAddress])
  const proxyAdmin = (await publicClient.readContract({
    address: proxy,
    abi: proxyArtifact.abi,
    functionName: 'proxyAdmin',
  })) as Address

  return {
    rpcUrl,
    chainId: foundry.id,
    accounts,
    safe: { address: safeAddress, owners, threshold, version: SAFE_VERSION },
    erc20: { address: erc20, name: 'USD Coin', symbol: 'USDC', decimals: 6 },
    weth: { address: weth, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 },
    erc721: { address: erc721, name: 'Devnet Apes', symbol: 'DAPE', tokens: nftTokens },
    erc1155: { address: erc1155, balances: itemBalances },
    drainer: { address: drainer, attacker },
    safeContracts,
    safeAttacks,
    controlled: { vault, vaultOwner: owner0, proxy, proxyAdmin: getAddress(proxyAdmin), logic, nextLogic },
    ...protocolFixtures,
    deployer,
  }
}

/**
 * The first salt nonce from 0 whose Safe proxy does not exist yet: 0 on a fresh devnet, a later one on a fork of a
 * chain that already has this Safe (a devnet forked from a devnet), where CREATE2 to the same address would revert.
 */
async function freeSaltNonce(
  client: PublicClient,
  from: Address,
  proxyFactory: Address,
  abi: Abi,
  args: [Address, Hex],
): Promise<bigint> {
  for (let salt = 0n; salt < 100n; salt++) {
    const data = encodeFunctionData({ abi, functionName: 'createProxyWithNonce', args: [...args, salt] })
    const free = await client.call({ account: from, to: proxyFactory, data }).then(
      () => true,
      () => false,
    )
    if (free) return salt
  }
  throw new Error('no free salt nonce for the devnet Safe among the first 100')
}
