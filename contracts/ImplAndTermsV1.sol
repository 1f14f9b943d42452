// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {StakingPoolBase} from "./StakingPoolBase.sol";

/// @title ImplAndTermsV1
/// @notice Pool version 1: stakes earn inflation (simple interest on the principal over the hold, funded up front by
///         the reservoir) and share the early-close fees of others by their pool shares: a fee raises the rate (fees
///         per share), and each stake's shares = (amount + bonus) / rate at the time it was made.
contract ImplAndTermsV1 is StakingPoolBase {
    constructor(address views_, address settings_) StakingPoolBase(views_, settings_) {}

    function version() public pure override returns (uint256) {
        return 1;
    }

    function _sharesFees() internal pure override returns (bool) {
        return true;
    }
}
