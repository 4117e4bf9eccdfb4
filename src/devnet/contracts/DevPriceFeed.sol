// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A price feed with Chainlink's AggregatorV3Interface, for the devnet: its deployer sets the answer. Until it sets a
/// fixed update time, the answer reads as updated in the current block, so a devnet left running never goes stale.
contract DevPriceFeed {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address private immutable owner;
    int256 private answer;
    uint256 private fixedUpdatedAt;
    uint80 private round;

    constructor(uint8 decimals_, string memory description_, int256 answer_) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        answer = answer_;
        round = 1;
    }

    /// Sets the answer; `updatedAt_` 0 keeps it current, anything else pins its update time (to test staleness).
    function setAnswer(int256 answer_, uint256 updatedAt_) external {
        require(msg.sender == owner, "only the deployer");
        answer = answer_;
        fixedUpdatedAt = updatedAt_;
        round += 1;
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer_, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        uint256 at = fixedUpdatedAt == 0 ? block.timestamp : fixedUpdatedAt;
        return (round, answer, at, at, round);
    }

    function latestAnswer() external view returns (int256) {
        return answer;
    }
}
