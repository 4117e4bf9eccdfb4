// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Placed by a state override during a simulation (never deployed): reads that eth_call cannot make in a block, and
/// every read of another contract, made as a static call.
contract NativeBalanceReader {
    /// A read failed as a static call and succeeded when allowed to write: its target writes state when read, which
    /// honest view functions never do (callers compiled with Solidity 0.5 or later read them with STATICCALL).
    error WritesState();

    /// An account's native balance.
    function balanceOf(address account) external view returns (uint256) {
        return account.balance;
    }

    /// An account's code size; 0 for an EIP-7702 delegation (0xef0100 ‖ address), which leaves the account a person's.
    function codeSize(address account) external view returns (uint256) {
        uint256 size = account.code.length;
        if (size == 23 && bytes3(account.code) == 0xef0100) return 0;
        return size;
    }

    /// What `target` returns for `data`, as its own return data: made as a static call, so a read the simulation makes
    /// before the transactions cannot leave state (an "I am simulated" flag) that they then read. Reverts as the target
    /// does, or with WritesState. A quarter of the gas is kept for that second try.
    function readOnly(address target, bytes calldata data) external {
        (bool ok, bytes memory result) = target.staticcall{gas: (gasleft() * 3) / 4}(data);
        if (ok) {
            assembly {
                return(add(result, 32), mload(result))
            }
        }
        (, bytes memory tried) = address(this).call(abi.encodeCall(this.tryWrite, (target, data)));
        if (tried.length == 4 && bytes4(tried) == WritesState.selector) revert WritesState();
        assembly {
            revert(add(result, 32), mload(result))
        }
    }

    /// Calls `target` with write access and always reverts, which undoes whatever it wrote: with WritesState when the
    /// call succeeded.
    function tryWrite(address target, bytes calldata data) external {
        (bool ok, ) = target.call(data);
        if (ok) revert WritesState();
        revert();
    }
}
