// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {StakingPoolStorage} from "./StakingPoolStorage.sol";

/// @title PoolSettings
/// @notice The owner's settings of a pool (docs/contracts.md, "Pools"): the parameters and harvest terms new stakes get
///         and the referer minimum, each bounded. The pool runs them through delegatecall on its own storage, after its
///         own onlyOwner check (and once, from initialize): one deployment per pool version, named by the
///         implementation. Called directly, they only touch this contract's own, unused, storage.
contract PoolSettings is StakingPoolStorage {
    bool private immutable SHARES_FEES;

    constructor(bool sharesFees_) {
        SHARES_FEES = sharesFees_;
    }

    function _sharesFees() internal view override returns (bool) {
        return SHARES_FEES;
    }

    /// @notice A new pool's parameters and harvest terms, and the default referer minimum.
    function configure(IStakingPool.PoolParams calldata params, IStakingPool.HarvestTerm[] calldata terms) external {
        _setParameters(params);
        _setTerms(terms);
        _setRefererMinStake(DEFAULT_REFERER_MIN_STAKE);
    }

    function setParameters(IStakingPool.PoolParams calldata params) external {
        _setParameters(params);
    }

    function setHarvestTerms(IStakingPool.HarvestTerm[] calldata terms) external {
        _setTerms(terms);
    }

    function setRefererMinStake(uint256 minStake) external {
        _setRefererMinStake(minStake);
    }

    /// @dev Kept in whole tokens: `minStake` must be a multiple of 1e18, from MIN_REFERER_STAKE_FLOOR to
    ///      MAX_REFERER_MIN_STAKE.
    function _setRefererMinStake(uint256 minStake) private {
        if (minStake < MIN_REFERER_STAKE_FLOOR || minStake % ONE != 0) {
            revert ParameterOutOfBounds("refererMinStake", minStake, MAX_REFERER_MIN_STAKE);
        }
        _bounded("refererMinStake", minStake, MAX_REFERER_MIN_STAKE);
        _refererMinTokens = uint24(minStake / ONE);
        emit RefererMinStakeChanged(minStake);
    }

    function _setParameters(IStakingPool.PoolParams calldata p) private {
        // Version 2 takes no inflation and pays no referral bonus.
        if (!SHARES_FEES && (p.inflationPercent != 0 || p.refererBonusPercent != 0)) revert NotSupportedInThisVersion();
        _bounded("inflationPercent", p.inflationPercent, MAX_INFLATION_PERCENT);
        _bounded("refererBonusPercent", p.refererBonusPercent, MAX_BONUS_PERCENT);
        _bounded("timeBonusPercent", p.timeBonusPercent, MAX_BONUS_PERCENT);
        _bounded("unHoldFee", p.unHoldFee, MAX_FEE_PERCENT);
        _bounded("holdTimeMax", p.holdTimeMax, MAX_HOLD_TIME);
        if (p.holdTimeMax < 1 days) revert ParameterOutOfBounds("holdTimeMax", p.holdTimeMax, MAX_HOLD_TIME);
        _bounded("holdTimeRefMin", p.holdTimeRefMin, p.holdTimeMax);
        inflationPercent = uint80(p.inflationPercent);
        refererBonusPercent = uint80(p.refererBonusPercent);
        timeBonusPercent = uint80(p.timeBonusPercent);
        unHoldFee = uint80(p.unHoldFee);
        holdTimeRefMin = uint32(p.holdTimeRefMin);
        holdTimeMax = uint32(p.holdTimeMax);
        emit ParametersChanged(p);
    }

    function _setTerms(IStakingPool.HarvestTerm[] calldata terms) private {
        if (terms.length > MAX_TERMS) revert TooManyTerms(terms.length);
        delete _terms;
        for (uint256 i; i < terms.length; ++i) {
            uint256 hold = terms[i].hold;
            if (hold < 1 days || hold > MAX_HOLD_TIME || hold % 1 days != 0) {
                revert ParameterOutOfBounds("hold", hold, MAX_HOLD_TIME);
            }
            // One term per hold: stakeFor takes the term of the hold asked for, so a second would be shown and never given.
            for (uint256 j; j < i; ++j) if (terms[j].hold == hold) revert DuplicateTerm(hold);
            _bounded("bonus", terms[i].bonus, MAX_BONUS_PERCENT);
            _terms.push(terms[i]);
        }
        emit HarvestTermsChanged(terms);
    }

    function _bounded(string memory name_, uint256 value, uint256 max) private pure {
        if (value > max) revert ParameterOutOfBounds(name_, value, max);
    }
}
