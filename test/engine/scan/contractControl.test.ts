/**
 * Control of a contract handed over: ownership, an admin role, a proxy's code. Nothing moves when it happens, so only
 * the control events show it. Each scan is checked against reality: the transaction (or the Safe proposal, signed by
 * two owners) is executed on the devnet, and the new controller uses what it was given.
 */
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseEther,
  stringToHex,
  zeroHash,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { plainSafeTx, safeTxTypedData } from '../../../src/devnet/eip712.ts'
import { fixtureArtifact } from '../../../src/devnet/protocols.ts'
import { waitForReceipt } from '../../../src/devnet/receipt.ts'
import { type ScanTransactionsResponse, scanTransactionsWithStats, type Warning } from '../../../src/engine/index.ts'
import { devnetRolledBackPerTest } from '../../support/devnet.ts'
import { ownersExecution } from '../../support/safeExecution.ts'
import { messageResponseValidator, scanOk } from '../messageSupport.ts'
import { validateTransactionsResponse } from '../transactionSupport.ts'

const controlAbi = parseAbi([
  'function owner() view returns (address)',
  'function pendingOwner() view returns (address)',
  'function transferOwnership(address newOwner)',
  'function acceptOwnership()',
  'function renounceOwnership()',
  'function withdraw(address to)',
  'function grantRole(bytes32 role, address account)',
  'function renounceRole(bytes32 role, address callerConfirmation)',
  'function hasRole(bytes32 role, address account) view returns (bool)',
  'function proxyAdmin() view returns (address)',
  'function upgradeAndCall(address proxy, address implementation, bytes data) payable',
  'function version() view returns (uint256)',
  'function nonce() view returns (uint256)',
  'function setOwner(address owner_)',
  'function setAuthority(address authority_)',
  'function admin() view returns (address)',
  'function _setPendingAdmin(address newPendingAdmin)',
  'function _acceptAdmin()',
])

const MINTER_ROLE = keccak256(stringToHex('MINTER_ROLE'))

describe('control of a contract handed over', () => {
  const fx = devnetRolledBackPerTest()
  const validateMessage = messageResponseValidator()
  const chain = () => createPublicClient({ chain: foundry, transport: http(fx().rpcUrl), pollingInterval: 20 })
  const wallet = (index: number) =>
    createWalletClient({
      chain: foundry,
      transport: http(fx().rpcUrl),
      account: privateKeyToAccount(fx().accounts[index]?.privateKey as Hex),
    })
  const user = () => fx().accounts[0]?.address as Address
  /** Dev account 6 plays the attacker: a personal account. */
  const attacker = () => fx().accounts[6]?.address as Address
  const kinds = (warnings: Warning[]) => warnings.map((warning) => `${warning.severity} ${warning.kind}`)
  const read = <T>(address: Address, functionName: string, args: unknown[] = []) =>
    chain().readContract({ address, abi: controlAbi, functionName, args } as never) as Promise<T>

  /** Deploys a fixture contract from dev account `from`; its address. */
  const deploy = async (name: string, args: unknown[], from = 0): Promise<Address> => {
    const { abi, bytecode } = fixtureArtifact(name)
    const hash = await wallet(from).deployContract({ abi: abi as Abi, bytecode, args } as never)
    const receipt = await waitForReceipt(chain(), hash)
    if (!receipt.contractAddress) throw new Error(`${name} was not deployed`)
    return receipt.contractAddress
  }
  const send = async (from: number, to: Address, data: Hex) => {
    const receipt = await waitForReceipt(chain(), await wallet(from).sendTransaction({ to, data }))
    expect(receipt.status).toBe('success')
  }
  const scanTx = async (from: Address, to: Address | null, data: Hex) => {
    const { outcome, stats } = await scanTransactionsWithStats(
      { txObjects: [{ from, to, data }], userAccount: from, metadata: { origin: 'https://admin.example.org' } },
      { rpcUrl: fx().rpcUrl },
    )
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
    validateTransactionsResponse(outcome.response)
    return { response: outcome.response, roundTrips: stats.roundTrips }
  }
  const call = (functionName: string, args: unknown[] = []) =>
    encodeFunctionData({ abi: controlAbi, functionName, args } as never)
  const only = (response: ScanTransactionsResponse | { warnings: Warning[] }) => {
    expect(kinds(response.warnings)).toEqual(['WARNING SET_OWNER_AUTHORITY'])
    return response.warnings[0] as Warning
  }

  it('an owner handing a vault to a personal account: WARN in one round trip, and the new owner empties it', async () => {
    const { vault } = fx().controlled
    await waitForReceipt(chain(), await wallet(0).sendTransaction({ to: vault, value: parseEther('5') }))
    const handover = call('transferOwnership', [attacker()])
    const { response, roundTrips } = await scanTx(user(), vault, handover)
    expect(response.action).toBe('WARN')
    expect(roundTrips).toBe(1)
    const warning = only(response)
    expect(warning.message).toContain(`from your account (${user().toLowerCase().slice(0, 6)}`)
    expect(warning.message).toContain(`${attacker().toLowerCase().slice(0, 6)}`)
    expect(warning.message).toContain('a personal account')
    expect(warning.data).toEqual({
      contract: vault.toLowerCase(),
      contractControl: 'owner',
      previous: user().toLowerCase(),
      next: attacker().toLowerCase(),
      role: null,
    })
    expect(response.simulationResults.aggregated.expectedStateChanges).toEqual({})

    await send(0, vault, handover)
    expect(await read<Address>(vault, 'owner')).toBe(attacker())
    const before = await chain().getBalance({ address: attacker() })
    await send(6, vault, call('withdraw', [attacker()]))
    expect((await chain().getBalance({ address: attacker() })) - before).toBeGreaterThan(parseEther('4.99'))
  })

  it('renouncing ownership, and offering it two-step: each said for what it is', async () => {
    const { vault } = fx().controlled
    const renounce = only((await scanTx(user(), vault, call('renounceOwnership'))).response)
    expect(renounce.message).toContain('renounces ownership')
    expect(renounce.message).toContain('cannot be undone')
    expect(renounce.data).toMatchObject({
      contractControl: 'owner',
      next: '0x0000000000000000000000000000000000000000',
    })

    const twoStep = await deploy('DevOwnedVault2Step', [user()])
    const offer = call('transferOwnership', [attacker()])
    const offered = only((await scanTx(user(), twoStep, offer)).response)
    expect(offered.message).toContain('the moment it accepts')
    expect(offered.data).toMatchObject({ contractControl: 'pendingOwner', next: attacker().toLowerCase() })
    await send(0, twoStep, offer)
    expect(await read<Address>(twoStep, 'pendingOwner')).toBe(attacker())
    // Accepting is the attacker's own gain of control, not a loss of the user's: nothing to say to the attacker.
    const accepted = await scanTx(attacker(), twoStep, call('acceptOwnership'))
    expect(kinds(accepted.response.warnings)).toEqual([])
    await send(6, twoStep, call('acceptOwnership'))
    expect(await read<Address>(twoStep, 'owner')).toBe(attacker())
  })

  it('an admin granting the admin role or a named role, or giving up its own: WARN naming the role', async () => {
    const roles = await deploy('DevMintRoles', [user()])
    const admin = only((await scanTx(user(), roles, call('grantRole', [zeroHash, attacker()]))).response)
    expect(admin.message).toContain('the admin role (DEFAULT_ADMIN_ROLE)')
    expect(admin.message).toContain('hands over control of the contract')
    expect(admin.data).toMatchObject({ contractControl: 'roleGranted', role: zeroHash, next: attacker().toLowerCase() })

    const minter = call('grantRole', [MINTER_ROLE, attacker()])
    const granted = only((await scanTx(user(), roles, minter)).response)
    expect(granted.message).toContain('the role MINTER_ROLE')
    await send(0, roles, minter)
    expect(await read<boolean>(roles, 'hasRole', [MINTER_ROLE, attacker()])).toBe(true)

    const giveUp = only((await scanTx(user(), roles, call('renounceRole', [zeroHash, user()]))).response)
    expect(giveUp.message).toContain('given up')
    expect(giveUp.data).toMatchObject({ contractControl: 'roleRevoked', previous: user().toLowerCase(), next: null })
  })

  it("ds-auth's owner (DSProxy's) and Compound's admin handed over: WARN, and on chain the new one holds it", async () => {
    const dsProxy = await deploy('DevAuthOwned', [user()])
    const setOwner = call('setOwner', [attacker()])
    const { response, roundTrips } = await scanTx(user(), dsProxy, setOwner)
    expect(roundTrips).toBe(1)
    const owner = only(response)
    expect(owner.message).toContain(`This hands ownership of ${dsProxy.toLowerCase().slice(0, 6)}`)
    expect(owner.data).toMatchObject({ contractControl: 'owner', previous: null, next: attacker().toLowerCase() })
    await send(0, dsProxy, setOwner)
    expect(await read<Address>(dsProxy, 'owner')).toBe(attacker())

    // An authority that lets the attacker act as the owner: the attacker then takes the contract.
    const lured = await deploy('DevAuthOwned', [user()])
    const authority = await deploy('DevAuthorityFor', [attacker()])
    const setAuthority = call('setAuthority', [authority])
    const scanned = await scanTx(user(), lured, setAuthority)
    expect(scanned.roundTrips).toBe(1)
    const granted = only(scanned.response)
    expect(granted.message).toContain(`the authority of ${lured.toLowerCase().slice(0, 6)}`)
    expect(granted.data).toMatchObject({ contractControl: 'authority', next: authority.toLowerCase() })
    await send(0, lured, setAuthority)
    await send(6, lured, call('setOwner', [attacker()]))
    expect(await read<Address>(lured, 'owner')).toBe(attacker())

    const comptroller = await deploy('DevCompoundAdmin', [user()])
    const propose = call('_setPendingAdmin', [attacker()])
    const proposed = only((await scanTx(user(), comptroller, propose)).response)
    expect(proposed.message).toContain('This offers admin rights over')
    expect(proposed.message).toContain('which becomes its admin the moment it accepts')
    await send(0, comptroller, propose)
    // The attacker accepting gains control: nothing to say to the attacker.
    expect(kinds((await scanTx(attacker(), comptroller, call('_acceptAdmin'))).response.warnings)).toEqual([])
    await send(6, comptroller, call('_acceptAdmin'))
    expect(await read<Address>(comptroller, 'admin')).toBe(attacker())
  })

  it('a Safe proposal upgrading a proxy the Safe administers: WARN as the owners sign it, and the proxy runs the new code', async () => {
    const safe = fx().safe.address
    const { proxy, proxyAdmin, nextLogic: v2 } = fx().controlled
    expect(await read<bigint>(proxy, 'version')).toBe(1n)

    const nonce = await read<bigint>(safe, 'nonce')
    const proposal = plainSafeTx(proxyAdmin, 0n, nonce, call('upgradeAndCall', [proxy, v2, '0x']))
    const { response, roundTrips } = await scanOk(
      {
        message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fx().chainId, safe, proposal) },
        userAccount: user(),
        metadata: { origin: 'https://app.safe.global' },
      },
      fx().rpcUrl,
    )
    expect(validateMessage(response)).toEqual([])
    expect(response.action).toBe('WARN')
    expect(roundTrips).toBe(1)
    const upgrade = only(response)
    expect(upgrade.message).toContain(`This upgrades ${proxy.toLowerCase().slice(0, 6)}`)
    expect(upgrade.message).toContain(`${v2.toLowerCase().slice(0, 6)}`)
    expect(upgrade.message).toContain('a contract')
    expect(upgrade.data).toMatchObject({ contract: proxy.toLowerCase(), contractControl: 'implementation' })

    await send(7, safe, await ownersExecution(fx(), proposal))
    expect(await read<bigint>(proxy, 'version')).toBe(2n)
  })

  it('a Safe proposal handing its ProxyAdmin to a personal account: names the Safe as the one giving it away', async () => {
    const safe = fx().safe.address
    const { proxyAdmin } = fx().controlled
    const proposal = plainSafeTx(
      proxyAdmin,
      0n,
      await read<bigint>(safe, 'nonce'),
      call('transferOwnership', [attacker()]),
    )
    const { response } = await scanOk(
      {
        message: { kind: 'SIGN_TYPED_DATA', data: safeTxTypedData(fx().chainId, safe, proposal) },
        userAccount: user(),
        metadata: { origin: 'https://app.safe.global' },
      },
      fx().rpcUrl,
    )
    const warning = only(response)
    expect(warning.message).toContain(`from your Safe ${safe.toLowerCase().slice(0, 6)}`)
    expect(warning.data).toMatchObject({ contract: proxyAdmin.toLowerCase(), previous: safe.toLowerCase() })
    await send(7, safe, await ownersExecution(fx(), proposal))
    expect(await read<Address>(proxyAdmin, 'owner')).toBe(attacker())
  })
})
