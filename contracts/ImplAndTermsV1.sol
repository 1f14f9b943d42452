// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {StakingPoolBase} from "./StakingPoolBase.sol";

/// @title ImplAndTermsV1
/// @notice Pool version 1: rate-based shares. rate = totalStaked * 1e18 / totalSupply (1e18 while empty); inflation
///         and funded bonuses raise totalStaked, so the rate never falls. Early-withdrawal fees stay in the pool and
///         raise the rate for everyone who holds on ("earned from strong hands").
contract ImplAndTermsV1 is StakingPoolBase {
    function version() public pure override returns (uint256) {
        return 1;
    }

    function _rateOf(uint256 staked, uint256 shares) internal pure override returns (uint256) {
        return shares == 0 ? ONE : (staked * ONE) / shares;
    }

    function _sharesFor(uint256 value, uint256 rate) internal pure override returns (uint256) {
        return (value * ONE) / rate;
    }

    function _grossAndFee(Stake memory s, uint256 rate, uint256 time) internal view override returns (uint256 gross, uint256 fee) {
        gross = (uint256(s.lpAmount) * rate) / ONE;
        fee = _earlyFee(gross, s.holdTime, time - s.stakeTime);
    }

    function _settle(uint256 paid, uint256) internal override {
        totalStaked -= paid;
    }
}
