// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {PoolsInfo} from "./PoolsInfo.sol";

/// @title Lens
/// @notice Read-only aggregator: one call per screen. Holds no state.
contract Lens {
    uint256 public constant CLOSED_VISIBLE_FOR = 180 days;
    /// @notice Gas one pool's read may use in getPoolsDataFromPoolInfo (a real pool's takes about 100k). Without a
    ///         bound, a listed contract that burns all the gas it is given would take 63/64 of the call's gas and leave
    ///         too little for the pools after it.
    uint256 public constant POOL_READ_GAS = 1_000_000;

    struct PoolData {
        uint256 poolId;
        address pool;
        address stakeToken;
        string tokenName;
        string tokenSymbol;
        uint8 tokenDecimals;
        IStakingPool.PoolState state;
        IStakingPool.HarvestTerm[] harvestTerms;
        uint256 userStakesCount;
        uint256 userShares;
        uint256 allUserStakesAmount;
        uint256 walletStakeTokenBalance;
        uint256 allowance;
    }

    struct UnstakeData {
        uint256 stakeId;
        uint256 amountOut;
        uint256 fee;
        uint256 forfeited;
    }

    /// @notice Everything the staking page shows about `pool` and `user` (user may be the zero address).
    function getPoolData(address pool, address user) public view returns (PoolData memory d) {
        IStakingPool p = IStakingPool(pool);
        IERC20Metadata token = IERC20Metadata(address(p.stakeToken()));
        d.poolId = type(uint256).max;
        d.pool = pool;
        d.stakeToken = address(token);
        d.tokenName = token.name();
        d.tokenSymbol = token.symbol();
        d.tokenDecimals = token.decimals();
        d.state = p.getPoolState();
        d.harvestTerms = p.getAllHarvestBonusTimeData();
        if (user != address(0)) {
            d.userStakesCount = p.getUserStakesCount(user);
            d.userShares = IERC20Metadata(pool).balanceOf(user);
            d.allUserStakesAmount = p.getAllUserStakesAmount(user);
            d.walletStakeTokenBalance = token.balanceOf(user);
            d.allowance = token.allowance(user, pool);
        }
    }

    function getPoolsData(address[] calldata pools, address user) external view returns (PoolData[] memory data) {
        data = new PoolData[](pools.length);
        for (uint256 i; i < pools.length; ++i) data[i] = getPoolData(pools[i], user);
    }

    /// @notice getPoolData for every listed pool of `poolsInfo`, with its pool id. A pool whose reads fail (or use more
    ///         than POOL_READ_GAS) is left out instead of failing the whole list.
    function getPoolsDataFromPoolInfo(PoolsInfo poolsInfo, address user) external view returns (PoolData[] memory data) {
        PoolsInfo.Pool[] memory pools = poolsInfo.getAllPools();
        data = new PoolData[](pools.length);
        uint256 n;
        for (uint256 i; i < pools.length; ++i) {
            if (!pools[i].listed) continue;
            try this.getPoolData{gas: POOL_READ_GAS}(pools[i].pool, user) returns (PoolData memory d) {
                d.poolId = i;
                data[n++] = d;
            } catch {}
        }
        assembly {
            mstore(data, n)
        }
    }

    /// @notice getPoolData for pool `id` of `poolsInfo`.
    function getPoolDataById(PoolsInfo poolsInfo, uint256 id, address user) external view returns (PoolData memory d) {
        d = getPoolData(poolsInfo.getPools(id).pool, user);
        d.poolId = id;
    }

    function getUnstakeData(address pool, address user, uint256 id) external view returns (UnstakeData memory) {
        IStakingPool.StakeInfo memory i = IStakingPool(pool).getStakeInfo(user, id);
        return UnstakeData(id, i.amountOut, i.fee, i.forfeited);
    }

    /// @notice Every active stake of `user` with its figures (the active ones only: closed stakes are not read).
    function getAllUnstakeDataForActiveStakes(address pool, address user)
        external
        view
        returns (IStakingPool.StakeInfo[] memory infos)
    {
        (infos, ) = IStakingPool(pool).getStakeInfos(user, 0, type(uint256).max, type(uint256).max);
    }

    /// @notice Active stakes of `user` plus those closed in the last 180 days, each with the stake and its figures.
    ///         Older closes are never read; for thousands of stakes use getUnstakeDataPage.
    function getAllUnstakeDataForActiveStakesAndClosesLessThanSixMonth(address pool, address user)
        external
        view
        returns (IStakingPool.StakeInfo[] memory infos)
    {
        (infos, ) = IStakingPool(pool).getStakeInfos(user, 0, type(uint256).max, _closedSince());
    }

    /// @notice The same, `limit` rows at a time from `offset`: active stakes first, then recent closes, newest first.
    ///         `next` continues the list, type(uint256).max at its end. A page costs the same at any number of stakes.
    function getUnstakeDataPage(address pool, address user, uint256 offset, uint256 limit)
        external
        view
        returns (IStakingPool.StakeInfo[] memory infos, uint256 next)
    {
        return IStakingPool(pool).getStakeInfos(user, offset, limit, _closedSince());
    }

    function _closedSince() private view returns (uint256) {
        return block.timestamp > CLOSED_VISIBLE_FOR ? block.timestamp - CLOSED_VISIBLE_FOR : 0;
    }
}
