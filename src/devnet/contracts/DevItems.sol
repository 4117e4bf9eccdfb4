// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// An ERC-1155 collection; balances are minted at deployment.
contract DevItems is ERC1155 {
    constructor(address[] memory holders, uint256[] memory ids, uint256[] memory amounts)
        ERC1155("https://example.invalid/items/{id}.json")
    {
        require(holders.length == ids.length && ids.length == amounts.length, "length mismatch");
        for (uint256 i = 0; i < holders.length; i++) {
            _mint(holders[i], ids[i], amounts[i], "");
        }
    }
}
