// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @notice What the Lens, the harvest contract and the factory need from a pool of either version.
/// @dev Amounts are base units of the stake token; percentages are 1e18-scaled (10e18 = 10%); times are seconds.
interface IStakingPool {
    /// @notice A stake as the app reads it. Its terms (bonus, reward, fee, hold) were fixed when it was made.
    struct Stake {
        bool active;
        /// @notice Principal.
        uint256 stakeAmount;
        /// @notice Pool shares (its principal): its weight in the early-close fees shared among holders (version 1).
        uint256 lpAmount;
        /// @notice Length and referral bonus, funded by the reservoir at stake time, paid only at maturity.
        uint256 bonus;
        /// @notice Inflation over the whole hold, funded by the reservoir at stake time, earned linearly.
        uint256 reward;
        /// @notice Early-withdrawal fee at the start, percent of principal (falls linearly to 0 at maturity).
        uint256 unHoldFee;
        uint256 stakeTime;
        uint256 holdTime;
        /// @notice 0 while active.
        uint256 closeTime;
        /// @notice The fee rate when it was made (version 1; always 1e18 in version 2).
        uint256 entryRate;
        /// @notice Early-close fees earned from other stakers: so far if active, at the close if closed.
        uint256 gains;
    }

    /// @notice What closing a stake pays (now if active, what it paid if closed): amountOut - fee to the owner;
    ///         `forfeited` (bonus and reward not earned) went or goes back to the reservoir.
    struct StakeInfo {
        uint256 stakeId;
        uint256 amountOut;
        uint256 fee;
        uint256 forfeited;
        Stake stake;
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

    /// @notice Everything a screen needs about the pool itself, in one call. The parameters are those new stakes get.
    struct PoolState {
        uint256 version;
        address stakeToken;
        address reservoir;
        address harvest;
        /// @notice Principal of all active stakes.
        uint256 totalStaked;
        uint256 totalShares;
        /// @notice Early-close fees per share, 1e18-scaled; starts at 1e18 and never falls.
        uint256 rate;
        uint256 inflationPercent;
        uint256 refererBonusPercent;
        uint256 timeBonusPercent;
        uint256 unHoldFee;
        uint256 holdTimeRefMin;
        uint256 holdTimeMax;
        /// @notice What the reservoir can still fund for new stakes (bonus and reward).
        uint256 reservoirAvailable;
        bool stakingPaused;
        uint256 stakersCount;
        /// @notice What the pool owes: principal, bonuses and rewards of active stakes, and shared fees not yet paid.
        uint256 obligations;
        /// @notice Least principal of the referer's latest stake for a referral.
        uint256 refererMinStake;
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
    /// @notice stakeFor that lands only with a fee at most `maxFee` and a bonus and reward at least `minBonus`,
    ///         `minReward` (FeeAboveMax, BonusBelowMin, RewardBelowMin).
    function stakeForGuarded(
        address beneficiary,
        uint256 amount,
        uint256 hold,
        uint256 maxFee,
        uint256 minBonus,
        uint256 minReward
    ) external returns (uint256 id);
    function getPoolState() external view returns (PoolState memory);
    function getAllHarvestBonusTimeData() external view returns (HarvestTerm[] memory);
    function getUserStakesCount(address user) external view returns (uint256);
    function getUserActiveStakesCount(address user) external view returns (uint256);
    function getAllUserStakesAmount(address user) external view returns (uint256);
    function balanceOf(address user) external view returns (uint256);
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee);
    function getStakeInfo(address user, uint256 id) external view returns (StakeInfo memory);
    function getStakeInfos(address user, uint256 offset, uint256 limit, uint256 closedSince)
        external
        view
        returns (StakeInfo[] memory infos, uint256 next);
}
