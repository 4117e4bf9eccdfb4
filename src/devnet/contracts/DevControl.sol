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

/// ds-auth's ownership, as DSProxy (Maker's vaults) has it: the owner names its successor in one step, and an
/// authority may let others act as the owner.
interface DevAuthority {
    function canCall(address src, address dst, bytes4 sig) external view returns (bool);
}

contract DevAuthOwned {
    address public owner;
    DevAuthority public authority;

    event LogSetOwner(address indexed owner);
    event LogSetAuthority(address indexed authority);

    constructor(address owner_) {
        owner = owner_;
        emit LogSetOwner(owner_);
    }

    modifier auth() {
        require(
            msg.sender == owner
                || (address(authority) != address(0) && authority.canCall(msg.sender, address(this), msg.sig)),
            "ds-auth-unauthorized"
        );
        _;
    }

    function setOwner(address owner_) external auth {
        owner = owner_;
        emit LogSetOwner(owner_);
    }

    function setAuthority(DevAuthority authority_) external auth {
        authority = authority_;
        emit LogSetAuthority(address(authority_));
    }
}

/// An authority that lets one account do anything: what a DSProxy "permission" lure installs.
contract DevAuthorityFor is DevAuthority {
    address public immutable allowed;

    constructor(address allowed_) {
        allowed = allowed_;
    }

    function canCall(address src, address, bytes4) external view returns (bool) {
        return src == allowed;
    }
}

/// Compound's admin, as its Comptroller and markets have it (and its forks): proposed, then accepted.
contract DevCompoundAdmin {
    address public admin;
    address public pendingAdmin;

    event NewPendingAdmin(address oldPendingAdmin, address newPendingAdmin);
    event NewAdmin(address oldAdmin, address newAdmin);

    constructor(address admin_) {
        admin = admin_;
    }

    function _setPendingAdmin(address newPendingAdmin) external {
        require(msg.sender == admin, "not the admin");
        emit NewPendingAdmin(pendingAdmin, newPendingAdmin);
        pendingAdmin = newPendingAdmin;
    }

    function _acceptAdmin() external {
        require(msg.sender == pendingAdmin && msg.sender != address(0), "not the pending admin");
        emit NewAdmin(admin, pendingAdmin);
        emit NewPendingAdmin(pendingAdmin, address(0));
        admin = pendingAdmin;
        pendingAdmin = address(0);
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
