// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {StakingPoolBase} from "./StakingPoolBase.sol";

/// @title ImplAndTermsV2
/// @notice Pool version 2: the rate stays at 1e18, shares = amount + length bonus. A matured stake pays amount + bonus;
///         an early close pays the amount less the fee, and the bonus and the fee go back to the reservoir.
///         No inflation, no referral bonus.
contract ImplAndTermsV2 is StakingPoolBase {
    constructor(address views_, address settings_) StakingPoolBase(views_, settings_) {}

    function version() public pure override returns (uint256) {
        return 2;
    }

    function _sharesFees() internal pure override returns (bool) {
        return false;
    }
}
