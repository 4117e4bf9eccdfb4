// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Placed by a state override during a simulation (never deployed): reads that eth_call cannot make in a block.
contract NativeBalanceReader {
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
}
