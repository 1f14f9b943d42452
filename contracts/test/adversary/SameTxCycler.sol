// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface ICyclePool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function stake(uint256 amount, uint256 holdTime, address referer) external returns (uint256);
    function stake(uint256 amount, uint256 holdTime, address referer, uint256 minBonus, uint256 minReward)
        external
        returns (uint256);
    function unstake(uint256[] calldata ids) external;
}

/// @notice Stake-then-close in one transaction, many times and in many shapes (dust, whales, referrals, batches),
///         reporting the net result. `gained` > 0 would be value created from nothing. `capped` stakes through the
///         minimum-terms overload with minimums 0 (accepting whatever the reservoir can fund); otherwise through the
///         strict stake(amount, hold[, referer]) forms.
contract AdvSameTxCycler {
    function _stake(ICyclePool pool, uint256 amount, uint256 hold, address referer, bool capped) private returns (uint256) {
        if (capped) return pool.stake(amount, hold, referer, 0, 0);
        return referer == address(0) ? pool.stake(amount, hold) : pool.stake(amount, hold, referer);
    }

    function run(
        ICyclePool pool,
        IERC20 token,
        uint256[] calldata amounts,
        uint256[] calldata holds,
        address referer,
        bool capped
    ) external returns (int256 gained) {
        token.approve(address(pool), type(uint256).max);
        uint256 before = token.balanceOf(address(this));
        uint256[] memory ids = new uint256[](amounts.length);
        for (uint256 i; i < amounts.length; ++i) ids[i] = _stake(pool, amounts[i], holds[i], referer, capped);
        pool.unstake(ids);
        gained = int256(token.balanceOf(address(this))) - int256(before);
    }

    /// @notice The same, but each stake closed on its own right after it is made.
    function runEach(ICyclePool pool, IERC20 token, uint256[] calldata amounts, uint256[] calldata holds, bool capped)
        external
        returns (int256 gained)
    {
        token.approve(address(pool), type(uint256).max);
        uint256 before = token.balanceOf(address(this));
        uint256[] memory one = new uint256[](1);
        for (uint256 i; i < amounts.length; ++i) {
            one[0] = _stake(pool, amounts[i], holds[i], address(0), capped);
            pool.unstake(one);
        }
        gained = int256(token.balanceOf(address(this))) - int256(before);
    }
}
