/**
 * misdirectedPayouts, tradeCounterparties and recordersFor on movements and logs as a simulation reports them: who pays
 * in, who pays out, who ends up with it, who records it for whom.
 */
import { type Address, getAddress, type Hex, pad, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  misdirectedPayouts,
  recordersFor,
  swapFlows,
  tradeCounterparties,
} from '../../../src/engine/risk/swapProceeds.ts'
import type { Movement } from '../../../src/engine/simulation/index.ts'
import { etherMovement, tokenMovement } from '../movementSupport.ts'

const [user, router, pool, weth, usdc, other, fee] = [
  '0x00000000000000000000000000000000000000A1',
  '0x00000000000000000000000000000000000000B2',
  '0x00000000000000000000000000000000000000C3',
  '0x00000000000000000000000000000000000000D4',
  '0x00000000000000000000000000000000000000E5',
  '0x00000000000000000000000000000000000000F6',
  '0x0000000000000000000000000000000000000017',
].map((address) => getAddress(address)) as [Address, Address, Address, Address, Address, Address, Address]

const ether = etherMovement
const token = tokenMovement
const isUser = (address: Address) => address.toLowerCase() === user.toLowerCase()
const unlisted = () => false

/** The user sells 1,000 USDC to the pool for WETH, which the router unwraps and pays as ether to `to`. */
const sellForEther = (to: Address): Movement[] => [
  token(usdc, user, pool, 1000n),
  token(weth, pool, router, 3n),
  token(weth, router, zeroAddress, 3n),
  ether(weth, router, 3n),
  ether(router, to, 3n),
]

describe('misdirectedPayouts', () => {
  it("a token's swap back excuses nothing of a sale routed through its pool beside a tiny sale of it", () => {
    const [back, backPool, usdcBackPool] = [
      getAddress('0x00000000000000000000000000000000000000b5'),
      getAddress('0x00000000000000000000000000000000000000c5'),
      getAddress('0x00000000000000000000000000000000000000c6'),
    ]
    const viaRouter = (to: Address, amount: bigint): Movement[] => [
      token(weth, backPool, router, amount),
      token(weth, router, zeroAddress, amount),
      ether(weth, router, amount),
      ether(router, to, amount),
    ]
    const movements = [
      // The user's tiny sale of the team's token: its contract first swaps back its stuffed stock for the team.
      token(back, user, back, 1n),
      token(back, back, backPool, 1000n),
      ...viaRouter(other, 10n),
      token(back, user, backPool, 1n),
      ...viaRouter(user, 1n),
      // The user's 1,000 USDC, routed USDC → BACK → WETH, paid to the team.
      token(usdc, user, usdcBackPool, 1000n),
      token(back, usdcBackPool, backPool, 50n),
      ...viaRouter(other, 3n),
    ]
    const [payout] = misdirectedPayouts(swapFlows(movements, unlisted), isUser)
    expect(payout?.recipient).toBe(other)
  })

  it('an unlisted WETH that pays ether for its own burn is the native currency: paid to the user, nothing', () => {
    expect(misdirectedPayouts(swapFlows(sellForEther(user), unlisted), isUser)).toEqual([])
  })

  it('paid to another address: that address, the ether, and the pool as its payer (the router passes it on)', () => {
    expect(misdirectedPayouts(swapFlows(sellForEther(other), unlisted), isUser)).toEqual([
      { asset: 'native', recipient: other, amount: 3n, total: 3n, takers: 1, payers: [pool] },
    ])
  })

  it('a small fee to an interface is no misdirection; most of the output to others is, naming the largest', () => {
    const split = (toUser: bigint, toFee: bigint, toOther: bigint) => [
      ether(user, router, 10n),
      ether(router, weth, 10n),
      token(weth, zeroAddress, pool, 10n),
      token(usdc, pool, router, 1000n),
      token(usdc, router, user, toUser),
      token(usdc, router, fee, toFee),
      token(usdc, router, other, toOther),
    ]
    expect(misdirectedPayouts(swapFlows(split(975n, 25n, 0n), unlisted), isUser)).toEqual([])
    expect(misdirectedPayouts(swapFlows(split(100n, 300n, 600n), unlisted), isUser)).toMatchObject([
      { asset: usdc, recipient: other, amount: 600n, total: 1000n, takers: 2 },
    ])
  })

  it('nothing when the user pays nothing, and a token’s own contract keeping a tax is not a recipient', () => {
    expect(misdirectedPayouts(swapFlows([token(usdc, pool, other, 5n)], unlisted), isUser)).toEqual([])
    const taxed = [ether(user, pool, 1n), token(usdc, pool, user, 40n), token(usdc, pool, usdc, 60n)]
    expect(misdirectedPayouts(swapFlows(taxed, unlisted), isUser)).toEqual([])
  })
})

describe('tradeCounterparties', () => {
  /** The user's ether, wrapped by the router, buys USDC from the pool; the USDC goes to `to`. */
  const buyWith = (to: Address): Movement[] => [
    ether(user, router, 10n),
    ether(router, weth, 10n),
    token(weth, zeroAddress, router, 10n),
    token(weth, router, pool, 10n),
    token(usdc, pool, to, 1000n),
  ]
  const isUserOr = (holder: Address) => (address: Address) => isUser(address) || address === holder

  it('the pool that paid the user, and the wrapper whose tokens went only to it', () => {
    expect(tradeCounterparties(swapFlows(buyWith(user), unlisted), isUser)).toEqual([pool, weth])
    // A farm that holds the USDC in the user's name counts as the user's side.
    expect(tradeCounterparties(swapFlows(buyWith(fee), unlisted), isUserOr(fee))).toEqual([pool, weth])
  })

  it('no one when the output goes to someone else, nor a wrapper that hands the wrapped ether to a hidden wallet', () => {
    expect(tradeCounterparties(swapFlows(buyWith(other), unlisted), isUser)).toEqual([])
    const wrappedAway = [
      ether(user, router, 10n),
      ether(router, weth, 10n),
      token(weth, zeroAddress, other, 10n),
      token(usdc, pool, user, 1n),
    ]
    expect(tradeCounterparties(swapFlows(wrappedAway, unlisted), isUser)).toEqual([pool])
  })
})

describe('recordersFor', () => {
  const word = (address: Address): Hex => pad(address.toLowerCase() as Hex)
  const log = (address: Address, topics: Hex[], data: Hex = '0x') => ({ address, topics, data })
  const EVENT = `0x${'ab'.repeat(32)}` as Hex

  it('a contract whose event names the user in a topic or a data word; not one naming others, nor the event id', () => {
    const logs = [
      log(fee, [EVENT, word(user)]),
      log(pool, [EVENT], `0x${'00'.repeat(32)}${word(user).slice(2)}`),
      log(other, [EVENT, word(other)], word(router)),
      log(router, [word(user)]),
    ]
    expect([...recordersFor(logs, isUser)]).toEqual([fee.toLowerCase(), pool.toLowerCase()])
  })
})
