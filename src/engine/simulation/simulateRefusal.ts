/**
 * Why a node refused a whole eth_simulateV1, said as what to change. Read from the JSON-RPC error code the spec
 * (ethereum/execution-apis src/eth/execute.yaml) gives each refusal, which geth, reth and Nethermind return, never
 * from a node's wording. The codes are geth's, internal/ethapi/errors.go; reth's are the same
 * (crates/rpc/rpc-eth-types/src/simulate.rs).
 */

/** What to change for a refusal with JSON-RPC `code`, or null when the code says nothing the node's message does not. */
export function refusalAdvice(code: number | null): string | null {
  switch (code) {
    case -38014:
      // Without validation the simulation charges no fees, so only the value sent can be more than the balance.
      return 'An account sends more ETH than it holds, so the transaction would fail: lower the value or fund the account first (a scan API client can also override its balance: simulatorConfig.stateOverrides.nativeBalances).'
    case -38015:
      return "A transaction's gas limit is more than its block has left (the block gas limit, less the gas used before it): lower the transaction's gas limit."
    case -38013:
      // geth also answers this when its gas cap ran out before a call (the call then gets no gas at all).
      return "A call's gas limit is below what any call costs to start (21,000 gas plus its calldata): raise the transaction's gas limit if it sets one; otherwise the node's RPC gas cap ran out (geth's default is 50,000,000 for the whole simulation)."
    case -38025:
      return 'A contract creation carries more than the 49,152 bytes of init code chains accept (EIP-3860), so it would fail.'
    case -38026:
      return 'The request is more than this node simulates at once (geth: 256 blocks, 5,000 calls in a block, 10,000 in all): send fewer transactions per request, or use a node with higher limits.'
    case -38010:
    case -38011:
      return "A transaction's nonce is not the account's next one: leave the nonce out, or use the account's next nonce."
    case -32602:
      return "The node did not accept the request's parameters: it may implement an older eth_simulateV1 than the one Preflight follows (geth ≥ 1.14.9, reth, Nethermind and anvil accept it)."
    default:
      return null
  }
}
