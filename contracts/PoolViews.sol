// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {StakeList} from "./StakeList.sol";
import {StakingPoolStorage} from "./StakingPoolStorage.sol";

/// @title PoolViews
/// @notice The per-stake views of a pool (docs/contracts.md, "Pools"), run by the pool through delegatecall on its own
///         storage: one deployment per pool version, named by the implementation. Every function only reads.
contract PoolViews is StakingPoolStorage {
    using StakeList for mapping(uint256 => uint256);

    bool private immutable SHARES_FEES;

    constructor(bool sharesFees_) {
        SHARES_FEES = sharesFees_;
    }

    function _sharesFees() internal view override returns (bool) {
        return SHARES_FEES;
    }

    /// @notice What `user`'s active stakes would pay if all were closed now (fees deducted).
    function getAllCurrentStakeAmount(address user) external view returns (uint256 total) {
        Account memory acc = _accounts[user];
        Walk memory w = _moment();
        for (uint256 p = acc.closedCount; p < acc.count; ++p) {
            StakeRecord memory s = _stakes[user][_order[user].get(p)];
            Close memory c = _close(s, _rateOf(s, w), w.t);
            total += c.amountOut - c.fee;
        }
    }

    /// @notice Every stake `user` ever made, oldest first. Its cost grows with the count: pages of getUserStakes or
    ///         getStakeInfos serve heavy stakers.
    function getAllUserStakes(address user) external view returns (IStakingPool.Stake[] memory) {
        return getUserStakes(user, 0, _accounts[user].count);
    }

    /// @notice Up to `limit` stakes of `user` from id `offset`.
    function getUserStakes(address user, uint256 offset, uint256 limit) public view returns (IStakingPool.Stake[] memory page) {
        uint256 count = _accounts[user].count;
        uint256 end = offset >= count ? offset : (limit > count - offset ? count : offset + limit);
        page = new IStakingPool.Stake[](end - offset);
        Walk memory w = _moment();
        for (uint256 i = offset; i < end; ++i) page[i - offset] = _view(_stakes[user][i], w);
    }

    function getStake(address user, uint256 id) public view returns (IStakingPool.Stake memory) {
        if (id >= _accounts[user].count) revert StakeNotFound(id);
        return _view(_stakes[user][id], _moment());
    }

    /// @notice (amountOut before fee, fee) for closing stake `id` now, or what it paid if already closed.
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee) {
        IStakingPool.StakeInfo memory info = getStakeInfo(user, id);
        return (info.amountOut, info.fee);
    }

    /// @notice Stake `id` of `user` with what closing it pays now (or what it paid).
    function getStakeInfo(address user, uint256 id) public view returns (IStakingPool.StakeInfo memory) {
        if (id >= _accounts[user].count) revert StakeNotFound(id);
        return _info(user, id, _moment());
    }

    /// @notice A page of `user`'s stakes: the active ones first, then those closed at or after `closedSince`, newest
    ///         close first. `offset` indexes that sequence; `next` continues it, or is type(uint256).max at its end.
    ///         Stakes closed before `closedSince` are never read, so a page costs the same at any number of stakes.
    function getStakeInfos(address user, uint256 offset, uint256 limit, uint256 closedSince)
        external
        view
        returns (IStakingPool.StakeInfo[] memory infos, uint256 next)
    {
        Account memory acc = _accounts[user];
        uint256 end;
        (end, next) = _pageBounds(user, acc, offset, limit, closedSince);
        infos = new IStakingPool.StakeInfo[](end - offset);
        Walk memory w = _moment();
        for (uint256 k = offset; k < end; ++k) infos[k - offset] = _info(user, _order[user].get(acc.count - 1 - k), w);
    }

    function _info(address user, uint256 id, Walk memory w) private view returns (IStakingPool.StakeInfo memory) {
        StakeRecord memory s = _stakes[user][id];
        Close memory c = s.closeTime == 0 ? _close(s, _rateOf(s, w), w.t) : _closed(s);
        return IStakingPool.StakeInfo(id, c.amountOut, c.fee, c.forfeited, _view(s, w));
    }

    /// @dev Where a page from `offset` of at most `limit` rows ends, and where the next one starts (type(uint256).max
    ///      when no visible row follows).
    function _pageBounds(address user, Account memory acc, uint256 offset, uint256 limit, uint256 closedSince)
        private
        view
        returns (uint256 stop, uint256 next)
    {
        uint256 total = acc.count;
        uint256 end = offset >= total ? offset : (limit > total - offset ? total : offset + limit);
        stop = _visibleEnd(user, acc, offset, end, closedSince);
        bool more = stop == end && end < total && _visibleEnd(user, acc, end, end + 1, closedSince) > end;
        next = more ? end : type(uint256).max;
    }

    /// @dev Where a page from `offset` to `end` stops: at `end`, or at the first stake closed before `closedSince`.
    ///      Closes are in closing order, so no later row can be visible; sizing first keeps memory to the rows returned.
    function _visibleEnd(address user, Account memory acc, uint256 offset, uint256 end, uint256 closedSince)
        private
        view
        returns (uint256)
    {
        uint256 active = acc.count - acc.closedCount;
        for (uint256 k = offset > active ? offset : active; k < end; ++k) {
            if (uint256(_epoch) + _stakes[user][_order[user].get(acc.count - 1 - k)].closeTime < closedSince) return k;
        }
        return end;
    }

    /// @notice What stake `id` of `referer` owes for the referred stakes it backs that are still open (base units;
    ///         0 once it is closed); once it closed early, what it owed then and what its fee paid back.
    function getReferralBacking(address referer, uint256 id)
        external
        view
        returns (uint256 owed, uint256 owedAtClose, uint256 paidBack)
    {
        Liens memory l = _liens[referer][id];
        if (_stakes[referer][id].closeTime == 0) owed = uint256(l.live) * BACKING_UNIT;
        owedAtClose = uint256(l.liveAtClose) * BACKING_UNIT;
        paidBack = l.paid;
    }

    /// @notice The referral stake `id` of `user` is booked with while it is open (see StakingPoolBase.getReferral).
    function getReferral(address user, uint256 id) external view returns (address referer, uint256 backerId, uint256 owed) {
        Referral memory r = _referrals[user][id];
        return (r.referer, r.backerId, uint256(r.units) * BACKING_UNIT);
    }
}
