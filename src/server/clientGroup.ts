/**
 * Who a client is, for counting its wrong keys and refusing it: an IPv4 address itself, and an IPv6 address by its /64
 * network. One subscriber is handed a whole /64 (2^64 addresses), so counted by address it could make every attempt
 * from a fresh one.
 */
import { isIP } from 'node:net'

/** The address or network `ip` is counted under: `203.0.113.7`, or `2001:db8:1:2::/64`. */
export function clientGroup(ip: string): string {
  const address = ip.replace(/%.*$/, '')
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1] as string
  if (isIP(address) !== 6) return address
  const [head = '', tail] = address.toLowerCase().split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
