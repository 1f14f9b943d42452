// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IStakingPool} from "../../interfaces/IStakingPool.sol";

interface IViewPool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
    function getStakeInfo(address user, uint256 id) external view returns (IStakingPool.StakeInfo memory);
    function getAllCurrentStakeAmount(address user) external view returns (uint256);
    function getPoolState() external view returns (IStakingPool.PoolState memory);
    function getFeeStream() external view returns (uint256 pending, uint256 streamEnd);
    function getRate() external view returns (uint256);
}

/// @notice A staker that reads what the pool says closing its stakes pays and closes them in the same transaction
///         (same block, same timestamp, same rate), so the figures can be compared with the payment to the wei.
contract AdvViewVsClose {
    event Compared(uint256 shownSum, uint256 shownAll, uint256 paid);

    /// @notice Every figure the views give around one unstake(ids), all read at the close's own timestamp.
    struct Books {
        uint256 shownSum;
        uint256 shownAll;
        uint256 feesShown;
        uint256 paid;
        uint256 obligationsBefore;
        uint256 obligationsAfter;
        uint256 pendingBefore;
        uint256 streamEndBefore;
        uint256 pendingAfter;
        uint256 streamEndAfter;
        uint256 poolBefore;
        uint256 poolAfter;
        uint256 rateBefore;
        uint256 rateAfter;
        // Principal at risk (the shares fees go to) and all active principal, after the close.
        uint256 sharesAfter;
        uint256 stakedAfter;
    }

    event Accounted(Books books);

    function setup(IViewPool pool, IERC20 token) external {
        token.approve(address(pool), type(uint256).max);
    }

    function doStake(IViewPool pool, uint256 amount, uint256 hold) external returns (uint256) {
        return pool.stake(amount, hold);
    }

    function closeAndCompare(IViewPool pool, IERC20 token, uint256[] calldata ids)
        external
        returns (uint256 shownSum, uint256 shownAll, uint256 paid)
    {
        for (uint256 i; i < ids.length; ++i) {
            IStakingPool.StakeInfo memory info = pool.getStakeInfo(address(this), ids[i]);
            shownSum += info.amountOut - info.fee;
        }
        shownAll = pool.getAllCurrentStakeAmount(address(this));
        uint256 before = token.balanceOf(address(this));
        pool.unstake(ids);
        paid = token.balanceOf(address(this)) - before;
        emit Compared(shownSum, shownAll, paid);
    }

    /// @notice closeAndCompare with the pool-level views (obligations, fee stream, rate, balance) before and after.
    function closeAndAccount(IViewPool pool, IERC20 token, uint256[] calldata ids) external returns (Books memory b) {
        for (uint256 i; i < ids.length; ++i) {
            IStakingPool.StakeInfo memory info = pool.getStakeInfo(address(this), ids[i]);
            b.shownSum += info.amountOut - info.fee;
            b.feesShown += info.fee;
        }
        b.shownAll = pool.getAllCurrentStakeAmount(address(this));
        b.obligationsBefore = pool.getPoolState().obligations;
        (b.pendingBefore, b.streamEndBefore) = pool.getFeeStream();
        b.rateBefore = pool.getRate();
        b.poolBefore = token.balanceOf(address(pool));
        uint256 before = token.balanceOf(address(this));
        pool.unstake(ids);
        b.paid = token.balanceOf(address(this)) - before;
        IStakingPool.PoolState memory st = pool.getPoolState();
        b.obligationsAfter = st.obligations;
        b.sharesAfter = st.totalShares;
        b.stakedAfter = st.totalStaked;
        (b.pendingAfter, b.streamEndAfter) = pool.getFeeStream();
        b.rateAfter = pool.getRate();
        b.poolAfter = token.balanceOf(address(pool));
        emit Accounted(b);
    }
}
