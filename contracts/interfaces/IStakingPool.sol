// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @notice What the Lens, the harvest contract and the factory need from a pool of either version.
interface IStakingPool {
    /// @dev Two storage slots. Amounts are capped at 2^96-1 base units (79.2 billion tokens at 18 decimals) per
    ///      stake; SafeCast reverts above that instead of truncating.
    struct Stake {
        uint96 stakeAmount;
        uint96 lpAmount;
        uint32 stakeTime;
        uint32 holdTime;
        uint96 closeAmount;
        uint96 closeRate;
        uint32 closeTime;
        bool active;
    }

    /// @notice A harvest term: hold in seconds, bonus 1e18-scaled percent (5e18 = 5%).
    struct HarvestTerm {
        uint256 hold;
        uint256 bonus;
    }

    struct PoolParams {
        uint256 inflationPercent;
        uint256 refererBonusPercent;
        uint256 timeBonusPercent;
        uint256 unHoldFee;
        uint256 holdTimeRefMin;
        uint256 holdTimeMax;
    }

    /// @notice Everything a screen needs about the pool itself, in one call. Figures include inflation that is due
    ///         but not yet written, so they match what the next transaction will see.
    struct PoolState {
        uint256 version;
        address stakeToken;
        address reservoir;
        address harvest;
        uint256 totalStaked;
        uint256 totalShares;
        uint256 rate;
        uint256 inflationPercent;
        uint256 refererBonusPercent;
        uint256 timeBonusPercent;
        uint256 unHoldFee;
        uint256 holdTimeRefMin;
        uint256 holdTimeMax;
        uint256 reservoirAvailable;
        bool stakingPaused;
    }

    /// @notice A stake with what closing it pays: for an active stake, now (amountOut before fee, fee); for a closed
    ///         one, what it paid (amountOut - fee = closeAmount).
    struct StakeInfo {
        uint256 stakeId;
        uint256 amountOut;
        uint256 fee;
        Stake stake;
    }

    function initialize(
        string memory name,
        string memory symbol,
        IERC20 stakeToken,
        address reservoir,
        address harvest,
        address owner,
        PoolParams calldata params,
        HarvestTerm[] calldata terms
    ) external;

    function version() external pure returns (uint256);
    function stakeToken() external view returns (IERC20);
    function stakeFor(address beneficiary, uint256 amount, uint256 hold) external returns (uint256 id);
    function getPoolState() external view returns (PoolState memory);
    function getAllHarvestBonusTimeData() external view returns (HarvestTerm[] memory);
    function getUserStakesCount(address user) external view returns (uint256);
    function getAllUserStakesAmount(address user) external view returns (uint256);
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee);
    function getStakeInfos(address user, uint256 offset, uint256 limit, uint256 closedSince)
        external
        view
        returns (StakeInfo[] memory infos, uint256 next);
}
