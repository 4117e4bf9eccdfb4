// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// An ERC-721 collection whose token ids are minted at deployment to the given owners.
contract DevNFT is ERC721 {
    constructor(address[] memory owners, uint256[] memory tokenIds) ERC721("Devnet Apes", "DAPE") {
        require(owners.length == tokenIds.length, "length mismatch");
        for (uint256 i = 0; i < owners.length; i++) {
            _mint(owners[i], tokenIds[i]);
        }
    }

    function _baseURI() internal pure override returns (string memory) {
        return "https://example.invalid/dape/";
    }
}
