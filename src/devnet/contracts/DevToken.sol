// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A plain ERC-20 with any name and decimals, minted to the given holders: tokens that no price feed covers.
contract DevToken is ERC20 {
    uint8 private immutable places;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256[] memory amounts)
        ERC20(name_, symbol_)
    {
        require(holders.length == amounts.length, "length mismatch");
        places = decimals_;
        for (uint256 i = 0; i < holders.length; i++) {
            _mint(holders[i], amounts[i]);
        }
    }

    function decimals() public view override returns (uint8) {
        return places;
    }
}
