// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StakingPoolBase} from "./StakingPoolBase.sol";

/// @title ImplAndTermsV2
/// @notice Pool version 2: fixed rate 1e18, shares = amount + length bonus. The bonus is drawn from the reservoir when
///         the stake is made, so a matured stake can always be paid (amount + bonus). Closing early pays the amount
///         less the linear fee; the bonus and the fee go back to the reservoir. No inflation, no referral bonus.
contract ImplAndTermsV2 is StakingPoolBase {
    using SafeERC20 for IERC20;

    function version() public pure override returns (uint256) {
        return 2;
    }

    function _rateOf(uint256, uint256) internal pure override returns (uint256) {
        return ONE;
    }

    function _sharesFor(uint256 value, uint256) internal pure override returns (uint256) {
        return value;
    }

    function _grossAndFee(Stake memory s, uint256, uint256 time) internal view override returns (uint256 gross, uint256 fee) {
        uint256 elapsed = time - s.stakeTime;
        if (elapsed >= s.holdTime) return (s.lpAmount, 0);
        gross = s.stakeAmount;
        fee = _earlyFee(gross, s.holdTime, elapsed);
    }

    /// @dev totalStaked mirrors the shares 1:1; what a close does not pay out returns to the reservoir.
    function _settle(uint256 paid, uint256 shares) internal override {
        totalStaked -= shares;
        if (shares > paid) stakeToken.safeTransfer(reservoir, shares - paid);
    }

    function _setParameters(PoolParams calldata p) internal override {
        if (p.inflationPercent != 0 || p.refererBonusPercent != 0) revert NotSupportedInThisVersion();
        super._setParameters(p);
    }
}
