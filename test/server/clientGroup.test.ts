import { describe, expect, it } from 'vitest'
import { clientGroup } from '../../src/server/clientGroup.ts'
import { MAX_MEMORY_KEYS, memoryStore } from '../../src/server/rateLimit.ts'

describe('clientGroup', () => {
  it('counts an IPv4 client by its address, an IPv6 client by its /64, whichever way it is written', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7')
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7')
    const network = '2001:db8:1:2::/64'
    for (const address of ['2001:db8:1:2::1', '2001:0db8:0001:0002:ffff:1:2:3', '2001:DB8:1:2:0:0:0:9%eth0']) {
      expect(clientGroup(address)).toBe(network)
    }
    expect(clientGroup('2001:db8:1:3::1')).not.toBe(network)
    expect(clientGroup('::1')).toBe('0:0:0:0::/64')
  })
})

describe('memoryStore', () => {
  it("keeps each namespace's room apart: wrong keys from many addresses do not crowd out an API key's counter", async () => {
    const store = memoryStore(() => 1_000)
    for (let index = 0; index <= MAX_MEMORY_KEYS; index += 1) await store.hit(`auth:${index}`, 60_000)
    // The table for addresses is full: a new one shares the overflow counter, stricter.
    expect((await store.hit('auth:fresh', 60_000)).count).toBe(2)
    expect((await store.hit('key:first-use', 60_000)).count).toBe(1)
  })
})
