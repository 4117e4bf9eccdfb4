// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// Reads a Safe's whole configuration in one call, placed by a state override for the simulation's before and after
/// blocks. Each read is a static call with its own gas budget whose failure leaves only its field empty, so a hostile
/// singleton can neither fail the whole read nor hide the swap: slot 0 comes from the proxy itself (masterCopy()).
/// Compiled by test/engine/simulation/safeInspector.test.ts (solc 0.8.28, optimizer 200 runs, evm paris, no metadata),
/// which checks SAFE_INSPECTOR_CODE in safeConfigRead.ts is this source's runtime code.
contract SafeInspector {
    /// keccak256("guard_manager.guard.address")
    uint256 private constant GUARD_SLOT = 0x4a204f620c8c5ccdca3fd54d003badd85ba500436a431f0cbda4f558c93c34c8;
    /// keccak256("module_manager.module_guard.address") (Safe 1.5.0)
    uint256 private constant MODULE_GUARD_SLOT = 0xb104e0b93118902c651344349b610029d694cfdec91c589c91ebafbcd0289947;
    /// keccak256("fallback_manager.handler.address")
    uint256 private constant FALLBACK_HANDLER_SLOT = 0x6c9a6c4a39284e37ed1cf53d337577d14212a4870fb976a4366c693b939918d5;
    address private constant SENTINEL = address(1);
    uint256 private constant MODULE_PAGE = 16;
    uint256 private constant CALL_GAS = 100_000;
    /// Kept back from every read, so the inspector returns what it has read whatever gas the Safe's code burns.
    uint256 private constant RESERVE_GAS = 60_000;
    /// Gas for one isModuleEnabled or isOwner: a few thousand on a Safe.
    uint256 private constant MEMBER_GAS = 20_000;

    struct Config {
        address singleton;
        address[] owners;
        uint256 threshold;
        uint256 nonce;
        string version;
        address[] modules;
        bool moreModules;
        /// Storage is readable (getStorageAt, Safe 1.3.0 and later): guard, module guard and handler are known.
        bool slotsRead;
        address guard;
        address moduleGuard;
        address fallbackHandler;
    }

    function inspect(address safe) external view returns (Config memory config) {
        if (safe.code.length == 0) return config;
        config.singleton = _singleton(safe);
        (bool ok, bytes memory data) = _call(safe, abi.encodeWithSignature("getOwners()"));
        if (ok) {
            try this.decodeAddresses{gas: CALL_GAS}(data) returns (address[] memory owners) {
                config.owners = owners;
            } catch {}
        }
        config.threshold = _word(safe, abi.encodeWithSignature("getThreshold()"));
        config.nonce = _word(safe, abi.encodeWithSignature("nonce()"));
        (ok, data) = _call(safe, abi.encodeWithSignature("VERSION()"));
        if (ok) {
            try this.decodeString{gas: CALL_GAS}(data) returns (string memory version) {
                config.version = version;
            } catch {}
        }
        (config.modules, config.moreModules) = _modules(safe);
        uint256 guard;
        (config.slotsRead, guard) = _slot(safe, GUARD_SLOT);
        if (config.slotsRead) {
            config.guard = address(uint160(guard));
            (, uint256 moduleGuard) = _slot(safe, MODULE_GUARD_SLOT);
            config.moduleGuard = address(uint160(moduleGuard));
            (, uint256 handler) = _slot(safe, FALLBACK_HANDLER_SLOT);
            config.fallbackHandler = address(uint160(handler));
        }
    }

    /// Which of `candidates` the Safe counts as modules and as owners, linked into its lists or not: a module or owner
    /// written into the mapping alone is enabled (isModuleEnabled, isOwner) though no list walk reaches it.
    function members(address safe, address[] calldata candidates)
        external
        view
        returns (address[] memory modules, address[] memory owners)
    {
        modules = new address[](candidates.length);
        owners = new address[](candidates.length);
        uint256 moduleCount;
        uint256 ownerCount;
        for (uint256 i; safe.code.length > 0 && i < candidates.length; i++) {
            if (gasleft() < 2 * MEMBER_GAS + RESERVE_GAS) break;
            address candidate = candidates[i];
            if (_isTrue(safe, abi.encodeWithSignature("isModuleEnabled(address)", candidate))) {
                modules[moduleCount++] = candidate;
            }
            if (_isTrue(safe, abi.encodeWithSignature("isOwner(address)", candidate))) owners[ownerCount++] = candidate;
        }
        return (_shrink(modules, moduleCount), _shrink(owners, ownerCount));
    }

    function decodeAddresses(bytes memory data) external pure returns (address[] memory) {
        return abi.decode(data, (address[]));
    }

    function decodeString(bytes memory data) external pure returns (string memory) {
        return abi.decode(data, (string));
    }

    function decodeModulePage(bytes memory data) external pure returns (address[] memory, address) {
        return abi.decode(data, (address[], address));
    }

    function _call(address safe, bytes memory payload) private view returns (bool, bytes memory) {
        if (gasleft() < CALL_GAS + RESERVE_GAS) return (false, "");
        return safe.staticcall{gas: CALL_GAS}(payload);
    }

    function _word(address safe, bytes memory payload) private view returns (uint256 value) {
        (bool ok, bytes memory data) = _call(safe, payload);
        if (ok && data.length == 32) value = abi.decode(data, (uint256));
    }

    /// The proxy answers masterCopy() from slot 0 without asking the singleton (Safe 1.1.1 and later).
    function _singleton(address safe) private view returns (address) {
        (bool ok, bytes memory data) = _call(safe, abi.encodeWithSignature("masterCopy()"));
        if (ok && data.length == 32) return address(uint160(abi.decode(data, (uint256))));
        (, uint256 slot0) = _slot(safe, 0);
        return address(uint160(slot0));
    }

    function _modules(address safe) private view returns (address[] memory modules, bool more) {
        bytes memory page = abi.encodeWithSignature("getModulesPaginated(address,uint256)", SENTINEL, MODULE_PAGE);
        (bool ok, bytes memory data) = _call(safe, page);
        if (ok) {
            try this.decodeModulePage{gas: CALL_GAS}(data) returns (address[] memory found, address next) {
                return (found, found.length == MODULE_PAGE && next != SENTINEL && next != address(0));
            } catch {}
        }
        (ok, data) = _call(safe, abi.encodeWithSignature("getModules()"));
        if (ok) {
            try this.decodeAddresses{gas: CALL_GAS}(data) returns (address[] memory found) {
                modules = found;
            } catch {}
        }
    }

    /// True when the Safe answers the call with the word 1.
    function _isTrue(address safe, bytes memory payload) private view returns (bool) {
        (bool ok, bytes memory data) = safe.staticcall{gas: MEMBER_GAS}(payload);
        return ok && data.length == 32 && abi.decode(data, (uint256)) == 1;
    }

    function _shrink(address[] memory list, uint256 length) private pure returns (address[] memory) {
        assembly {
            mstore(list, length)
        }
        return list;
    }

    /// One storage word through StorageAccessible.getStorageAt: abi-encoded bytes of length 32.
    function _slot(address safe, uint256 slot) private view returns (bool ok, uint256 value) {
        bytes memory data;
        (ok, data) = _call(safe, abi.encodeWithSignature("getStorageAt(uint256,uint256)", slot, 1));
        ok = ok && data.length == 96;
        if (!ok) return (false, 0);
        uint256 length;
        assembly {
            length := mload(add(data, 64))
            value := mload(add(data, 96))
        }
        ok = length == 32;
    }
}
