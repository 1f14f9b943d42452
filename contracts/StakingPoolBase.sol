// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {StakeList} from "./StakeList.sol";
import {StakingPoolStorage} from "./StakingPoolStorage.sol";
import {PoolSettings} from "./PoolSettings.sol";

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
abstract contract StakingPoolBase is StakingPoolStorage, IStakingPool, OwnableUpgradeable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using StakeList for mapping(uint256 => uint256);

    modifier onlyHarvest() {
        if (msg.sender != harvest) revert NotHarvest(msg.sender);
        _;
    }

    /// @notice The contracts that run, on this pool's storage, its per-stake views (PoolViews) and its owner's settings
    ///         (PoolSettings), each of this version: the pool's own code stays under the 24 KB limit.
    address public immutable VIEWS;
    address public immutable SETTINGS;

    error OnlySelf();

    constructor(address views_, address settings_) {
        if (views_ == address(0) || settings_ == address(0)) revert ZeroAddress();
        VIEWS = views_;
        SETTINGS = settings_;
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
        _stakeToken = stakeToken_;
        reservoir = reservoir_;
        harvest = harvest_;
        _rate = uint104(ONE);
        _epoch = uint40(block.timestamp - 1);
        // Pool time starts at 1: the stream slot is never written fresh by a close.
        _lastRelease = 1;
        _delegate(SETTINGS, abi.encodeCall(PoolSettings.configure, (params, terms)));
    }

    /// @notice 1: early-close fees are shared among holders; 2: they go back to the reservoir (no inflation, no referral).
    function version() public pure virtual returns (uint256);

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
        try IERC20Permit(address(_stakeToken)).permit(msg.sender, address(this), amount, deadline, v, r, s) {} catch {}
        uint256 allowed = _stakeToken.allowance(msg.sender, address(this));
        if (allowed < amount) revert PermitAllowanceShort(allowed, amount);
    }

    /// @notice Closes the caller's active stakes `ids`. Pays each its principal less the early-withdrawal fee, its
    ///         reward earned so far, its bonus if matured, and its share of other stakers' fees. Uses only funds the
    ///         pool already holds: neither the reservoir nor the owner can block or reduce it.
    function unstake(uint256[] calldata ids) external nonReentrant {
        _stakeToken.safeTransfer(msg.sender, _closeBatch(msg.sender, ids, false));
    }

    /// @notice Closes the caller's matured stakes `ids` (else StakeNotMatured) and stakes everything they pay
    ///         (principal, bonus, reward and shared fees) for `holdTime` in one transaction, no referer, as the guarded
    ///         stake: fee at most `maxFee`, bonus and reward at least `minBonus` and `minReward` (else FeeAboveMax,
    ///         BonusBelowMin, RewardBelowMin). The tokens never leave the pool.
    function restake(uint256[] calldata ids, uint256 holdTime, uint256 maxFee, uint256 minBonus, uint256 minReward)
        external
        nonReentrant
        returns (uint256 id)
    {
        uint256 amount = _closeBatch(msg.sender, ids, true);
        uint256 hold = _holdOf(holdTime, address(0));
        id = _stake(
            msg.sender,
            address(this),
            amount,
            hold,
            _bonusPercentOf(hold, address(0)),
            address(0),
            Bounds(maxFee, minBonus, minReward, true)
        );
        emit Restaked(msg.sender, id, ids, amount);
    }

    /// @dev Closes `user`'s stakes `ids` (only matured ones if `maturedOnly`) and returns what they pay the user; what
    ///      goes back to the reservoir is sent. Fees streamed so far reach the holders as they were before this close;
    ///      this close's own fee starts a stream that only later moments release, so nobody (the caller's other stakes
    ///      included) gets it at once.
    function _closeBatch(address user, uint256[] calldata ids, bool maturedOnly) private returns (uint256) {
        if (ids.length == 0) revert NoStakeIds();
        uint256 t = _now();
        Account memory acc = _accounts[user];
        Walk memory w = _checkpoint(t);
        // The days it passed have their rates stored now: each close reads its own.
        w.crossed = 0;
        Books memory b = Books(w.rate, w.atRisk, 0, _committed, w.sharedFees, 0, 0, 0, w.dayDone);
        for (uint256 i; i < ids.length; ++i) _closeOne(user, ids[i], acc, b, t, maturedOnly, w);
        if (acc.closedCount == acc.count) --stakersCount;
        uint256 pending = w.pending + b.newFees;
        uint256 streamEnd = b.newFees == 0 ? _streamEnd : _extendedEnd(w.pending, b.newFees, t);
        // Value no stake owns goes back with the last share: rounding of shared fees, fees not yet streamed.
        if (b.committed == 0) {
            b.toReservoir += b.sharedFees + pending;
            b.sharedFees = 0;
            pending = 0;
        }
        _accounts[user] = acc;
        if (_sharesFees()) {
            _sharedFees = uint128(b.sharedFees);
            _pendingFees = uint128(pending);
            _lastRelease = uint32(t);
            if (b.newFees != 0 && pending != 0) _streamEnd = uint32(streamEnd);
            if (b.expired != 0) _expiredActive -= uint128(b.expired);
        }
        _atRisk = uint128(b.atRisk);
        _committed = uint128(b.committed);
        if (b.toReservoir != 0) _stakeToken.safeTransfer(reservoir, b.toReservoir);
        return b.toUser;
    }

    /// @notice Brings the pool's books to now: releases the fees due and retires the shares of every release day passed,
    ///         as any stake or close does first. Anyone may call it, so that a pool left alone for long keeps its views
    ///         (which walk the days since) cheap; it moves no tokens.
    function checkpoint() external nonReentrant {
        _checkpoint(_now());
    }

    /// @notice Sends tokens the pool holds beyond what it owes (tokens sent to it by mistake, rounding dust) back to
    ///         the reservoir. Anyone may call it; nobody can take them as a windfall.
    function sweep() external nonReentrant returns (uint256 amount) {
        uint256 balance = _stakeToken.balanceOf(address(this));
        uint256 owed = uint256(_committed) + _sharedFees + _pendingFees;
        if (balance <= owed) return 0;
        amount = balance - owed;
        _stakeToken.safeTransfer(reservoir, amount);
        emit Swept(amount);
    }

    // ------------------------------------------------------------------ owner

    /// @notice Replaces the parameters new stakes get (bounded: ParameterOutOfBounds; version 2 takes no inflation or
    ///         referral bonus, NotSupportedInThisVersion). Existing stakes keep the terms they were made under.
    function setParameters(PoolParams calldata params) external onlyOwner {
        params; // named for the ABI; PoolSettings reads it from msg.data
        _delegate(SETTINGS, msg.data);
    }

    /// @notice Replaces the harvest terms stakeFor offers: at most MAX_TERMS, whole days up to MAX_HOLD_TIME, one per
    ///         hold (else DuplicateTerm). Existing stakes keep the terms they were made under.
    function setHarvestTerms(HarvestTerm[] calldata terms) external onlyOwner {
        terms;
        _delegate(SETTINGS, msg.data);
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

    /// @notice The least principal a referer's latest stake must hold for a referral (new referrals only): whole
    ///         tokens from MIN_REFERER_STAKE_FLOOR to MAX_REFERER_MIN_STAKE, else ParameterOutOfBounds.
    function setRefererMinStake(uint256 minStake) external onlyOwner {
        minStake;
        _delegate(SETTINGS, msg.data);
    }

    /// @notice Least principal of a referer's latest stake for a referral (owner parameter, whole tokens from
    ///         MIN_REFERER_STAKE_FLOOR to MAX_REFERER_MIN_STAKE).
    function refererMinStake() public view returns (uint256) {
        return uint256(_refererMinTokens) * ONE;
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

    /// @notice Shares of all active stakes (their principal). Fees are shared among those still at risk only:
    ///         getPoolState().totalShares.
    function totalSupply() external view returns (uint256) {
        return _atRisk + _expiredActive;
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

    function stakeToken() external view returns (IERC20) {
        return _stakeToken;
    }

    /// @notice Every stake `user` ever made, oldest first. Its cost grows with the count: pages of getUserStakes or
    ///         getStakeInfos serve heavy stakers.
    function getAllUserStakes(address user) external view returns (Stake[] memory) {
        user; // named for the ABI; PoolViews reads it from msg.data
        _viaViews();
    }

    /// @notice Up to `limit` stakes of `user` from id `offset`.
    function getUserStakes(address user, uint256 offset, uint256 limit) external view returns (Stake[] memory) {
        (user, offset, limit);
        _viaViews();
    }

    function getStake(address user, uint256 id) external view returns (Stake memory) {
        (user, id);
        _viaViews();
    }

    /// @notice (amountOut before fee, fee) for closing stake `id` now, or what it paid if already closed.
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee) {
        (user, id, amountOut, fee);
        _viaViews();
    }

    /// @notice Stake `id` of `user` with what closing it pays now (or what it paid).
    function getStakeInfo(address user, uint256 id) external view returns (StakeInfo memory) {
        (user, id);
        _viaViews();
    }

    /// @notice A page of `user`'s stakes: the active ones first, then those closed at or after `closedSince`, newest
    ///         close first. `offset` indexes that sequence; `next` continues it, or is type(uint256).max at its end.
    ///         Stakes closed before `closedSince` are never read, so a page costs the same at any number of stakes.
    function getStakeInfos(address user, uint256 offset, uint256 limit, uint256 closedSince)
        external
        view
        returns (StakeInfo[] memory infos, uint256 next)
    {
        (user, offset, limit, closedSince, infos, next);
        _viaViews();
    }

    /// @notice What `user`'s active stakes would pay if all were closed now (fees deducted).
    function getAllCurrentStakeAmount(address user) external view returns (uint256 total) {
        (user, total);
        _viaViews();
    }

    /// @notice What stake `id` of `referer` owes for the referred stakes it backs that are still open (base units;
    ///         0 once it is closed); once it closed early, what it owed then and what its fee paid back.
    function getReferralBacking(address referer, uint256 id)
        external
        view
        returns (uint256 owed, uint256 owedAtClose, uint256 paidBack)
    {
        (referer, id, owed, owedAtClose, paidBack);
        _viaViews();
    }

    /// @notice The referral stake `id` of `user` is booked with while it is open: who referred it, the referer's stake
    ///         that backs it, and its debt (base units); that stake owes it while both are open. Nothing is booked (zero
    ///         address) for a referral whose bonus was unfunded or below one BACKING_UNIT, or once the stake closed.
    function getReferral(address user, uint256 id) external view returns (address referer, uint256 backerId, uint256 owed) {
        (user, id, referer, backerId, owed);
        _viaViews();
    }

    /// @dev Answers the current call with what VIEWS answers on this pool's storage, through runViews in a static
    ///      call: nothing it runs can write.
    function _viaViews() private view {
        (bool ok, bytes memory ret) = address(this).staticcall(abi.encodeCall(this.runViews, (msg.data)));
        assembly ("memory-safe") {
            switch ok
            case 0 { revert(add(ret, 32), mload(ret)) }
            default { return(add(ret, 32), mload(ret)) }
        }
    }

    /// @notice Only the pool itself calls it (in a static call): runs `data` on VIEWS by delegatecall and returns its
    ///         answer as is.
    function runViews(bytes calldata data) external {
        if (msg.sender != address(this)) revert OnlySelf();
        (bool ok, bytes memory ret) = VIEWS.delegatecall(data);
        assembly ("memory-safe") {
            switch ok
            case 0 { revert(add(ret, 32), mload(ret)) }
            default { return(add(ret, 32), mload(ret)) }
        }
    }

    /// @dev Runs `data` on `target` on this pool's storage and answers (or reverts) with what it answers.
    function _delegate(address target, bytes memory data) private {
        (bool ok, bytes memory ret) = target.delegatecall(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
    }

    /// @notice Principal of all active stakes.
    function totalStaked() external view returns (uint256) {
        return _atRisk + _expiredActive;
    }

    /// @notice The fee rate now, with the fees streamed so far released.
    function getRate() external view returns (uint256) {
        return _moment().rate;
    }

    /// @notice Early-close fees still streaming to the holders (version 1), and when the stream ends (unix time).
    function getFeeStream() external view returns (uint256 pending, uint256 streamEnd) {
        Walk memory w = _moment();
        return (w.pending, w.pending == 0 ? 0 : uint256(_epoch) + _streamEnd);
    }

    function getPoolState() external view returns (PoolState memory st) {
        Walk memory w = _moment();
        st.version = version();
        st.stakeToken = address(_stakeToken);
        st.reservoir = reservoir;
        st.harvest = harvest;
        st.totalStaked = _atRisk + _expiredActive;
        st.totalShares = w.atRisk;
        st.rate = w.rate;
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
        st.obligations = uint256(_committed) + w.sharedFees + w.pending;
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

    // ------------------------------------------------------------------ internals

    /// @dev The pool's books while a batch of closes is worked through, written back once at the end.
    struct Books {
        uint256 rate;
        uint256 atRisk;
        /// @dev Principal closed that had left the shares (its release day had begun).
        uint256 expired;
        uint256 committed;
        uint256 sharedFees;
        uint256 toUser;
        uint256 toReservoir;
        /// @dev Early-close fees of this batch that start streaming to holders (version 1).
        uint256 newFees;
        uint256 dayDone;
    }

    /// @dev Closes `user`'s stake `id` in memory books `b` and account `acc`; the stake itself is written at once.
    function _closeOne(
        address user,
        uint256 id,
        Account memory acc,
        Books memory b,
        uint256 t,
        bool maturedOnly,
        Walk memory w
    ) private {
        if (id >= acc.count) revert StakeNotFound(id);
        StakeRecord storage rec = _stakes[user][id];
        StakeRecord memory s = rec;
        if (s.closeTime != 0) revert StakeNotActive(id);
        bool early = t - s.stakeTime < uint256(s.holdDays) * 1 days;
        if (maturedOnly && early) revert StakeNotMatured(id);
        Close memory c = _close(s, _rateOf(s, w), t);

        // Book the close before sharing its fee, so the stake takes no part of its own fee. A stake still at risk
        // leaves the shares and its release day's expiry now.
        if (!_sharesFees()) {
            b.atRisk -= s.amount;
        } else {
            uint256 day = _expiryDay(s);
            if (day > b.dayDone) {
                b.atRisk -= s.amount;
                _expiries[day].shares -= uint128(s.amount);
            } else {
                b.expired += s.amount;
            }
        }
        acc.staked -= s.amount;
        b.committed -= c.principal + c.bonus + c.reward;
        b.sharedFees -= c.gains;
        b.toUser += c.amountOut - c.fee;
        uint256 fee = c.fee;
        // A referred stake takes its referer's debt with it. A forfeited bonus that its referer's early close already
        // paid back is shared as a fee: the reservoir gets each bonus back once.
        uint256 repaid = s.flags & REFERRED == 0 ? 0 : _dropReferral(user, id, early);
        b.toReservoir += c.forfeited - repaid;
        // A stake that backs referrals pays back, from its early-close fee, what it owes for the referred stakes still
        // open: min(fee, owed), to the reservoir that funded them; the rest is a fee like any other.
        if (s.flags & BACKS != 0 && fee != 0) {
            uint256 back = _payBack(user, id, fee);
            b.toReservoir += back;
            fee -= back;
        }
        if (_sharesFees()) b.newFees += fee + repaid;
        else b.toReservoir += fee + repaid;

        _moveToClosed(user, id, s.position, acc.closedCount);
        rec.closeTime = uint32(t);
        // Display only: the gains of a closed stake saturate instead of reverting.
        rec.rateOrGains = c.gains > MAX_RATE ? uint104(MAX_RATE) : uint104(c.gains);
        rec.position = acc.closedCount++;
        emit Unstaked(user, id, c.amountOut, c.fee, c.forfeited);
    }

    /// @dev Early close of stake `id` of `user`, which backs referrals, with `fee`: what it pays back, min(fee, owed).
    function _payBack(address user, uint256 id, uint256 fee) private returns (uint256 back) {
        Liens storage l = _liens[user][id];
        uint256 owed = uint256(l.live) * BACKING_UNIT;
        if (owed == 0) return 0;
        back = fee < owed ? fee : owed;
        l.liveAtClose = l.live;
        l.paid = uint96(back);
        emit ReferralPaidBack(user, id, back);
    }

    /// @dev Closing referred stake `id` of `user`: while its backer is open, the backer owes nothing more for it. If the
    ///      backer closed early and paid back, returns this stake's part of that payback when it now forfeits its bonus.
    function _dropReferral(address user, uint256 id, bool early) private returns (uint256) {
        Referral memory r = _referrals[user][id];
        delete _referrals[user][id];
        Liens storage l = _liens[r.referer][r.backerId];
        if (_stakes[r.referer][r.backerId].closeTime == 0) {
            l.live -= r.units;
            return 0;
        }
        uint256 paid = l.paid;
        if (!early || paid == 0) return 0;
        return (uint256(r.units) * paid) / l.liveAtClose;
    }

    function _stakeWithRules(uint256 amount, uint256 holdTime, address referer, Bounds memory bounds)
        internal
        returns (uint256)
    {
        if (referer == msg.sender) revert SelfReferral();
        uint256 hold = _holdOf(holdTime, referer);
        return _stake(msg.sender, msg.sender, amount, hold, _bonusPercentOf(hold, referer), referer, bounds);
    }

    /// @dev `holdTime` in whole days, checked: 1 day (holdTimeRefMin with a referer) to holdTimeMax.
    function _holdOf(uint256 holdTime, address referer) private view returns (uint256 hold) {
        hold = (holdTime / 1 days) * 1 days;
        uint256 min = 1 days;
        if (referer != address(0) && holdTimeRefMin > min) min = holdTimeRefMin;
        uint256 max = holdTimeMax;
        if (hold < min || hold > max) revert InvalidHoldTime(holdTime, min, max);
    }

    /// @dev The length bonus, and with a referer the referral bonus, both growing with the hold:
    ///      (timeBonusPercent + refererBonusPercent) x hold / holdTimeMax, each rounded down.
    function _bonusPercentOf(uint256 hold, address referer) private view returns (uint256 bonusPercent) {
        uint256 max = holdTimeMax;
        bonusPercent = (timeBonusPercent * hold) / max;
        if (referer != address(0)) bonusPercent += (refererBonusPercent * hold) / max;
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
        uint256 backer;
        if (referer != address(0)) backer = _checkReferral(referer, amount, hold);

        _checkpoint(_now());
        StakeRecord memory rec = _fund(user, id, amount, hold, bonusPercent, bounds);
        rec.position = uint24(id);
        if (referer != address(0)) _bookReferral(user, id, rec, referer, backer, hold, bonusPercent);
        if (payer != address(this)) _stakeToken.safeTransferFrom(payer, address(this), amount);
        _book(user, id, rec, acc, referer);
    }

    /// @dev The referral bonus part of `bonusPercent` for a stake held `hold`.
    function _referralPercent(uint256 hold) private view returns (uint256) {
        return (uint256(refererBonusPercent) * hold) / holdTimeMax;
    }

    /// @dev Checks that `referer`'s latest stake backs a referral of a stake of `amount` held `hold` from now, and
    ///      returns its id: the stake holds at least refererMinStake, was made before this second, is released no
    ///      earlier than the referred stake, and what it owes for the referred stakes still open plus this referral's
    ///      bonus stays within the early-close fee it would still pay when the referred stake is released (what it
    ///      keeps at stake for the referred period).
    function _checkReferral(address referer, uint256 amount, uint256 hold) private view returns (uint256 backer) {
        uint256 count = _accounts[referer].count;
        if (count == 0) revert RefererNotStaking(referer);
        backer = count - 1;
        StakeRecord storage s = _stakes[referer][backer];
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
            // The fee closing the referer's stake at the referred release would charge (as _close computes it); it
            // only grows for an earlier close.
            _checkBacking(referer, backer, amount, hold, (principal * s.feeFraction * (releaseL - release)) / holdL / ONE);
        }
    }

    /// @dev What `referer`'s stake `backer` owes for open referrals plus the referral bonus of a stake of `amount`
    ///      held `hold` (whole BACKING_UNITs, rounded down) must stay within `available`.
    function _checkBacking(address referer, uint256 backer, uint256 amount, uint256 hold, uint256 available) private view {
        uint256 bonus = (amount * (_referralPercent(hold) / 100)) / ONE;
        uint256 units = bonus / BACKING_UNIT;
        if (units == 0) return;
        uint256 owed = uint256(_liens[referer][backer].live) * BACKING_UNIT;
        if (owed + units * BACKING_UNIT > available) revert ReferralNotBacked(bonus, available - _min(available, owed));
    }

    /// @dev Books what `referer` owes for referred stake `id` of `user`: the referral's part of the bonus the
    ///      reservoir funded, in whole BACKING_UNITs rounded down (nothing when it funded no bonus), on the referred
    ///      stake and on the referer's stake that backs it.
    function _bookReferral(
        address user,
        uint256 id,
        StakeRecord memory rec,
        address referer,
        uint256 backer,
        uint256 hold,
        uint256 bonusPercent
    ) private {
        uint256 referral = _referralPercent(hold);
        if (referral == 0) return;
        uint256 nominal = (uint256(rec.amount) * (referral / 100)) / ONE;
        uint256 funded = (((uint256(rec.amount) * rec.bonusFraction) / ONE) * referral) / bonusPercent;
        uint256 units = (funded < nominal ? funded : nominal) / BACKING_UNIT;
        if (units == 0) return;
        rec.flags = REFERRED;
        _referrals[user][id] = Referral(referer, uint24(backer), uint72(units));
        _liens[referer][backer].live += uint72(units);
        StakeRecord storage b = _stakes[referer][backer];
        if (b.flags & BACKS == 0) b.flags |= BACKS;
    }

    /// @dev Writes a new stake and the totals it changes. Version 1: its shares join those at risk until its release
    ///      day begins.
    function _book(address user, uint256 id, StakeRecord memory rec, Account memory acc, address referer) private {
        (uint256 bonus, uint256 reward, uint256 shares) = _amounts(rec);
        _stakes[user][id] = rec;
        if (acc.count == acc.closedCount) ++stakersCount;
        uint256 staked = uint256(acc.staked) + rec.amount;
        if (staked > MAX_ACCOUNT_TOTAL) revert AccountLimit(MAX_ACCOUNT_TOTAL);
        _accounts[user] = Account(uint104(staked), acc.count + 1, acc.closedCount);
        uint256 committed = uint256(_committed) + rec.amount + bonus + reward;
        if (committed > type(uint128).max) revert PoolLimit(type(uint128).max);
        // Principal is part of what is committed, so the shares fit too.
        _atRisk += uint128(rec.amount);
        _committed = uint128(committed);
        if (_sharesFees()) {
            uint256 day = _expiryDay(rec);
            Expiry storage e = _expiries[day];
            // A day's first stake marks the day for walks.
            if (e.shares == 0) _releaseDays[day >> 8] |= 1 << (day & 255);
            e.shares += uint128(rec.amount);
            if (day > _lastExpiryDay) _lastExpiryDay = uint32(day);
            // A new stake's release day is after today, so after every day walked.
            uint256 next = _nextDay;
            if (next == 0 || day < next) _nextDay = uint32(day);
        }
        emit Staked(user, id, rec.amount, bonus, reward, shares, uint256(rec.holdDays) * 1 days, referer);
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
        if (bonus + reward != 0) _stakeToken.safeTransferFrom(reservoir, address(this), bonus + reward);
    }

    /// @dev transferFrom(reservoir, this, amount) that reports failure instead of reverting (SafeERC20 semantics).
    function _tryPull(uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) = address(_stakeToken).call(
            abi.encodeCall(IERC20.transferFrom, (reservoir, address(this), amount))
        );
        return ok && (ret.length == 0 ? address(_stakeToken).code.length != 0 : abi.decode(ret, (bool)));
    }

    function _reservoirAvailable() internal view returns (uint256) {
        uint256 balance = _stakeToken.balanceOf(reservoir);
        uint256 allowed = _stakeToken.allowance(reservoir, address(this));
        return balance < allowed ? balance : allowed;
    }

    /// @dev Walks to `t` and stores it (version 1), before a stake or a close changes the shares: a new stake gets
    ///      none of the fees released so far, and a stake whose release day has begun none of those released after.
    function _checkpoint(uint256 t) private returns (Walk memory w) {
        w = _walk(t);
        if (!_sharesFees()) return w;
        for (uint256 i; i < w.crossed; ++i) _expiries[w.crossedDays[i]].rate = uint104(w.rates[i]);
        if (w.released != 0) {
            _rate = uint104(w.rate);
            _sharedFees = uint128(w.sharedFees);
            emit FeesReleased(w.released, w.toHolders, w.rate);
        }
        if (w.retired != 0) {
            _atRisk = uint128(w.atRisk);
            _expiredActive += uint128(w.retired);
        }
        if (w.lastRelease != _lastRelease || w.pending != _pendingFees || w.nextDay != _nextDay) {
            _pendingFees = uint128(w.pending);
            _lastRelease = uint32(w.lastRelease);
            _nextDay = uint32(w.nextDay);
        }
    }

    /// @dev When new fees join `pending` at `t`, the stream ends at the average of the old end and t + FEE_STREAM
    ///      weighted by amount: each fee still takes about FEE_STREAM, and a dust fee cannot postpone a large one.
    function _extendedEnd(uint256 pending, uint256 newFees, uint256 t) private view returns (uint256) {
        uint256 end = _streamEnd;
        uint256 left = end > t ? end - t : 0;
        return t + (pending * left + newFees * FEE_STREAM) / (pending + newFees);
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
}
