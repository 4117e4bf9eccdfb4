/**
 * # risk — warnings, and the action they decide
 *
 * What makes a scan say WARN or BLOCK (seed §2.7). Warnings that only one kind of message can raise (permits, orders,
 * Safe transaction messages, raw hashes) are raised where it is analysed: `messages/` and `scan/scanMessage.ts`.
 *
 * - `action.ts`: the action is decided here: BLOCK on any CRITICAL warning, WARN on any other, else NONE.
 * - `warnings.ts`: warning values, most severe first, repeats dropped.
 * - `transactionWarnings.ts`: what a simulation's effects justify: known and suspected theft (drainers), approvals to
 *   people and for all NFTs, tokens sent to their own contract, odd gas, long bundles.
 * - `valueWarnings.ts`: a large dollar value sent for next to nothing back (TRADE_FOR_NOTHING for transactions).
 * - `balanceDisagreements.ts`: tokens whose balance reads and events disagree (moves without events, events that
 *   cancel out, a balanceOf that lies, a cut no event shows): RELIABLE_SIMULATION_NOT_POSSIBLE, naming the token.
 * - `fakePaybacks.ts`: tokens Preflight cannot value, no receipt, minted for the user on the spot or handed out by a
 *   contract paid nothing: what a drainer hands back so the drain does not look like one.
 * - `assetNames.ts`: how warnings name assets, counted per collection past a handful.
 * - `safeControl.ts`: Safe transactions that change who controls the wallet (owners, threshold, modules, guard,
 *   fallback handler, delegate calls).
 * - `safeSignatures.ts`: Safe signatures a transaction gives by hash alone (approveHash, SignMessageLib).
 * - `safeRefund.ts`: Safe transactions that pay a gas refund out of the Safe (MULTISIG_GAS_REFUND).
 * - `safeHandlerSettings.ts`: settings of Safe's ExtensibleFallbackHandler that give the Safe's signature to a contract
 *   (a domain verifier, a method handler).
 * - `counterfeits.ts`: tokens received that copy a listed token's symbol from another address (fake payments).
 * - `unsellableTokens.ts`: tokens the user buys that the scan's sell probe cannot sell back to their pool, or only at
 *   a tax above 10 % (honeypots), and buys that lose as much to the token's own tax (TOKEN_CANNOT_BE_SOLD).
 * - `orderPreSignatures.ts`: CoW orders signed on chain by their ID alone (setPreSignature), how Safes swap.
 * - `lendingDelegation.ts`: lending positions handed to another address (Aave credit delegation, Compound III
 *   managers), which move nothing when given.
 * - `swapProceeds.ts`: swaps the user pays for whose output goes mostly to someone else (a router's recipient set to
 *   the attacker), read from what moved, so any router and route is covered.
 * - `bridgeDeposits.ts`: Across bridge deposits paid out on another chain to, or refundable to, someone else.
 * - `opStackDeposits.ts`: deposits through the OP Stack's standard bridge or portal paid out on the other chain to
 *   someone else, from the events they emit.
 * - `contractControl.ts`: control of a contract given away (ownership, roles, a proxy's code or admin), from its events.
 * - `value.ts`: a trade that gives far more in dollars than it brings back, once assets carry prices.
 * - `phishing.ts`: the requesting site against the bundled eth-phishing-detect lists.
 * - `blocklist.ts`: known malicious addresses per chain (`data/maliciousAddresses.json`, plus what a host adds).
 * - `spenders.ts`: contracts that take approvals for a living (exchanges, conduits, routers), generated from npm
 *   deployment packages into `data/knownSpenders.json` by test/tools/knownSpenders.ts.
 * - `aaveTokens.ts`: Aave V3's aTokens and variable debt tokens, whose interest events the balance reads trust,
 *   generated from Aave's address book into `data/aaveInterestTokens.json` by test/tools/knownSpenders.ts.
 * - `minters.ts`: the contracts NFT drops are minted through (SeaDrop, Zora, Highlight, Foundation), generated from
 *   Reservoir's deployment book into `data/knownMinters.json` by test/tools/knownMinters.ts.
 * - `nonces.ts`: a nonce the site fixed that a mined transaction took, that replaces one of the user's still waiting,
 *   or that waits behind transactions not yet sent (the caller reads the account's nonces).
 * - `poisoning.ts`: a recipient that starts and ends like an address the user sent to before, and is not it
 *   (POISONED_ADDRESS); the caller keeps the addresses, the scan has no memory.
 * - `protocols.ts`: which protocol a transaction or message talks to (`data/protocols.json`, Safe wallets, plain
 *   native transfers).
 */
export { actionFor } from './action.ts'
export { addMaliciousAddresses, knownMalicious, maliciousAddressWarnings } from './blocklist.ts'
export { accountInWords, addressIn } from './bridgeDeposits.ts'
export { counterfeitWarnings } from './counterfeits.ts'
export { nonceWarnings } from './nonces.ts'
export { checkDomain, type DomainVerdict, embeddingPageWarnings, originWarnings } from './phishing.ts'
export { lookalikeOf, poisonedAddressWarnings, recipientsOf } from './poisoning.ts'
export {
  contractProtocol,
  isListedContract,
  isWrappedNative,
  knownProtocol,
  transactionProtocol,
} from './protocols.ts'
export { SIGNATURE_POWERS, type UnreadableBytes, unreadableBytes } from './safeSignatures.ts'
export { stateWritingReadWarnings } from './simulationEvasion.ts'
export { type KnownSpender, knownSpender } from './spenders.ts'
export { pastTolerance } from './tolerance.ts'
export { simulationWarnings } from './transactionWarnings.ts'
export { imbalancedValueWarnings } from './value.ts'
export { handsOverControl, makeWarning, signsByHash, sortWarnings, uniqueWarnings } from './warnings.ts'
