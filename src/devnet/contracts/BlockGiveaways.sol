// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Giveaways that tell a simulation by the block it runs in, or by the fee it does not charge (test fixtures the devnet
/// does not deploy): a claim pays the claimer back twice what they send while it looks simulated, and sends it all to the
/// owner in a mined block.
abstract contract BlockGiveaway {
    address payable private immutable owner;

    constructor() payable {
        owner = payable(msg.sender);
    }

    function simulated() internal view virtual returns (bool);

    function claim() external payable {
        if (simulated()) payable(msg.sender).transfer(msg.value * 2);
        else owner.transfer(msg.value);
    }
}

/// Armed `delay` seconds after it is deployed: a simulation that runs on the head's time pays back, while the block that
/// mines the claim, later than the head, does not.
contract TimedGiveaway is BlockGiveaway {
    uint256 public immutable armedAt;

    constructor(uint256 delay) payable {
        armedAt = block.timestamp + delay;
    }

    function simulated() internal view override returns (bool) {
        return block.timestamp < armedAt;
    }
}

/// Keeps the randomness of the block it was last called in, as a keeper calling every block would: a simulation that
/// reuses the head's randomness pays back, while the next block's, which nobody knows yet, does not.
contract RandaoGiveaway is BlockGiveaway {
    uint256 public kept;

    constructor() payable {
        kept = block.prevrandao;
    }

    function keep() external {
        kept = block.prevrandao;
    }

    function simulated() internal view override returns (bool) {
        return block.prevrandao == kept;
    }
}

/// Knows what its victim holds (a page can read it) and pays back while the claimer holds exactly that less the claim: a
/// simulation that charges no fee, where a mined transaction has paid for its gas before it runs.
contract BalanceGiveaway is BlockGiveaway {
    mapping(address => uint256) public expected;

    constructor() payable {}

    function watch(address claimer, uint256 balance) external {
        expected[claimer] = balance;
    }

    function simulated() internal view override returns (bool) {
        return msg.sender.balance == expected[msg.sender];
    }
}
