// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {PoolsInfo} from "./PoolsInfo.sol";

/// @title Lens
/// @notice Read-only aggregator: one call per screen. Holds no state.
contract Lens {
    uint256 public constant CLOSED_VISIBLE_FOR = 180 days;
    /// @notice Gas one pool's read may use in a page of pools (a real pool's takes about 80k, 110k with 10 harvest
    ///         terms). A pool whose read needs more is left out; a listed contract that burns all the gas it is given
    ///         takes only this much.
    uint256 public constant POOL_READ_GAS = 200_000;
    /// @notice Pools in one page of getPoolsPage: with POOL_READ_GAS each, no set of listed pools can take a page past
    ///         2,000,000 gas.
    uint256 public constant MAX_POOLS_PAGE = 8;
    /// @notice Token names and symbols are cut to this many bytes (read without copying more), and each read gets at
    ///         most NAME_READ_GAS (a token whose name costs more shows an empty one).
    uint256 public constant MAX_NAME_BYTES = 64;
    uint256 public constant NAME_READ_GAS = 50_000;
    /// @notice Harvest terms shown per pool (a pool keeps at most 10).
    uint256 public constant MAX_TERMS = 10;
    /// @dev The most a pool's read (ours, bounded as above) returns; anything longer is not copied.
    uint256 private constant MAX_POOL_DATA_BYTES = 4096;

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

    /// @notice Everything the staking page shows about `pool` and `user` (user may be the zero address). The token's
    ///         name and symbol are cut to MAX_NAME_BYTES, the harvest terms to MAX_TERMS.
    function getPoolData(address pool, address user) public view returns (PoolData memory d) {
        IStakingPool p = IStakingPool(pool);
        IERC20Metadata token = IERC20Metadata(address(p.stakeToken()));
        d.poolId = type(uint256).max;
        d.pool = pool;
        d.stakeToken = address(token);
        d.tokenName = _shortString(address(token), IERC20Metadata.name.selector);
        d.tokenSymbol = _shortString(address(token), IERC20Metadata.symbol.selector);
        d.tokenDecimals = token.decimals();
        d.state = p.getPoolState();
        d.harvestTerms = p.getAllHarvestBonusTimeData();
        if (d.harvestTerms.length > MAX_TERMS) {
            IStakingPool.HarvestTerm[] memory terms = d.harvestTerms;
            assembly {
                mstore(terms, 10)
            }
        }
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

    /// @notice A page of the listed pools of `poolsInfo`: getPoolData of up to `limit` (at most MAX_POOLS_PAGE) listed
    ///         pools from position `offset` of its listed list, each with its pool id, and where the next page starts
    ///         (type(uint256).max at the end). Delisted pools are never read. A pool whose read fails, uses more than
    ///         POOL_READ_GAS or returns more than a pool's data can hold is left out; so no set of listed pools can
    ///         take a page past 2,000,000 gas.
    function getPoolsPage(PoolsInfo poolsInfo, address user, uint256 offset, uint256 limit)
        public
        view
        returns (PoolData[] memory data, uint256 next)
    {
        (uint256[] memory ids, address[] memory pools, uint256 after_) =
            poolsInfo.getListedPage(offset, limit > MAX_POOLS_PAGE ? MAX_POOLS_PAGE : limit);
        next = after_;
        data = new PoolData[](pools.length);
        uint256 n;
        for (uint256 i; i < pools.length; ++i) {
            (bool ok, PoolData memory d) = _boundedRead(pools[i], user);
            if (!ok) continue;
            d.poolId = ids[i];
            data[n++] = d;
        }
        assembly {
            mstore(data, n)
        }
    }

    /// @notice The first page of getPoolsPage (the listed pools from the first, at most MAX_POOLS_PAGE of them).
    function getPoolsDataFromPoolInfo(PoolsInfo poolsInfo, address user) external view returns (PoolData[] memory data) {
        (data, ) = getPoolsPage(poolsInfo, user, 0, MAX_POOLS_PAGE);
    }

    /// @dev getPoolData(pool, user) with at most POOL_READ_GAS and without copying more than MAX_POOL_DATA_BYTES of
    ///      what it returns.
    function _boundedRead(address pool, address user) private view returns (bool ok, PoolData memory d) {
        bytes memory call_ = abi.encodeCall(this.getPoolData, (pool, user));
        bytes memory ret;
        uint256 gasCap = POOL_READ_GAS;
        uint256 maxBytes = MAX_POOL_DATA_BYTES;
        assembly {
            ok := staticcall(gasCap, address(), add(call_, 0x20), mload(call_), 0, 0)
            let size := returndatasize()
            if gt(size, maxBytes) {
                ok := 0
            }
            if ok {
                ret := mload(0x40)
                mstore(ret, size)
                returndatacopy(add(ret, 0x20), 0, size)
                mstore(0x40, add(add(ret, 0x20), and(add(size, 31), not(31))))
            }
        }
        if (ok) d = abi.decode(ret, (PoolData));
    }

    /// @dev `token`'s name() or symbol() (by `selector`), cut to MAX_NAME_BYTES without copying the rest of what it
    ///      returns; empty when the call fails or returns no string.
    function _shortString(address token, bytes4 selector) private view returns (string memory out) {
        uint256 maxLen = MAX_NAME_BYTES;
        uint256 gasCap = NAME_READ_GAS;
        assembly {
            let ptr := mload(0x40)
            mstore(ptr, selector)
            let ok := staticcall(gasCap, token, ptr, 4, 0, 0)
            let size := returndatasize()
            out := ptr
            mstore(out, 0)
            // An ABI string: an offset, then at that offset its length and bytes.
            if and(ok, gt(size, 63)) {
                returndatacopy(ptr, 0, 32)
                let offset := mload(ptr)
                if lt(offset, sub(size, 31)) {
                    returndatacopy(ptr, offset, 32)
                    let len := mload(ptr)
                    let room := sub(sub(size, offset), 32)
                    if gt(len, room) {
                        len := room
                    }
                    if gt(len, maxLen) {
                        len := maxLen
                    }
                    mstore(add(out, 0x20), 0)
                    mstore(add(out, 0x40), 0)
                    returndatacopy(add(out, 0x20), add(offset, 32), len)
                    mstore(out, len)
                }
            }
            mstore(0x40, add(out, 0x60))
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
