// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// A USD stablecoin look-alike: 6 decimals and EIP-2612 permit, minted to the devnet's holders.
contract DevUSD is ERC20, ERC20Permit {
    constructor(address[] memory holders, uint256[] memory amounts)
        ERC20("USD Coin", "USDC")
        ERC20Permit("USD Coin")
    {
        require(holders.length == amounts.length, "length mismatch");
        for (uint256 i = 0; i < holders.length; i++) {
            _mint(holders[i], amounts[i]);
        }
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
