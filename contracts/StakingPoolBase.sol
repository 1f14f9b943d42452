// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {StakeList} from "./StakeList.sol";

/// @title StakingPoolBase
/// @notice What both pool versions share. Each stake is a term deposit whose terms are fixed when it is made
///         (docs/contracts.md, "Pools"):
///         - the reservoir funds its length/referral bonus and its inflation reward for the whole hold up front, so
///           the pool always holds everything it may owe and no close ever depends on the reservoir;
///         - the reward is simple interest on the principal (inflationPercent a year over the hold), earned linearly;
///           the bonus is earned only at maturity;
///         - an early close pays the principal less a fee that falls linearly to 0 at maturity, plus the reward
///           earned so far; the bonus and the unearned reward go back to the reservoir. Version 1 shares the fee
///           among the remaining stakes by their pool shares ("earned from strong hands"); version 2 returns it to
///           the reservoir.
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
    /// @notice A user may make this many stakes in one pool.
    uint256 public constant MAX_STAKES_PER_USER = type(uint24).max;
    /// @notice Bound of a user's total principal and total shares in one pool (2^104 - 1).
    uint256 public constant MAX_ACCOUNT_TOTAL = type(uint104).max;

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
        uint32 stakeTime;
        uint32 closeTime;
        // Where the stake sits in its owner's order (see _order).
        uint24 position;
    }

    /// @dev One slot per user. Stakes made = count; active = count - closedCount.
    struct Account {
        uint104 staked;
        uint104 shares;
        uint24 count;
        uint24 closedCount;
    }

    // Packed so that stake() reads the parameters it needs in few slots.
    IERC20 public stakeToken;
    uint32 public holdTimeRefMin;
    uint32 public holdTimeMax;
    bool public stakingPaused;

    address public reservoir;
    /// @notice Addresses with at least one active stake (what the app shows as total stakers).
    uint64 public stakersCount;

    address public harvest;

    uint80 public inflationPercent;
    uint80 public refererBonusPercent;
    uint80 public timeBonusPercent;

    uint80 public unHoldFee;

    // The rate and the shared fees change together, and the rate is never 0, so this slot is never written fresh.
    uint104 private _rate;
    /// @dev Fees shared with holders and not yet paid out (rounded up, so never short).
    uint128 private _sharedFees;

    uint128 private _totalStaked;
    uint128 private _totalShares;

    /// @dev Principal + bonus + reward of every active stake.
    uint256 private _committed;

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
    /// @notice An early-close fee: `toHolders` raised the rate, the rest went back to the reservoir.
    event FeeShared(uint256 fee, uint256 toHolders, uint256 rate);
    event Swept(uint256 amount);
    event ParametersChanged(PoolParams params);
    event HarvestTermsChanged(HarvestTerm[] terms);
    event StakingPausedChanged(bool paused);
    event HarvestChanged(address harvest);
    /// @dev ERC20 events for the share token (mint and burn only).
    event Transfer(address indexed from, address indexed to, uint256 value);

    error ZeroAddress();
    error ZeroAmount();
    error ZeroShares();
    error StakeTooLarge(uint256 amount, uint256 max);
    error TooManyStakes(uint256 max);
    error AccountLimit(uint256 max);
    error InvalidHoldTime(uint256 holdTime, uint256 min, uint256 max);
    error SelfReferral();
    error RefererNotStaking(address referer);
    error ParameterOutOfBounds(string name, uint256 value, uint256 max);
    error TooManyTerms(uint256 count);
    error TermNotOffered(uint256 hold);
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
        _setParameters(params);
        _setTerms(terms);
    }

    /// @notice 1: early-close fees are shared among holders; 2: they go back to the reservoir (no inflation, no referral).
    function version() public pure virtual returns (uint256);

    /// @dev Whether early-close fees stay with the remaining stakers.
    function _sharesFees() internal pure virtual returns (bool);

    // ------------------------------------------------------------------ writes

    /// @notice Stakes `amount` for `holdTime` seconds (rounded down to whole days) without a referer.
    function stake(uint256 amount, uint256 holdTime) external nonReentrant returns (uint256) {
        return _stakeWithRules(amount, holdTime, address(0));
    }

    /// @notice Stakes `amount` for `holdTime` seconds with `referer`, who must have an active stake in this pool (so a
    ///         referral bonus is never free). Adds the referral bonus and requires at least holdTimeRefMin.
    function stake(uint256 amount, uint256 holdTime, address referer) external nonReentrant returns (uint256) {
        return _stakeWithRules(amount, holdTime, referer);
    }

    /// @notice Stakes tokens pulled from the harvest contract for `beneficiary` under one of the harvest terms.
    function stakeFor(address beneficiary, uint256 amount, uint256 hold) external nonReentrant onlyHarvest returns (uint256) {
        if (beneficiary == address(0)) revert ZeroAddress();
        uint256 count = _terms.length;
        for (uint256 i; i < count; ++i) {
            if (_terms[i].hold == hold) return _stake(beneficiary, msg.sender, amount, hold, _terms[i].bonus, address(0));
        }
        revert TermNotOffered(hold);
    }

    /// @notice Closes the caller's active stakes `ids`. Pays each its principal less the early-withdrawal fee, its
    ///         reward earned so far, its bonus if matured, and its share of other stakers' fees. Uses only funds the
    ///         pool already holds: neither the reservoir nor the owner can block or reduce it.
    function unstake(uint256[] calldata ids) external nonReentrant {
        if (ids.length == 0) revert NoStakeIds();
        Account memory acc = _accounts[msg.sender];
        Books memory b = Books(_rate, _totalShares, _committed, _sharedFees, 0, 0, 0);
        for (uint256 i; i < ids.length; ++i) _closeOne(msg.sender, ids[i], acc, b);
        if (acc.closedCount == acc.count) --stakersCount;
        // Value no stake owns (rounding of shared fees) goes back with the last share.
        if (b.totalShares == 0) {
            b.toReservoir += b.sharedFees;
            b.sharedFees = 0;
        }
        _accounts[msg.sender] = acc;
        _rate = uint104(b.rate);
        _totalStaked -= uint128(b.principalOut);
        _totalShares = uint128(b.totalShares);
        _committed = b.committed;
        _sharedFees = uint128(b.sharedFees);
        if (b.toReservoir != 0) stakeToken.safeTransfer(reservoir, b.toReservoir);
        stakeToken.safeTransfer(msg.sender, b.toUser);
    }

    /// @notice Sends tokens the pool holds beyond what it owes (tokens sent to it by mistake, rounding dust) back to
    ///         the reservoir. Anyone may call it; nobody can take them as a windfall.
    function sweep() external nonReentrant returns (uint256 amount) {
        uint256 balance = stakeToken.balanceOf(address(this));
        uint256 owed = _committed + _sharedFees;
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

    function totalSupply() external view returns (uint256) {
        return _totalShares;
    }

    /// @notice Shares of `user`'s active stakes.
    function balanceOf(address user) external view returns (uint256) {
        return _accounts[user].shares;
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

    function getRate() external view returns (uint256) {
        return _rate;
    }

    function getPoolState() external view returns (PoolState memory st) {
        st.version = version();
        st.stakeToken = address(stakeToken);
        st.reservoir = reservoir;
        st.harvest = harvest;
        st.totalStaked = _totalStaked;
        st.totalShares = _totalShares;
        st.rate = _rate;
        st.inflationPercent = inflationPercent;
        st.refererBonusPercent = refererBonusPercent;
        st.timeBonusPercent = timeBonusPercent;
        st.unHoldFee = unHoldFee;
        st.holdTimeRefMin = holdTimeRefMin;
        st.holdTimeMax = holdTimeMax;
        st.reservoirAvailable = _reservoirAvailable();
        st.stakingPaused = stakingPaused;
        st.stakersCount = stakersCount;
        st.obligations = _committed + _sharedFees;
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
            Close memory c = _close(_stakes[user][_order[user].get(p)], _rate, block.timestamp);
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
        for (uint256 i = offset; i < end; ++i) page[i - offset] = _view(_stakes[user][i]);
    }

    function getStake(address user, uint256 id) public view returns (Stake memory) {
        if (id >= _accounts[user].count) revert StakeNotFound(id);
        return _view(_stakes[user][id]);
    }

    /// @notice (amountOut before fee, fee) for closing stake `id` now, or what it paid if already closed.
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee) {
        StakeInfo memory info = getStakeInfo(user, id);
        return (info.amountOut, info.fee);
    }

    /// @notice Stake `id` of `user` with what closing it pays now (or what it paid).
    function getStakeInfo(address user, uint256 id) public view returns (StakeInfo memory info) {
        if (id >= _accounts[user].count) revert StakeNotFound(id);
        StakeRecord memory s = _stakes[user][id];
        Close memory c = s.closeTime == 0 ? _close(s, _rate, block.timestamp) : _closed(s);
        info = StakeInfo(id, c.amountOut, c.fee, c.forfeited, _view(s));
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
        uint256 total = acc.count;
        uint256 end = offset >= total ? offset : (limit > total - offset ? total : offset + limit);
        uint256 stop = _visibleEnd(user, acc, offset, end, closedSince);
        next = stop == end && end < total ? end : type(uint256).max;
        infos = new StakeInfo[](stop - offset);
        for (uint256 k = offset; k < stop; ++k) {
            uint256 id = _order[user].get(total - 1 - k);
            StakeRecord memory s = _stakes[user][id];
            Close memory c = s.closeTime == 0 ? _close(s, _rate, block.timestamp) : _closed(s);
            infos[k - offset] = StakeInfo(id, c.amountOut, c.fee, c.forfeited, _view(s));
        }
    }

    // ------------------------------------------------------------------ internals

    /// @dev Where a page from `offset` to `end` stops: at `end`, or at the first stake closed before `closedSince`.
    ///      Closes are in closing order, so no later row can be visible; sizing first keeps memory to the rows returned.
    function _visibleEnd(address user, Account memory acc, uint256 offset, uint256 end, uint256 closedSince)
        private
        view
        returns (uint256)
    {
        uint256 active = acc.count - acc.closedCount;
        for (uint256 k = offset > active ? offset : active; k < end; ++k) {
            if (_stakes[user][_order[user].get(acc.count - 1 - k)].closeTime < closedSince) return k;
        }
        return end;
    }

    /// @dev The pool's books while unstake() works through a batch, written back once at the end.
    struct Books {
        uint256 rate;
        uint256 totalShares;
        uint256 committed;
        uint256 sharedFees;
        uint256 principalOut;
        uint256 toUser;
        uint256 toReservoir;
    }

    /// @dev Closes `user`'s stake `id` in memory books `b` and account `acc`; the stake itself is written at once.
    function _closeOne(address user, uint256 id, Account memory acc, Books memory b) private {
        if (id >= acc.count) revert StakeNotFound(id);
        StakeRecord storage rec = _stakes[user][id];
        StakeRecord memory s = rec;
        if (s.closeTime != 0) revert StakeNotActive(id);
        Close memory c = _close(s, b.rate, block.timestamp);

        // Book the close before sharing its fee, so the stake takes no part of its own fee.
        b.totalShares -= c.shares;
        acc.shares -= uint104(c.shares);
        acc.staked -= s.amount;
        b.principalOut += s.amount;
        b.committed -= c.principal + c.bonus + c.reward;
        b.sharedFees -= c.gains;
        b.toUser += c.amountOut - c.fee;
        b.toReservoir += c.forfeited;
        if (c.fee != 0) {
            uint256 toHolders;
            (b.rate, toHolders) = _shareFee(c.fee, b.rate, b.totalShares);
            b.sharedFees += toHolders;
            b.toReservoir += c.fee - toHolders;
        }

        _moveToClosed(user, id, s.position, acc.closedCount);
        rec.closeTime = uint32(block.timestamp);
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

    function _stakeWithRules(uint256 amount, uint256 holdTime, address referer) internal returns (uint256) {
        uint256 hold = (holdTime / 1 days) * 1 days;
        uint256 min = 1 days;
        if (referer != address(0)) {
            if (referer == msg.sender) revert SelfReferral();
            if (_activeCount(_accounts[referer]) == 0) revert RefererNotStaking(referer);
            if (holdTimeRefMin > min) min = holdTimeRefMin;
        }
        uint256 max = holdTimeMax;
        if (hold < min || hold > max) revert InvalidHoldTime(holdTime, min, max);
        uint256 bonusPercent = (timeBonusPercent * hold) / max;
        if (referer != address(0)) bonusPercent += refererBonusPercent;
        return _stake(msg.sender, msg.sender, amount, hold, bonusPercent, referer);
    }

    function _stake(address user, address payer, uint256 amount, uint256 hold, uint256 bonusPercent, address referer)
        internal
        returns (uint256 id)
    {
        if (stakingPaused) revert StakingIsPaused();
        if (amount == 0) revert ZeroAmount();
        if (amount > MAX_STAKE_AMOUNT) revert StakeTooLarge(amount, MAX_STAKE_AMOUNT);
        Account memory acc = _accounts[user];
        if (acc.count >= MAX_STAKES_PER_USER) revert TooManyStakes(MAX_STAKES_PER_USER);
        id = acc.count;

        StakeRecord memory rec = _fund(user, id, amount, hold, bonusPercent);
        rec.position = uint24(id);
        stakeToken.safeTransferFrom(payer, address(this), amount);
        _book(user, id, rec, acc, referer);
    }

    /// @dev Writes a new stake and the totals it changes.
    function _book(address user, uint256 id, StakeRecord memory rec, Account memory acc, address referer) private {
        (uint256 bonus, uint256 reward, uint256 shares) = _amounts(rec);
        if (shares == 0) revert ZeroShares();
        _stakes[user][id] = rec;
        if (acc.count == acc.closedCount) ++stakersCount;
        uint256 staked = acc.staked + rec.amount;
        uint256 allShares = acc.shares + shares;
        if (staked > MAX_ACCOUNT_TOTAL || allShares > MAX_ACCOUNT_TOTAL) revert AccountLimit(MAX_ACCOUNT_TOTAL);
        _accounts[user] = Account(uint104(staked), uint104(allShares), acc.count + 1, acc.closedCount);
        _totalStaked += rec.amount;
        _totalShares += uint128(shares);
        _committed += rec.amount + bonus + reward;
        emit Staked(user, id, rec.amount, bonus, reward, shares, uint256(rec.holdDays) * 1 days, referer);
        emit Transfer(address(0), user, shares);
    }

    /// @dev The terms of a new stake, with its bonus and reward pulled from the reservoir in one transfer. When the
    ///      reservoir cannot give both in full, the bonus is funded first and the reward gets what is left, and the
    ///      stored fractions are lowered so that they give back no more than was funded. The full amount is tried
    ///      first because it nearly always succeeds.
    function _fund(address user, uint256 id, uint256 amount, uint256 hold, uint256 bonusPercent)
        private
        returns (StakeRecord memory rec)
    {
        uint256 bonusFraction = bonusPercent / 100;
        uint256 rewardFraction = (uint256(inflationPercent) * hold) / YEAR / 100;
        uint256 bonus = (amount * bonusFraction) / ONE;
        uint256 reward = (amount * rewardFraction) / ONE;
        if (bonus + reward != 0 && !_tryPull(bonus + reward)) {
            emit RewardsShort(user, id, bonus, reward);
            uint256 available = _reservoirAvailable();
            // A token may refuse a pull for other reasons; never fund more than wanted (and keep the product small).
            if (available > bonus + reward) available = bonus + reward;
            uint256 cap = (available * ONE) / amount;
            if (bonusFraction > cap) bonusFraction = cap;
            bonus = (amount * bonusFraction) / ONE;
            cap = ((available - bonus) * ONE) / amount;
            if (rewardFraction > cap) rewardFraction = cap;
            reward = (amount * rewardFraction) / ONE;
            if (bonus + reward != 0) stakeToken.safeTransferFrom(reservoir, address(this), bonus + reward);
        }
        rec.amount = uint96(amount);
        rec.bonusFraction = uint64(bonusFraction);
        rec.rewardFraction = uint72(rewardFraction);
        rec.holdDays = uint16(hold / 1 days);
        rec.rateOrGains = _rate;
        rec.feeFraction = uint64(unHoldFee / 100);
        rec.stakeTime = uint32(block.timestamp);
    }

    /// @dev Bonus, reward and shares of an active stake, from its stored terms.
    function _amounts(StakeRecord memory s) internal pure returns (uint256 bonus, uint256 reward, uint256 shares) {
        bonus = (uint256(s.amount) * s.bonusFraction) / ONE;
        reward = (uint256(s.amount) * s.rewardFraction) / ONE;
        shares = ((s.amount + bonus) * ONE) / s.rateOrGains;
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

    /// @dev A fee shared among `shares` real shares and the virtual ones: the rate rises by fee/(shares + virtual);
    ///      what the real shares get is rounded up into the shared fees (so the books are never short), the rest goes
    ///      back to the reservoir. Version 2, an empty pool, or a rate at its cap share nothing.
    function _shareFee(uint256 fee, uint256 rate, uint256 shares) private returns (uint256 newRate, uint256 toHolders) {
        if (!_sharesFees() || shares == 0) return (rate, 0);
        uint256 step = (fee * ONE) / (shares + VIRTUAL_SHARES);
        if (step == 0 || rate + step > MAX_RATE) return (rate, 0);
        newRate = rate + step;
        toHolders = (step * shares + ONE - 1) / ONE;
        emit FeeShared(fee, toHolders, newRate);
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

    function _view(StakeRecord memory s) internal view returns (Stake memory v) {
        v.active = s.closeTime == 0;
        v.stakeAmount = s.amount;
        (v.bonus, v.reward, ) = _amounts(v.active ? s : _asActive(s));
        v.unHoldFee = uint256(s.feeFraction) * 100;
        v.stakeTime = s.stakeTime;
        v.holdTime = uint256(s.holdDays) * 1 days;
        v.closeTime = s.closeTime;
        if (v.active) {
            v.entryRate = s.rateOrGains;
            (, , v.lpAmount) = _amounts(s);
            v.gains = (v.lpAmount * (_rate - v.entryRate)) / ONE;
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
            _bounded("bonus", terms[i].bonus, MAX_BONUS_PERCENT);
            _terms.push(terms[i]);
        }
        emit HarvestTermsChanged(terms);
    }

    function _bounded(string memory name_, uint256 value, uint256 max) internal pure {
        if (value > max) revert ParameterOutOfBounds(name_, value, max);
    }
}
