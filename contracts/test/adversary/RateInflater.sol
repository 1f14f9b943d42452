// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IInflatedPool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
}

/// @notice Pushes a version-1 pool's rate towards MAX_RATE: stakes the largest amount and closes it at once, so the
///         whole principal is an early-close fee shared with whatever few shares remain.
contract AdvRateInflater {
    function pump(IInflatedPool pool, IERC20 token, uint256 amount, uint256 hold, uint256 cycles) external {
        token.approve(address(pool), type(uint256).max);
        uint256[] memory ids = new uint256[](1);
        for (uint256 i; i < cycles; ++i) {
            ids[0] = pool.stake(amount, hold);
            pool.unstake(ids);
        }
    }
}
