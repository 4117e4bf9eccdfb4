/** anvil's default dev accounts, derived from its well-known test mnemonic. */
import { type Address, bytesToHex, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'

const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** Returns the first `count` dev accounts with their private keys (public test keys: never use them on a real network). */
export function devAccounts(count = 10): { address: Address; privateKey: Hex }[] {
  return Array.from({ length: count }, (_, addressIndex) => {
    const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex })
    const key = account.getHdKey().privateKey
    if (!key) throw new Error(`no private key for dev account ${addressIndex}`)
    return { address: account.address, privateKey: bytesToHex(key) }
  })
}
