// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {StakeList} from "./StakeList.sol";

/// @title StakingPoolBase
/// @notice What both pool versions share. Each stake is a term deposit whose terms are fixed when it is made
///         (docs/contracts.md, "Pools"):
///         - the reservoir funds its length/referral bonus and its inflation reward for the whole hold up front, so
///           the pool always holds everything it may owe and no close ever depends on the reservoir; a stake whose
///           terms the reservoir cannot fund in full is refused, unless the staker accepts lower terms explicitly;
///         - the reward is simple interest on the principal (inflationPercent a year over the hold), earned linearly;
///           the bonus is earned only at maturity;
///         - an early close pays the principal less a fee that falls linearly to 0 at maturity, plus the reward
///           earned so far; the bonus and the unearned reward go back to the reservoir. Version 1 streams the fee
///           over FEE_STREAM to the stakes that stay, by their pool shares ("earned from strong hands"), so a stake
///           made just before someone's close earns only its time-weighted part; version 2 returns it to the
///           reservoir.
///         The owner's parameters apply to new stakes only; nothing the owner does can block or cut a close.
/// @dev Deployed as minimal-proxy clones, hence an initializer. Pool shares are a read-only ERC20: they belong to the
///      stakes that minted them and cannot be transferred.
abstract contract StakingPoolBase is IStakingPool, OwnableUpgradeable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using StakeList for mapping(uint256 => uint256);

    uint256 internal constant ONE = 1e18;
    uint256 internal constant PERCENT = 100e18;
    uint256 internal constant YEAR = 365 days;
    uint256 public constant MAX_INFLATION_PERCENT = 1000e18;
    uint256 public constant MAX_FEE_PERCENT = 100e18;
    /// @notice Bound of each bonus parameter (length, referral, harvest term): a stake's bonus is at most 10x its amount.
    uint256 public constant MAX_BONUS_PERCENT = 500e18;
    uint256 public constant MAX_HOLD_TIME = 1095 days;
    uint256 public constant MAX_TERMS = 10;
    /// @notice Largest principal of one stake: 2^96-1 base units (79.2 billion tokens at 18 decimals).
    uint256 public constant MAX_STAKE_AMOUNT = type(uint96).max;
    /// @notice Shares that belong to nobody. A fee shared while few real shares exist goes mostly to them (and so back
    ///         to the reservoir): a dust stake cannot catch a large fee, and the rate grows by at most the fee.
    uint256 public constant VIRTUAL_SHARES = 1e18;
    /// @notice The rate never passes this; a fee that would push it higher goes back to the reservoir instead.
    uint256 public constant MAX_RATE = type(uint104).max;
    /// @notice An early-close fee (version 1) reaches the remaining stakes evenly over this time, not at once.
    uint256 public constant FEE_STREAM = 30 days;
    /// @notice A user may make this many stakes in one pool.
    uint256 public constant MAX_STAKES_PER_USER = type(uint24).max;
    /// @notice Bound of a user's total principal (= its shares) in one pool (2^104 - 1).
    uint256 public constant MAX_ACCOUNT_TOTAL = type(uint104).max;
    /// @notice Bounds of refererMinStake, the least principal of a stake that backs referrals (whole tokens).
    uint256 public constant MIN_REFERER_STAKE_FLOOR = 1e18;
    uint256 public constant MAX_REFERER_MIN_STAKE = uint256(type(uint24).max) * 1e18;
    uint256 public constant DEFAULT_REFERER_MIN_STAKE = 100e18;
    /// @notice The referral bonus a referer's stake backs is counted in these base units (rounded up).
    uint256 public constant BACKING_UNIT = 2 ** 24;

    /// @dev Two slots. Bonus, reward and fee are kept as fractions of the principal (1e18 = 100%), so the amounts are
    ///      derived exactly the same way whenever they are read.
    struct StakeRecord {
        uint96 amount;
        uint64 bonusFraction;
        uint72 rewardFraction;
        uint16 holdDays;
        // While active, the rate at stake time; once closed, the fee gains the close paid (for the closed list).
        uint104 rateOrGains;
        uint64 feeFraction;
        // Seconds since the pool's epoch (so they last 136 years from its creation); closeTime 0 while active.
        uint32 stakeTime;
        uint32 closeTime;
        // Where the stake sits in its owner's order (see _order).
        uint24 position;
    }

    /// @dev One slot per user. Stakes made = count; active = count - closedCount. Shares equal the principal, so
    ///      `staked` is both. As a referer: the latest release of a stake it referred (pool time) and `backed`, the
    ///      referral bonuses it backs and has not paid back yet (in BACKING_UNITs, rounded up; across its stakes, and
    ///      nothing once `backedUntil` has passed). Until then its early-close fees pay that back to the reservoir that
    ///      funded those bonuses, and no more.
    struct Account {
        uint104 staked;
        uint24 count;
        uint24 closedCount;
        uint32 backedUntil;
        uint72 backed;
    }

    /// @dev The most a stake form can ask: the early-close fee at most `maxFee` (1e18-scaled percent), bonus and
    ///      reward at least `minBonus` and `minReward` (base units; type(uint256).max asks for the full figure).
    ///      `named`: refusals name the term (FeeAboveMax, BonusBelowMin, RewardBelowMin); the older forms keep
    ///      RewardsUnavailable.
    struct Bounds {
        uint256 maxFee;
        uint256 minBonus;
        uint256 minReward;
        bool named;
    }

    // Packed so that stake() reads the parameters it needs in few slots.
    IERC20 public stakeToken;
    uint32 public holdTimeRefMin;
    uint32 public holdTimeMax;
    bool public stakingPaused;
    /// @dev refererMinStake in whole tokens (1e18 base units), in the slot every stake reads first.
    uint24 private _refererMinTokens;

    address public reservoir;
    /// @notice Addresses with at least one active stake (what the app shows as total stakers).
    uint56 public stakersCount;
    /// @dev One second before the pool was created: stake times are kept relative to it, and are never 0.
    uint40 private _epoch;

    address public harvest;

    uint80 public inflationPercent;
    uint80 public refererBonusPercent;
    uint80 public timeBonusPercent;

    uint80 public unHoldFee;

    // The rate and the shared fees change together, and the rate is never 0, so this slot is never written fresh.
    uint104 private _rate;
    /// @dev Fees shared with holders and not yet paid out (rounded up, so never short).
    uint128 private _sharedFees;

    /// @dev Early-close fees (version 1) not yet released to holders; released linearly until _streamEnd.
    uint128 private _pendingFees;
    uint40 private _streamEnd;
    uint40 private _lastRelease;

    /// @dev Principal of every active stake, which is also their shares; and principal + bonus + reward of every
    ///      active stake (one slot: a stake and a close write both).
    uint128 private _totalStaked;
    uint128 private _committed;

    string private _name;
    string private _symbol;

    HarvestTerm[] private _terms;
    mapping(address => Account) private _accounts;
    mapping(address => mapping(uint256 => StakeRecord)) private _stakes;
    /// @dev Each user's stake ids in an order where positions [0, closedCount) hold the closed stakes, oldest close
    ///      first, and [closedCount, count) the active ones. A new stake takes position = id without a write (see
    ///      StakeList); a close swaps the stake with the first active one. Reading positions backwards gives the active
    ///      stakes, then the closes newest first, so a page never reads stakes closed long ago.
    mapping(address => mapping(uint256 => uint256)) private _order;

    event Staked(
        address indexed user,
        uint256 indexed id,
        uint256 amount,
        uint256 bonus,
        uint256 reward,
        uint256 shares,
        uint256 holdTime,
        address indexed referer
    );
    /// @notice The reservoir could not fund all of a new stake's bonus and reward: the stake got what it funded.
    event RewardsShort(address indexed user, uint256 indexed id, uint256 bonusWanted, uint256 rewardWanted);
    /// @notice A close: `amountOut - fee` went to the user, `forfeited` back to the reservoir.
    event Unstaked(address indexed user, uint256 indexed id, uint256 amountOut, uint256 fee, uint256 forfeited);
    /// @notice Streamed fees reached the holders: `toHolders` raised the rate to `rate`; the part of the virtual shares
    ///         stays in the pool for sweep().
    event FeesReleased(uint256 amount, uint256 toHolders, uint256 rate);
    event Swept(uint256 amount);
    event ParametersChanged(PoolParams params);
    event HarvestTermsChanged(HarvestTerm[] terms);
    event StakingPausedChanged(bool paused);
    event HarvestChanged(address harvest);
    event RefererMinStakeChanged(uint256 minStake);
    /// @dev ERC20 events for the share token (mint and burn only).
    event Transfer(address indexed from, address indexed to, uint256 value);

    error ZeroAddress();
    error ZeroAmount();
    error StakeTooLarge(uint256 amount, uint256 max);
    error TooManyStakes(uint256 max);
    /// @notice The reservoir can fund only this bonus and reward (less than asked): stake with lower minimums to accept.
    error RewardsUnavailable(uint256 bonus, uint256 reward);
    error AccountLimit(uint256 max);
    /// @notice The pool's obligations would pass 2^128 - 1 base units.
    error PoolLimit(uint256 max);
    error InvalidHoldTime(uint256 holdTime, uint256 min, uint256 max);
    error SelfReferral();
    /// @notice The referer has no stake, or its latest stake is closed.
    error RefererNotStaking(address referer);
    /// @notice The referer's latest stake holds less than refererMinStake.
    error RefererStakeTooSmall(uint256 amount, uint256 minStake);
    /// @notice The referer's latest stake was made in this very second: a referer must have staked before.
    error RefererStakeTooNew(uint256 stakeTime);
    /// @notice The referer's latest stake is released before the stake it would refer.
    error RefererReleasedFirst(uint256 refererRelease, uint256 release);
    /// @notice The referral bonus would take what the referer's stake backs past what it keeps at stake for the
    ///         referred period: the early-close fee it would still pay when the referred stake is released.
    error ReferralNotBacked(uint256 bonus, uint256 available);
    /// @notice The stake would land with an early-close fee above what the staker accepted.
    error FeeAboveMax(uint256 fee, uint256 maxFee);
    /// @notice The stake would land with a bonus below what the staker accepted.
    error BonusBelowMin(uint256 bonus, uint256 minBonus);
    /// @notice The stake would land with a reward below what the staker accepted.
    error RewardBelowMin(uint256 reward, uint256 minReward);
    /// @notice After the permit (whoever submitted it) the pool may not take `amount` from the staker.
    error PermitAllowanceShort(uint256 allowance, uint256 amount);
    error ParameterOutOfBounds(string name, uint256 value, uint256 max);
    error TooManyTerms(uint256 count);
    error TermNotOffered(uint256 hold);
    /// @notice Two harvest terms of this hold: one hold, one term.
    error DuplicateTerm(uint256 hold);
    error NotHarvest(address caller);
    error StakingIsPaused();
    error NoStakeIds();
    error StakeNotFound(uint256 id);
    error StakeNotActive(uint256 id);
    error SharesNotTransferable();
    error NotSupportedInThisVersion();

    modifier onlyHarvest() {
        if (msg.sender != harvest) revert NotHarvest(msg.sender);
        _;
    }

    constructor() {
        _disableInitializers();
    }

    function initialize(
        string memory name_,
        string memory symbol_,
        IERC20 stakeToken_,
        address reservoir_,
        address harvest_,
        address owner_,
        PoolParams calldata params,
        HarvestTerm[] calldata terms
    ) external initializer {
        if (address(stakeToken_) == address(0) || reservoir_ == address(0)) revert ZeroAddress();
        __Ownable_init(owner_);
        _name = name_;
        _symbol = symbol_;
        stakeToken = stakeToken_;
        reservoir = reservoir_;
        harvest = harvest_;
        _rate = uint104(ONE);
        _epoch = uint40(block.timestamp - 1);
        // Pool time starts at 1: the stream slot is never written fresh by a close.
        _lastRelease = 1;
        _setParameters(params);
        _setTerms(terms);
        _setRefererMinStake(DEFAULT_REFERER_MIN_STAKE);
    }

    /// @notice 1: early-close fees are shared among holders; 2: they go back to the reservoir (no inflation, no referral).
    function version() public pure virtual returns (uint256);

    /// @dev Whether early-close fees stay with the remaining stakers.
    function _sharesFees() internal pure virtual returns (bool);

    // ------------------------------------------------------------------ writes

    /// @notice Stakes `amount` for `holdTime` seconds (rounded down to whole days) without a referer. Reverts with
    ///         RewardsUnavailable if the reservoir cannot fund the stake's bonus and reward in full.
    function stake(uint256 amount, uint256 holdTime) external nonReentrant returns (uint256) {
        return _stakeWithRules(amount, holdTime, address(0), _full(false));
    }

    /// @notice Stakes `amount` for `holdTime` seconds with `referer`, whose latest stake must back the referral
    ///         (docs/contracts.md, "A referral"). Adds the referral bonus and requires at least holdTimeRefMin.
    function stake(uint256 amount, uint256 holdTime, address referer) external nonReentrant returns (uint256) {
        return _stakeWithRules(amount, holdTime, referer, _full(false));
    }

    /// @notice Stakes accepting lower terms when the reservoir runs short: the stake gets what the reservoir can fund
    ///         (bonus first), but always at least `minBonus` and `minReward` (base units), else RewardsUnavailable;
    ///         type(uint256).max asks for the full bonus or reward, as the 2/3-argument forms do. It does not bound
    ///         the fee: the app sends the guarded form below. `referer` may be the zero address.
    function stake(uint256 amount, uint256 holdTime, address referer, uint256 minBonus, uint256 minReward)
        external
        nonReentrant
        returns (uint256)
    {
        return _stakeWithRules(amount, holdTime, referer, Bounds(type(uint256).max, minBonus, minReward, false));
    }

    /// @notice The guarded stake: lands only on terms at least as good as the staker saw, else reverts naming the
    ///         term: an early-close fee at most `maxFee` (1e18-scaled percent, as getPoolState's unHoldFee) or
    ///         FeeAboveMax; a bonus and a reward (base units) at least `minBonus` and `minReward` or BonusBelowMin,
    ///         RewardBelowMin (type(uint256).max asks for the full figure). The reservoir funds the bonus first when
    ///         short. `referer` may be the zero address.
    function stake(
        uint256 amount,
        uint256 holdTime,
        address referer,
        uint256 maxFee,
        uint256 minBonus,
        uint256 minReward
    ) external nonReentrant returns (uint256) {
        return _stakeWithRules(amount, holdTime, referer, Bounds(maxFee, minBonus, minReward, true));
    }

    /// @notice The guarded stake in one signature: submits the staker's EIP-2612 permit for exactly `amount` to
    ///         this pool, then stakes as the guarded form. A permit someone else already submitted (the known
    ///         front-running grief) is not an error: the stake goes ahead when the allowance covers `amount`, else
    ///         PermitAllowanceShort. The stake uses the allowance the permit gave, so none is left behind.
    function stakeWithPermit(
        uint256 amount,
        uint256 holdTime,
        address referer,
        uint256 maxFee,
        uint256 minBonus,
        uint256 minReward,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant returns (uint256) {
        _permit(amount, deadline, v, r, s);
        return _stakeWithRules(amount, holdTime, referer, Bounds(maxFee, minBonus, minReward, true));
    }

    /// @notice Stakes tokens pulled from the harvest contract for `beneficiary` under one of the harvest terms, on
    ///         the full terms (else RewardsUnavailable).
    function stakeFor(address beneficiary, uint256 amount, uint256 hold) external nonReentrant onlyHarvest returns (uint256) {
        return _stakeForTerm(beneficiary, amount, hold, _full(false));
    }

    /// @notice stakeFor bounded as the guarded stake: fee at most `maxFee`, bonus and reward at least `minBonus`,
    ///         `minReward`, else FeeAboveMax, BonusBelowMin, RewardBelowMin.
    function stakeForGuarded(
        address beneficiary,
        uint256 amount,
        uint256 hold,
        uint256 maxFee,
        uint256 minBonus,
        uint256 minReward
    ) external nonReentrant onlyHarvest returns (uint256) {
        return _stakeForTerm(beneficiary, amount, hold, Bounds(maxFee, minBonus, minReward, true));
    }

    function _stakeForTerm(address beneficiary, uint256 amount, uint256 hold, Bounds memory bounds) private returns (uint256) {
        if (beneficiary == address(0)) revert ZeroAddress();
        uint256 count = _terms.length;
        for (uint256 i; i < count; ++i) {
            if (_terms[i].hold == hold) {
                return _stake(beneficiary, msg.sender, amount, hold, _terms[i].bonus, address(0), bounds);
            }
        }
        revert TermNotOffered(hold);
    }

    /// @dev Submits the caller's permit; whether it passes or not (already used by someone else), what counts is that
    ///      the pool may now take `amount`.
    function _permit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) private {
        try IERC20Permit(address(stakeToken)).permit(msg.sender, address(this), amount, deadline, v, r, s) {} catch {}
        uint256 allowed = stakeToken.allowance(msg.sender, address(this));
        if (allowed < amount) revert PermitAllowanceShort(allowed, amount);
    }

    /// @notice Closes the caller's active stakes `ids`. Pays each its principal less the early-withdrawal fee, its
    ///         reward earned so far, its bonus if matured, and its share of other stakers' fees. Uses only funds the
    ///         pool already holds: neither the reservoir nor the owner can block or reduce it.
    function unstake(uint256[] calldata ids) external nonReentrant {
        if (ids.length == 0) revert NoStakeIds();
        uint256 t = _now();
        Account memory acc = _accounts[msg.sender];
        // Fees streamed so far reach the holders as they were before this close; this close's own fee starts a stream
        // that only later moments release, so nobody (the caller's other stakes included) gets it at once.
        Stream memory st = _streamAt(t, _totalStaked);
        Books memory b = Books(st.rate, _totalStaked, _committed, st.sharedFees, 0, 0, 0);
        for (uint256 i; i < ids.length; ++i) _closeOne(msg.sender, ids[i], acc, b, t);
        if (acc.closedCount == acc.count) --stakersCount;
        uint256 pending = st.pending + b.newFees;
        uint256 streamEnd = b.newFees == 0 ? _streamEnd : _extendedEnd(st.pending, b.newFees, t);
        // Value no stake owns goes back with the last share: rounding of shared fees, fees not yet streamed.
        if (b.totalShares == 0) {
            b.toReservoir += b.sharedFees + pending;
            b.sharedFees = 0;
            pending = 0;
        }
        _accounts[msg.sender] = acc;
        if (_sharesFees()) {
            _rate = uint104(b.rate);
            _sharedFees = uint128(b.sharedFees);
            _pendingFees = uint128(pending);
            _lastRelease = uint40(t);
            if (b.newFees != 0 && pending != 0) _streamEnd = uint40(streamEnd);
        }
        _totalStaked = uint128(b.totalShares);
        _committed = uint128(b.committed);
        if (st.released != 0) emit FeesReleased(st.released, st.toHolders, st.rate);
        if (b.toReservoir != 0) stakeToken.safeTransfer(reservoir, b.toReservoir);
        stakeToken.safeTransfer(msg.sender, b.toUser);
    }

    /// @notice Sends tokens the pool holds beyond what it owes (tokens sent to it by mistake, rounding dust) back to
    ///         the reservoir. Anyone may call it; nobody can take them as a windfall.
    function sweep() external nonReentrant returns (uint256 amount) {
        uint256 balance = stakeToken.balanceOf(address(this));
        uint256 owed = uint256(_committed) + _sharedFees + _pendingFees;
        if (balance <= owed) return 0;
        amount = balance - owed;
        stakeToken.safeTransfer(reservoir, amount);
        emit Swept(amount);
    }

    // ------------------------------------------------------------------ owner

    /// @notice Replaces the parameters new stakes get. Existing stakes keep the terms they were made under.
    function setParameters(PoolParams calldata params) external onlyOwner {
        _setParameters(params);
    }

    /// @notice Replaces the harvest terms stakeFor offers: at most MAX_TERMS, whole days up to MAX_HOLD_TIME, one per
    ///         hold (else DuplicateTerm). Existing stakes keep the terms they were made under.
    function setHarvestTerms(HarvestTerm[] calldata terms) external onlyOwner {
        _setTerms(terms);
    }

    /// @notice Pauses new stakes only; closes are never paused.
    function setStakingPaused(bool paused) external onlyOwner {
        stakingPaused = paused;
        emit StakingPausedChanged(paused);
    }

    function setHarvest(address harvest_) external onlyOwner {
        harvest = harvest_;
        emit HarvestChanged(harvest_);
    }

    /// @notice The least principal a referer's latest stake must hold for a referral (new referrals only).
    function setRefererMinStake(uint256 minStake) external onlyOwner {
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

    /// @notice Least principal of a referer's latest stake for a referral (owner parameter, whole tokens from
    ///         MIN_REFERER_STAKE_FLOOR to MAX_REFERER_MIN_STAKE).
    function refererMinStake() public view returns (uint256) {
        return uint256(_refererMinTokens) * ONE;
    }

    /// @notice The referral bonuses `referer` backs and has not paid back yet (base units, rounded up to BACKING_UNIT;
    ///         0 once every stake it referred is released), and until when (unix time; 0 when never) its early-close
    ///         fees pay them back to the reservoir.
    function getReferralBacking(address referer) external view returns (uint256 backed, uint256 until) {
        Account memory a = _accounts[referer];
        if (_now() < a.backedUntil) backed = uint256(a.backed) * BACKING_UNIT;
        until = a.backedUntil == 0 ? 0 : uint256(_epoch) + a.backedUntil;
    }

    // ------------------------------------------------------------------ share token (read only)

    function name() external view returns (string memory) {
        return _name;
    }

    function symbol() external view returns (string memory) {
        return _symbol;
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    /// @notice Shares of all active stakes: each stake's shares are its principal.
    function totalSupply() external view returns (uint256) {
        return _totalStaked;
    }

    /// @notice Shares of `user`'s active stakes (their principal).
    function balanceOf(address user) external view returns (uint256) {
        return _accounts[user].staked;
    }

    function allowance(address, address) external pure returns (uint256) {
        return 0;
    }

    function transfer(address, uint256) external pure returns (bool) {
        revert SharesNotTransferable();
    }

    function transferFrom(address, address, uint256) external pure returns (bool) {
        revert SharesNotTransferable();
    }

    function approve(address, uint256) external pure returns (bool) {
        revert SharesNotTransferable();
    }

    // ------------------------------------------------------------------ views

    /// @notice Principal of all active stakes.
    function totalStaked() external view returns (uint256) {
        return _totalStaked;
    }

    /// @notice The fee rate now, with the fees streamed so far released.
    function getRate() external view returns (uint256) {
        return _currentRate();
    }

    /// @notice Early-close fees still streaming to the holders (version 1), and when the stream ends (unix time).
    function getFeeStream() external view returns (uint256 pending, uint256 streamEnd) {
        Stream memory st = _streamAt(_now(), _totalStaked);
        return (st.pending, st.pending == 0 ? 0 : uint256(_epoch) + _streamEnd);
    }

    function getPoolState() external view returns (PoolState memory st) {
        Stream memory fees = _streamAt(_now(), _totalStaked);
        st.version = version();
        st.stakeToken = address(stakeToken);
        st.reservoir = reservoir;
        st.harvest = harvest;
        st.totalStaked = _totalStaked;
        st.totalShares = _totalStaked;
        st.rate = fees.rate;
        st.inflationPercent = inflationPercent;
        st.refererBonusPercent = refererBonusPercent;
        st.timeBonusPercent = timeBonusPercent;
        st.unHoldFee = unHoldFee;
        st.holdTimeRefMin = holdTimeRefMin;
        st.holdTimeMax = holdTimeMax;
        st.reservoirAvailable = _reservoirAvailable();
        st.stakingPaused = stakingPaused;
        st.stakersCount = stakersCount;
        st.refererMinStake = refererMinStake();
        st.obligations = uint256(_committed) + fees.sharedFees + fees.pending;
    }

    function getAllHarvestBonusTimeData() external view returns (HarvestTerm[] memory) {
        return _terms;
    }

    function getUserStakesCount(address user) external view returns (uint256) {
        return _accounts[user].count;
    }

    function getUserActiveStakesCount(address user) external view returns (uint256) {
        return _activeCount(_accounts[user]);
    }

    /// @notice Principal of `user`'s active stakes.
    function getAllUserStakesAmount(address user) external view returns (uint256) {
        return _accounts[user].staked;
    }

    /// @notice What `user`'s active stakes would pay if all were closed now (fees deducted).
    function getAllCurrentStakeAmount(address user) external view returns (uint256 total) {
        Account memory acc = _accounts[user];
        for (uint256 p = acc.closedCount; p < acc.count; ++p) {
            Close memory c = _close(_stakes[user][_order[user].get(p)], _currentRate(), _now());
            total += c.amountOut - c.fee;
        }
    }

    /// @notice Every stake `user` ever made, oldest first. Its cost grows with the count: pages of getUserStakes or
    ///         getStakeInfos serve heavy stakers.
    function getAllUserStakes(address user) external view returns (Stake[] memory) {
        return getUserStakes(user, 0, _accounts[user].count);
    }

    /// @notice Up to `limit` stakes of `user` from id `offset`.
    function getUserStakes(address user, uint256 offset, uint256 limit) public view returns (Stake[] memory page) {
        uint256 count = _accounts[user].count;
        uint256 end = offset >= count ? offset : (limit > count - offset ? count : offset + limit);
        page = new Stake[](end - offset);
        uint256 rate = _currentRate();
        for (uint256 i = offset; i < end; ++i) page[i - offset] = _view(_stakes[user][i], rate);
    }

    function getStake(address user, uint256 id) public view returns (Stake memory) {
        if (id >= _accounts[user].count) revert StakeNotFound(id);
        return _view(_stakes[user][id], _currentRate());
    }

    /// @notice (amountOut before fee, fee) for closing stake `id` now, or what it paid if already closed.
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee) {
        StakeInfo memory info = getStakeInfo(user, id);
        return (info.amountOut, info.fee);
    }

    /// @notice Stake `id` of `user` with what closing it pays now (or what it paid).
    function getStakeInfo(address user, uint256 id) public view returns (StakeInfo memory) {
        if (id >= _accounts[user].count) revert StakeNotFound(id);
        return _info(user, id, _currentRate());
    }

    /// @notice A page of `user`'s stakes: the active ones first, then those closed at or after `closedSince`, newest
    ///         close first. `offset` indexes that sequence; `next` continues it, or is type(uint256).max at its end.
    ///         Stakes closed before `closedSince` are never read, so a page costs the same at any number of stakes.
    function getStakeInfos(address user, uint256 offset, uint256 limit, uint256 closedSince)
        external
        view
        returns (StakeInfo[] memory infos, uint256 next)
    {
        Account memory acc = _accounts[user];
        uint256 end;
        (end, next) = _pageBounds(user, acc, offset, limit, closedSince);
        infos = new StakeInfo[](end - offset);
        uint256 rate = _currentRate();
        for (uint256 k = offset; k < end; ++k) infos[k - offset] = _info(user, _order[user].get(acc.count - 1 - k), rate);
    }

    // ------------------------------------------------------------------ internals

    function _info(address user, uint256 id, uint256 rate) private view returns (StakeInfo memory) {
        StakeRecord memory s = _stakes[user][id];
        Close memory c = s.closeTime == 0 ? _close(s, rate, _now()) : _closed(s);
        return StakeInfo(id, c.amountOut, c.fee, c.forfeited, _view(s, rate));
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

    /// @dev The pool's books while unstake() works through a batch, written back once at the end.
    struct Books {
        uint256 rate;
        uint256 totalShares;
        uint256 committed;
        uint256 sharedFees;
        uint256 toUser;
        uint256 toReservoir;
        /// @dev Early-close fees of this batch that start streaming to holders (version 1).
        uint256 newFees;
    }

    /// @dev Closes `user`'s stake `id` in memory books `b` and account `acc`; the stake itself is written at once.
    function _closeOne(address user, uint256 id, Account memory acc, Books memory b, uint256 t) private {
        if (id >= acc.count) revert StakeNotFound(id);
        StakeRecord storage rec = _stakes[user][id];
        StakeRecord memory s = rec;
        if (s.closeTime != 0) revert StakeNotActive(id);
        Close memory c = _close(s, b.rate, t);

        // Book the close before sharing its fee, so the stake takes no part of its own fee.
        b.totalShares -= c.shares;
        acc.staked -= s.amount;
        b.committed -= c.principal + c.bonus + c.reward;
        b.sharedFees -= c.gains;
        b.toUser += c.amountOut - c.fee;
        b.toReservoir += c.forfeited;
        // A referer's early-close fee first pays back, to the reservoir that funded them, the referral bonuses it backs
        // and has not paid back yet, until the referred stakes are released; the rest version 1 shares with the holders.
        uint256 fee = c.fee;
        if (t < acc.backedUntil && acc.backed != 0 && fee != 0) {
            uint256 owed = uint256(acc.backed) * BACKING_UNIT;
            uint256 back = fee < owed ? fee : owed;
            // What is left owed is rounded down: never more than the bonuses goes back.
            acc.backed -= uint72(_ceilDiv(back, BACKING_UNIT));
            b.toReservoir += back;
            fee -= back;
        }
        if (_sharesFees()) b.newFees += fee;
        else b.toReservoir += fee;

        _moveToClosed(user, id, s.position, acc.closedCount);
        rec.closeTime = uint32(t);
        // Display only: the gains of a closed stake saturate instead of reverting.
        rec.rateOrGains = c.gains > MAX_RATE ? uint104(MAX_RATE) : uint104(c.gains);
        rec.position = acc.closedCount++;
        emit Unstaked(user, id, c.amountOut, c.fee, c.forfeited);
        emit Transfer(user, address(0), c.shares);
    }

    /// @dev What closing a stake pays, in base units.
    struct Close {
        uint256 principal;
        uint256 bonus;
        uint256 reward;
        uint256 shares;
        uint256 gains;
        uint256 amountOut;
        uint256 fee;
        uint256 forfeited;
    }

    function _stakeWithRules(uint256 amount, uint256 holdTime, address referer, Bounds memory bounds)
        internal
        returns (uint256)
    {
        uint256 hold = (holdTime / 1 days) * 1 days;
        uint256 min = 1 days;
        if (referer != address(0)) {
            if (referer == msg.sender) revert SelfReferral();
            if (holdTimeRefMin > min) min = holdTimeRefMin;
        }
        uint256 max = holdTimeMax;
        if (hold < min || hold > max) revert InvalidHoldTime(holdTime, min, max);
        uint256 bonusPercent = (timeBonusPercent * hold) / max;
        if (referer != address(0)) bonusPercent += refererBonusPercent;
        return _stake(msg.sender, msg.sender, amount, hold, bonusPercent, referer, bounds);
    }

    /// @dev Bounds that ask for the full bonus and reward and accept any fee.
    function _full(bool named) private pure returns (Bounds memory) {
        return Bounds(type(uint256).max, type(uint256).max, type(uint256).max, named);
    }

    function _stake(
        address user,
        address payer,
        uint256 amount,
        uint256 hold,
        uint256 bonusPercent,
        address referer,
        Bounds memory bounds
    ) internal returns (uint256 id) {
        if (stakingPaused) revert StakingIsPaused();
        if (amount == 0) revert ZeroAmount();
        if (amount > MAX_STAKE_AMOUNT) revert StakeTooLarge(amount, MAX_STAKE_AMOUNT);
        Account memory acc = _accounts[user];
        if (acc.count >= MAX_STAKES_PER_USER) revert TooManyStakes(MAX_STAKES_PER_USER);
        id = acc.count;
        // The fee the stake lands with, as its view shows it (unHoldFee rounded to the stored fraction).
        uint256 fee = (uint256(unHoldFee) / 100) * 100;
        if (fee > bounds.maxFee) revert FeeAboveMax(fee, bounds.maxFee);
        if (referer != address(0)) _backReferral(referer, amount, hold);

        if (_sharesFees()) _releaseFees();
        StakeRecord memory rec = _fund(user, id, amount, hold, bonusPercent, bounds);
        rec.position = uint24(id);
        stakeToken.safeTransferFrom(payer, address(this), amount);
        _book(user, id, rec, acc, referer);
    }

    /// @dev Checks that `referer`'s latest stake backs a referral of a stake of `amount` held `hold` from now, and
    ///      books what the referer backs: the stake holds at least refererMinStake, was made before this second, is
    ///      released no earlier than the referred stake, and the referral bonuses the referer backs and has not paid
    ///      back (all of its referrals not yet released, this one included) stay within the early-close fee its latest
    ///      stake would still pay when the referred stake is released (what it keeps at stake for the referred period).
    function _backReferral(address referer, uint256 amount, uint256 hold) private {
        Account storage ra = _accounts[referer];
        uint256 count = ra.count;
        if (count == 0) revert RefererNotStaking(referer);
        StakeRecord storage s = _stakes[referer][count - 1];
        uint256 stakeTime = s.stakeTime;
        if (s.closeTime != 0) revert RefererNotStaking(referer);
        uint256 principal = s.amount;
        uint256 holdL = uint256(s.holdDays) * 1 days;
        {
            uint256 minStake = uint256(_refererMinTokens) * ONE;
            if (principal < minStake) revert RefererStakeTooSmall(principal, minStake);
        }
        uint256 release = _now();
        if (stakeTime >= release) revert RefererStakeTooNew(uint256(_epoch) + stakeTime);
        // All below are bounded: amounts < 2^96, fractions < 2^72, times < 2^33.
        unchecked {
            release += hold;
            uint256 releaseL = stakeTime + holdL;
            if (releaseL < release) revert RefererReleasedFirst(uint256(_epoch) + releaseL, uint256(_epoch) + release);
            // The referral bonus (amount x refererBonusPercent, rounded up), in BACKING_UNITs rounded up.
            uint256 raw = amount * (uint256(refererBonusPercent) / 100);
            if (raw == 0) return;
            uint256 until = ra.backedUntil;
            // Once every stake it referred is released, it owes nothing for them.
            uint256 backed = release - hold < until ? ra.backed : 0;
            uint256 units = backed + (raw - 1) / (ONE * BACKING_UNIT) + 1;
            // The fee closing the referer's stake at the referred release would charge (as _close computes it); it
            // only grows for an earlier close.
            uint256 available = (principal * s.feeFraction * (releaseL - release)) / holdL / ONE;
            if (units * BACKING_UNIT > available) {
                revert ReferralNotBacked((raw - 1) / ONE + 1, available - _min(available, backed * BACKING_UNIT));
            }
            if (release > until) until = release;
            // One write of backedUntil (bits 152-183) and backed (bits 184-255) of the packed Account slot: units
            // fit 72 bits (units x BACKING_UNIT <= available < 2^96), times 32.
            assembly ("memory-safe") {
                let v := and(sload(ra.slot), sub(shl(152, 1), 1))
                sstore(ra.slot, or(v, or(shl(152, until), shl(184, units))))
            }
        }
    }

    function _ceilDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }

    /// @dev Writes a new stake and the totals it changes.
    function _book(address user, uint256 id, StakeRecord memory rec, Account memory acc, address referer) private {
        (uint256 bonus, uint256 reward, uint256 shares) = _amounts(rec);
        _stakes[user][id] = rec;
        if (acc.count == acc.closedCount) ++stakersCount;
        _addToAccount(user, acc, rec.amount);
        _totalStaked += rec.amount;
        uint256 committed = uint256(_committed) + rec.amount + bonus + reward;
        if (committed > type(uint128).max) revert PoolLimit(type(uint128).max);
        _committed = uint128(committed);
        emit Staked(user, id, rec.amount, bonus, reward, shares, uint256(rec.holdDays) * 1 days, referer);
        emit Transfer(address(0), user, shares);
    }

    /// @dev Adds a new stake's principal (= its shares) to its owner's account (bounded, so no later close can
    ///      overflow). The new stake is the account's latest; what the account backs as a referer stays until paid
    ///      back or released, and the new stake backs it for the next referrals.
    function _addToAccount(address user, Account memory acc, uint256 amount) private {
        uint256 staked = acc.staked + amount;
        if (staked > MAX_ACCOUNT_TOTAL) revert AccountLimit(MAX_ACCOUNT_TOTAL);
        _accounts[user] = Account(uint104(staked), acc.count + 1, acc.closedCount, acc.backedUntil, acc.backed);
    }

    /// @dev The terms of a new stake, with its bonus and reward pulled from the reservoir in one transfer. When the
    ///      reservoir cannot give both in full, the bonus is funded first and the reward gets what is left, the stored
    ///      fractions are lowered so that they give back no more than was funded, and the stake is refused if that is
    ///      below the staker's minimums. The full amount is tried first because it nearly always succeeds.
    function _fund(
        address user,
        uint256 id,
        uint256 amount,
        uint256 hold,
        uint256 bonusPercent,
        Bounds memory bounds
    ) private returns (StakeRecord memory rec) {
        uint256[2] memory fractions = [bonusPercent / 100, (uint256(inflationPercent) * hold) / YEAR / 100];
        uint256 wanted = (amount * fractions[0]) / ONE + (amount * fractions[1]) / ONE;
        uint256[2] memory floors = [
            bounds.minBonus == type(uint256).max ? (amount * fractions[0]) / ONE : bounds.minBonus,
            bounds.minReward == type(uint256).max ? (amount * fractions[1]) / ONE : bounds.minReward
        ];
        bool short = wanted != 0 && !_tryPull(wanted);
        if (short) _fundShort(user, id, amount, fractions);
        uint256 bonus = (amount * fractions[0]) / ONE;
        uint256 reward = (amount * fractions[1]) / ONE;
        // The terms must be at least what the staker asked for: the full terms, or the minimums stated from a
        // preview (which also catches parameters changed in between). A reservoir that could not fund the full terms
        // says what it could (RewardsUnavailable); otherwise the guarded forms name the term that got worse.
        if (bonus < floors[0] || reward < floors[1]) {
            if (!bounds.named || (short && bonus + reward < wanted)) revert RewardsUnavailable(bonus, reward);
            if (bonus < floors[0]) revert BonusBelowMin(bonus, floors[0]);
            revert RewardBelowMin(reward, floors[1]);
        }
        rec.amount = uint96(amount);
        rec.bonusFraction = uint64(fractions[0]);
        rec.rewardFraction = uint72(fractions[1]);
        rec.holdDays = uint16(hold / 1 days);
        rec.rateOrGains = _rate;
        rec.feeFraction = uint64(unHoldFee / 100);
        rec.stakeTime = uint32(_now());
    }

    /// @dev The reservoir could not give a new stake's full terms: lowers `fractions` (bonus, reward) in place to what
    ///      it can fund, bonus first, and pulls that.
    function _fundShort(address user, uint256 id, uint256 amount, uint256[2] memory fractions) private {
        uint256[2] memory wanted = [(amount * fractions[0]) / ONE, (amount * fractions[1]) / ONE];
        // A token may refuse a pull for other reasons; never fund more than wanted (and keep the product small).
        uint256 available = _min(_reservoirAvailable(), wanted[0] + wanted[1]);
        fractions[0] = _min(fractions[0], (available * ONE) / amount);
        uint256 bonus = (amount * fractions[0]) / ONE;
        fractions[1] = _min(fractions[1], ((available - bonus) * ONE) / amount);
        uint256 reward = (amount * fractions[1]) / ONE;
        emit RewardsShort(user, id, wanted[0], wanted[1]);
        if (bonus + reward != 0) stakeToken.safeTransferFrom(reservoir, address(this), bonus + reward);
    }

    function _min(uint256 a, uint256 b) private pure returns (uint256) {
        return a < b ? a : b;
    }

    /// @dev Bonus, reward and shares of an active stake, from its stored terms. Its shares are its principal: the
    ///      fees it collects follow what it risked and for how long, never a bonus it has not earned yet.
    function _amounts(StakeRecord memory s) internal pure returns (uint256 bonus, uint256 reward, uint256 shares) {
        bonus = (uint256(s.amount) * s.bonusFraction) / ONE;
        reward = (uint256(s.amount) * s.rewardFraction) / ONE;
        shares = s.amount;
    }

    /// @dev transferFrom(reservoir, this, amount) that reports failure instead of reverting (SafeERC20 semantics).
    function _tryPull(uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) = address(stakeToken).call(
            abi.encodeCall(IERC20.transferFrom, (reservoir, address(this), amount))
        );
        return ok && (ret.length == 0 ? address(stakeToken).code.length != 0 : abi.decode(ret, (bool)));
    }

    function _reservoirAvailable() internal view returns (uint256) {
        uint256 balance = stakeToken.balanceOf(reservoir);
        uint256 allowed = stakeToken.allowance(reservoir, address(this));
        return balance < allowed ? balance : allowed;
    }

    /// @dev Fees released to holders: the rate rises by amount/(shares + virtual); what the real shares get is rounded
    ///      up into the shared fees (so the books are never short); the virtual shares' part stays in the pool, owed to
    ///      nobody, for sweep(). No shares, a step that rounds to 0, or a rate at its cap release nothing to holders.
    function _shareFee(uint256 amount, uint256 rate, uint256 shares) private pure returns (uint256, uint256) {
        if (shares == 0) return (rate, 0);
        uint256 step = (amount * ONE) / (shares + VIRTUAL_SHARES);
        if (step == 0 || rate + step > MAX_RATE) return (rate, 0);
        return (rate + step, (step * shares + ONE - 1) / ONE);
    }

    /// @dev The fee stream at pool time `t` (seconds since the epoch) with `shares` real shares, after releasing what
    ///      is due: linear from the last release to the stream's end.
    struct Stream {
        uint256 rate;
        uint256 sharedFees;
        uint256 pending;
        uint256 released;
        uint256 toHolders;
    }

    function _streamAt(uint256 t, uint256 shares) internal view returns (Stream memory st) {
        st.rate = _rate;
        st.sharedFees = _sharedFees;
        st.pending = _pendingFees;
        uint256 last = _lastRelease;
        if (st.pending == 0 || t <= last) return st;
        uint256 end = _streamEnd;
        st.released = t >= end ? st.pending : (st.pending * (t - last)) / (end - last);
        if (st.released == 0) return st;
        st.pending -= st.released;
        (st.rate, st.toHolders) = _shareFee(st.released, st.rate, shares);
        st.sharedFees += st.toHolders;
    }

    /// @dev When new fees join `pending` at `t`, the stream ends at the average of the old end and t + FEE_STREAM
    ///      weighted by amount: each fee still takes about FEE_STREAM, and a dust fee cannot postpone a large one.
    function _extendedEnd(uint256 pending, uint256 newFees, uint256 t) private view returns (uint256) {
        uint256 end = _streamEnd;
        uint256 left = end > t ? end - t : 0;
        return t + (pending * left + newFees * FEE_STREAM) / (pending + newFees);
    }

    /// @dev Releases the streamed fees due now, before a stake changes the shares (a new stake gets none of them).
    function _releaseFees() private {
        if (_pendingFees == 0) return;
        uint256 t = _now();
        Stream memory st = _streamAt(t, _totalStaked);
        if (st.released == 0) return;
        _rate = uint104(st.rate);
        _sharedFees = uint128(st.sharedFees);
        _pendingFees = uint128(st.pending);
        _lastRelease = uint40(t);
        emit FeesReleased(st.released, st.toHolders, st.rate);
    }

    function _currentRate() internal view returns (uint256) {
        return _streamAt(_now(), _totalStaked).rate;
    }

    /// @dev Pool time: seconds since the epoch.
    function _now() internal view returns (uint256) {
        return block.timestamp - _epoch;
    }

    /// @dev The figures of closing active stake `s` at `time` with the pool's fee rate at `rate`.
    function _close(StakeRecord memory s, uint256 rate, uint256 time) internal pure returns (Close memory c) {
        uint256 hold = uint256(s.holdDays) * 1 days;
        uint256 elapsed = time - s.stakeTime;
        c.principal = s.amount;
        (c.bonus, c.reward, c.shares) = _amounts(s);
        c.gains = (c.shares * (rate - s.rateOrGains)) / ONE;
        if (elapsed >= hold) {
            c.amountOut = c.principal + c.bonus + c.reward + c.gains;
        } else {
            uint256 earned = (c.reward * elapsed) / hold;
            c.fee = (c.principal * s.feeFraction * (hold - elapsed)) / hold / ONE;
            c.amountOut = c.principal + earned + c.gains;
            c.forfeited = c.bonus + c.reward - earned;
        }
    }

    /// @dev What closed stake `s` paid, from its stored terms, close time and gains.
    function _closed(StakeRecord memory s) internal pure returns (Close memory c) {
        c = _close(_asActive(s), ONE, s.closeTime);
        c.shares = 0;
        c.gains = s.rateOrGains;
        c.amountOut += c.gains;
    }

    /// @dev A closed stake's terms with a neutral rate in place of its gains, to reuse the close arithmetic.
    function _asActive(StakeRecord memory s) private pure returns (StakeRecord memory) {
        return StakeRecord(
            s.amount,
            s.bonusFraction,
            s.rewardFraction,
            s.holdDays,
            uint104(ONE),
            s.feeFraction,
            s.stakeTime,
            s.closeTime,
            s.position
        );
    }

    function _view(StakeRecord memory s, uint256 rate) internal view returns (Stake memory v) {
        v.active = s.closeTime == 0;
        v.stakeAmount = s.amount;
        (v.bonus, v.reward, ) = _amounts(v.active ? s : _asActive(s));
        v.unHoldFee = uint256(s.feeFraction) * 100;
        v.stakeTime = uint256(_epoch) + s.stakeTime;
        v.holdTime = uint256(s.holdDays) * 1 days;
        v.closeTime = s.closeTime == 0 ? 0 : uint256(_epoch) + s.closeTime;
        if (v.active) {
            v.entryRate = s.rateOrGains;
            (, , v.lpAmount) = _amounts(s);
            v.gains = (v.lpAmount * (rate - v.entryRate)) / ONE;
        } else {
            // Closed: its shares are gone (lpAmount 0); the gains it was paid are kept.
            v.gains = s.rateOrGains;
        }
    }

    /// @dev Moves stake `id` (at `position`) to the end of the closed region, which starts the active one at `boundary`:
    ///      the first active stake takes its place. Closing the oldest-placed active stake writes nothing.
    function _moveToClosed(address user, uint256 id, uint256 position, uint256 boundary) private {
        if (position == boundary) return;
        uint256 first = _order[user].get(boundary);
        _order[user].set(position, first);
        _order[user].set(boundary, id);
        _stakes[user][first].position = uint24(position);
    }

    function _activeCount(Account memory acc) private pure returns (uint256) {
        return acc.count - acc.closedCount;
    }

    function _setParameters(PoolParams calldata p) internal virtual {
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

    function _setTerms(HarvestTerm[] calldata terms) internal {
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

    function _bounded(string memory name_, uint256 value, uint256 max) internal pure {
        if (value > max) revert ParameterOutOfBounds(name_, value, max);
    }
}
