// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// Placed by a state override for the price reads (never deployed). A pool's balance of its quote token says nothing
/// about whether anyone can sell into it: liquidity parked far out of range is counted but pays nothing. So the probe
/// sells the token into a Uniswap V3 pool for as long as the pool's price stays within 5% of where it started, and
/// says what the pool would pay, with the pool's current tick. The swap is always undone: the pool pays first, then
/// asks the probe's callback to be paid, and the callback reverts with the amounts, as Uniswap's own quoters do.
/// Compiled by test/engine/simulation/poolDepth.test.ts (solc 0.8.28, optimizer 200 runs, evm paris, no metadata),
/// which checks POOL_DEPTH_CODE in poolDepthRead.ts is this source's runtime code.
contract PoolDepth {
    /// sqrt(0.95) and its inverse in millionths: a 5% move of the price is this move of its square root.
    uint256 private constant SQRT_DOWN = 974_679;
    uint256 private constant SQRT_UP = 1_025_978;
    uint256 private constant MILLION = 1_000_000;
    /// The bounds of a V3 pool's sqrt price (TickMath's MIN_SQRT_RATIO and MAX_SQRT_RATIO), exclusive.
    uint160 private constant MIN_SQRT = 4_295_128_739;
    uint160 private constant MAX_SQRT = 1_461_446_703_485_210_103_287_584_353_780_123_434_596_495_689_793;
    /// Enough for any honest view function; bounded so a hostile token's view cannot eat the probe's gas.
    uint256 private constant VIEW_GAS = 100_000;

    /// What selling `token` into `pool` pays of the pool's other token before the price falls 5%, and the pool's
    /// tick now; `live` is false when `pool` is no V3 pool of `token` (no code, another pair, no answer).
    function depth(address pool, address token) external returns (bool live, int24 tick, uint256 paid) {
        (bool ok0, uint256 token0) = word(pool, abi.encodeWithSignature("token0()"));
        (bool ok1, uint256 token1) = word(pool, abi.encodeWithSignature("token1()"));
        bool zeroForOne = ok0 && token0 == uint160(token);
        if (!ok1 || !(zeroForOne || (ok0 && token1 == uint160(token)))) return (false, 0, 0);
        (bool ok, bytes memory slot0) = pool.staticcall{gas: VIEW_GAS}(abi.encodeWithSignature("slot0()"));
        if (!ok || slot0.length < 64) return (false, 0, 0);
        uint160 sqrtPrice;
        (sqrtPrice, tick) = abi.decode(slot0, (uint160, int24));
        return (true, tick, sell(pool, zeroForOne, limitOf(sqrtPrice, zeroForOne)));
    }

    /// The sqrt price 5% of price away from `sqrtPrice` in the direction a sale moves it, inside the pool's bounds.
    function limitOf(uint160 sqrtPrice, bool zeroForOne) private pure returns (uint160) {
        uint256 limit = (uint256(sqrtPrice) * (zeroForOne ? SQRT_DOWN : SQRT_UP)) / MILLION;
        if (limit <= MIN_SQRT) return MIN_SQRT + 1;
        if (limit >= MAX_SQRT) return MAX_SQRT - 1;
        return uint160(limit);
    }

    /// What the pool pays for an unbounded sale that stops at `limit`, read from the callback's revert.
    function sell(address pool, bool zeroForOne, uint160 limit) private returns (uint256) {
        bytes memory call = abi.encodeWithSignature(
            "swap(address,bool,int256,uint160,bytes)", address(this), zeroForOne, int256(uint256(type(uint128).max)), limit, ""
        );
        (, bytes memory reason) = pool.call(call);
        // Only the callback reverts with two words: the pool's own refusals are strings or empty.
        if (reason.length != 64) return 0;
        (int256 amount0, int256 amount1) = abi.decode(reason, (int256, int256));
        int256 out = zeroForOne ? amount1 : amount0;
        return out < 0 ? uint256(-out) : 0;
    }

    /// The pool has paid and asks to be paid: revert with what it asked, which undoes the swap.
    function uniswapV3SwapCallback(int256 amount0, int256 amount1, bytes calldata) external pure {
        assembly {
            mstore(0, amount0)
            mstore(32, amount1)
            revert(0, 64)
        }
    }

    /// The first word a static call returns, or false when it fails or returns less.
    function word(address target, bytes memory data) private view returns (bool, uint256) {
        (bool ok, bytes memory result) = target.staticcall{gas: VIEW_GAS}(data);
        if (!ok || result.length < 32) return (false, 0);
        return (true, abi.decode(result, (uint256)));
    }
}
