/**
 * Typed data a wallet would refuse reaches the window as what it is: a malformed message, with the reason, never
 * "No issues found"; the user decides. Real Chromium with the built extension, the devnet, and a dev wallet that
 * records what reaches it.
 */
import type { BrowserContext, Page } from 'playwright-core'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../../src/devnet/devnet.ts'
import { permit2PermitSingle } from '../../src/devnet/eip712.ts'
import { walletPage } from './support/dapp.ts'
import { callThroughConfirmWindow, clickDecision } from './support/extension.ts'
import { type E2eSession, startE2eSession } from './support/session.ts'

type TypedData = ReturnType<typeof permit2PermitSingle>

describe('malformed typed data in the window', () => {
  let devnet: Devnet
  let context: BrowserContext
  let session: E2eSession
  let page: Page
  let account: Hex
  let valid: () => TypedData

  beforeAll(async () => {
    session = await startE2eSession()
    ;({ devnet, context } = session)
    const { fixtures } = devnet
    account = fixtures.accounts[0]?.address as Hex
    valid = () =>
      permit2PermitSingle({
        chainId: fixtures.chainId,
        token: fixtures.erc20.address,
        amount: 1n,
        expiration: 1900000000,
        spender: fixtures.accounts[5]?.address as Hex,
        sigDeadline: 1900000000,
      })
    // The wallet records every signing request that reaches it, below the extension's hook.
    page = await session.open(
      '/',
      walletPage(`
        const wallet = DevWallet.createDevWallet(${JSON.stringify({ rpcUrl: fixtures.rpcUrl, account })})
        window.reached = []
        const request = wallet.request
        wallet.request = (args) => (args.method.startsWith('eth_sign') && reached.push(args.method), request(args))
        DevWallet.announceDevWallet(wallet)
      `),
    )
  })
  afterAll(() => session?.close())

  const reached = () => page.evaluate(() => (window as unknown as { reached: string[] }).reached.length)
  const sign = (data: unknown) =>
    callThroughConfirmWindow(
      context,
      page,
      `ethereum.request({ method: 'eth_signTypedData_v4', params: ['${account}', ${JSON.stringify(JSON.stringify(data))}] })`,
    )

  const cases: [string, () => unknown, string][] = [
    [
      'a field of an undefined type',
      () => {
        const data = valid()
        data.types.PermitSingle = [...(data.types.PermitSingle ?? []), { name: 'extra', type: 'Undeclared' }]
        return data
      },
      '"Undeclared" is neither an EIP-712 type nor defined',
    ],
    ['an empty domain', () => ({ ...valid(), domain: {} }), 'message.data.domain: empty'],
    [
      'a primary type that is not in types',
      () => ({ ...valid(), primaryType: 'PermitAll' }),
      'message.data.primaryType: "PermitAll" is not defined',
    ],
  ]

  for (const [name, data, why] of cases) {
    it(`says the message is malformed and why (${name}), and Reject gives the dapp 4001`, async () => {
      const before = await reached()
      const { confirm, result } = await sign(data())
      const warning = confirm.locator('[data-warning-kind="RELIABLE_SIMULATION_NOT_POSSIBLE"]')
      await warning.waitFor()
      expect(await confirm.locator('[data-action]').getAttribute('data-action')).toBe('WARN')
      expect(await warning.textContent()).toContain('malformed')
      expect(await warning.textContent()).toContain(why)
      expect(await confirm.getByText('No issues found').count()).toBe(0)
      await clickDecision(confirm, 'Reject')
      expect(await result()).toMatchObject({ code: 4001 })
      expect(await reached()).toBe(before)
    })
  }

  it('lets the user continue: the wallet then gets the message and answers it itself', async () => {
    const before = await reached()
    const { confirm, result } = await sign({ ...valid(), domain: {} })
    await confirm.locator('[data-action="WARN"]').waitFor()
    await clickDecision(confirm, 'Continue')
    await result()
    expect(await reached()).toBe(before + 1)
  })
})
