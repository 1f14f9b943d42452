// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IHeavyPool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
}

/// @notice Test helper: a heavy staker that makes or closes many stakes in one transaction, so a test can give one
///         address thousands of stakes without thousands of transactions (and without writing storage by hand).
contract HeavyStaker {
    function stakeMany(IHeavyPool pool, IERC20 token, uint256 amount, uint256 hold, uint256 count) external {
        token.approve(address(pool), type(uint256).max);
        for (uint256 i; i < count; ++i) pool.stake(amount, hold);
    }

    /// @notice Closes stakes `from` to `to - 1`.
    function closeRange(IHeavyPool pool, uint256 from, uint256 to) external {
        uint256[] memory ids = new uint256[](to - from);
        for (uint256 i; i < ids.length; ++i) ids[i] = from + i;
        pool.unstake(ids);
    }
}
