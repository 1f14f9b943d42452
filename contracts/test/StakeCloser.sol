// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IStakeAndClose {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
}

/// @notice Test helper: stakes and closes in one transaction (same block, same timestamp), as an attacker farming a
///         bonus or a fee would, and reports what came back.
contract StakeCloser {
    event Cycle(uint256 put, uint256 back);

    function stakeAndClose(IStakeAndClose pool, IERC20 token, uint256 amount, uint256 hold) external returns (uint256 back) {
        token.approve(address(pool), amount);
        uint256 before = token.balanceOf(address(this));
        uint256 id = pool.stake(amount, hold);
        uint256[] memory ids = new uint256[](1);
        ids[0] = id;
        pool.unstake(ids);
        back = token.balanceOf(address(this)) + amount - before;
        emit Cycle(amount, back);
    }
}
