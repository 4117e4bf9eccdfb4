// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// Placed by a state override for a sell probe (never deployed). The user has just sent a token they bought back to
/// the pool it came from; if that pool answers as a Uniswap V2 pair of the token, the probe sells what the pair
/// received (its balance above its reserve) for the pair's other token, paid to the user, as a router would, and says
/// what the pair received, what the amount sent would fetch untaxed, and what the user was paid. A failing swap is a
/// result, not a revert. Compiled by test/engine/simulation/sellProbe.test.ts (solc 0.8.28, optimizer 200 runs, evm
/// paris, no metadata), which checks SELL_PROBE_CODE in sellProbe.ts is this source's runtime code.
contract SellProbe {
    uint8 private constant NOT_A_PAIR = 0;
    uint8 private constant SWAP_REVERTED = 1;
    uint8 private constant SOLD = 2;
    /// Enough for any honest view function; bounded so a hostile token's view cannot eat the probe's gas.
    uint256 private constant VIEW_GAS = 100_000;

    /// One side of a pair: the reserve of the token sold, the reserve and address of the token paid out.
    struct Side {
        bool isPair;
        bool tokenIsZero;
        uint256 reserveIn;
        uint256 reserveOut;
        address tokenOut;
    }

    /// Sells what `pair` received of `token` above its reserve, paid to `to`; `amount` is what was sent to the pair.
    function sell(address pair, address token, uint256 amount, address to)
        external
        returns (uint8 status, uint256 received, uint256 untaxed, uint256 paid)
    {
        Side memory side = sideOf(pair, token);
        if (!side.isPair) return (NOT_A_PAIR, 0, 0, 0);
        (, uint256 balance) = word(token, abi.encodeWithSignature("balanceOf(address)", pair));
        received = balance > side.reserveIn ? balance - side.reserveIn : 0;
        untaxed = amountOut(amount, side.reserveIn, side.reserveOut);
        uint256 quoted = amountOut(received, side.reserveIn, side.reserveOut);
        if (quoted == 0) return (SOLD, received, untaxed, 0);
        (status, paid) = swap(pair, side, quoted, to);
    }

    /// Whether `pair` answers as a Uniswap V2 pair of `token`, and its reserves seen from `token`.
    function sideOf(address pair, address token) private view returns (Side memory side) {
        (bool hasToken0, uint256 token0) = word(pair, abi.encodeWithSignature("token0()"));
        (bool hasToken1, uint256 token1) = word(pair, abi.encodeWithSignature("token1()"));
        side.tokenIsZero = hasToken0 && token0 == uint160(token);
        if (!hasToken1 || !(side.tokenIsZero || (hasToken0 && token1 == uint160(token)))) return side;
        (bool ok, bytes memory reserves) = pair.staticcall{gas: VIEW_GAS}(abi.encodeWithSignature("getReserves()"));
        if (!ok || reserves.length < 64) return side;
        (uint256 reserve0, uint256 reserve1) = abi.decode(reserves, (uint256, uint256));
        (side.reserveIn, side.reserveOut) = side.tokenIsZero ? (reserve0, reserve1) : (reserve1, reserve0);
        side.tokenOut = address(uint160(side.tokenIsZero ? token1 : token0));
        side.isPair = true;
    }

    /// The pair's swap of `quoted` of its other token to `to`, and what `to` was paid; a revert is SWAP_REVERTED.
    function swap(address pair, Side memory side, uint256 quoted, address to) private returns (uint8, uint256) {
        (, uint256 before) = word(side.tokenOut, abi.encodeWithSignature("balanceOf(address)", to));
        try IUniswapV2Pair(pair).swap(side.tokenIsZero ? 0 : quoted, side.tokenIsZero ? quoted : 0, to, "") {}
        catch {
            return (SWAP_REVERTED, 0);
        }
        (, uint256 afterwards) = word(side.tokenOut, abi.encodeWithSignature("balanceOf(address)", to));
        return (SOLD, afterwards > before ? afterwards - before : 0);
    }

    /// Uniswap V2's getAmountOut: the 0.3% fee taken from what comes in.
    function amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) private pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 withFee = amountIn * 997;
        return (withFee * reserveOut) / (reserveIn * 1000 + withFee);
    }

    /// The first word a static call returns, or false when it fails or returns less.
    function word(address target, bytes memory data) private view returns (bool, uint256) {
        (bool ok, bytes memory result) = target.staticcall{gas: VIEW_GAS}(data);
        if (!ok || result.length < 32) return (false, 0);
        return (true, abi.decode(result, (uint256)));
    }
}

interface IUniswapV2Pair {
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}
