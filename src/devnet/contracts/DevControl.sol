// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {TransparentUpgradeableProxy} from "@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol";

/// Contracts a person or a Safe controls, as protocols are controlled: by an owner, by roles, or as a proxy whose
/// admin can give it other code. Tests hand that control over and check the scan said so.

/// A vault whose owner can take what it holds.
contract DevOwnedVault is Ownable {
    constructor(address owner_) Ownable(owner_) {}

    function withdraw(address payable to) external onlyOwner {
        to.transfer(address(this).balance);
    }

    receive() external payable {}
}

/// The same with two-step ownership: the new owner accepts.
contract DevOwnedVault2Step is Ownable2Step {
    constructor(address owner_) Ownable(owner_) {}
}

/// A token admin's contract: the admin grants who may mint.
contract DevMintRoles is AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    constructor(address admin) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }
}

/// The code behind a proxy, and the code an upgrade would give it.
contract DevLogicV1 {
    function version() external pure returns (uint256) {
        return 1;
    }
}

contract DevLogicV2 {
    function version() external pure returns (uint256) {
        return 2;
    }
}

/// OpenZeppelin's transparent proxy: it deploys a ProxyAdmin owned by `owner_`, through which the proxy is upgraded.
contract DevProxy is TransparentUpgradeableProxy {
    constructor(address logic, address owner_) TransparentUpgradeableProxy(logic, owner_, "") {}

    /// The logic contracts here keep no state, so there is nothing to initialise.
    function _unsafeAllowUninitialized() internal pure override returns (bool) {
        return true;
    }

    /// The ProxyAdmin that may upgrade this proxy.
    function proxyAdmin() external view returns (address) {
        return _proxyAdmin();
    }
}
