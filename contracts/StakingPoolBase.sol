// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";

/// @title StakingPoolBase
/// @notice What both pool versions share: the stake book, hold-time rules, funded bonuses drawn from the reservoir,
///         harvest terms, bounded owner parameters and the pool-share ERC20. Pool shares cannot be transferred: they
///         belong to the stakes that minted them, so a stake can always be closed by its owner.
/// @dev Deployed as OpenZeppelin minimal-proxy clones, hence initializer instead of constructor. Percentages are
///      1e18-scaled (10e18 = 10%), times are seconds.
abstract contract StakingPoolBase is IStakingPool, ERC20Upgradeable, OwnableUpgradeable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    uint256 internal constant ONE = 1e18;
    uint256 internal constant PERCENT = 100e18;
    uint256 internal constant YEAR = 365 days;
    uint256 public constant MAX_INFLATION_PERCENT = 1000e18;
    uint256 public constant MAX_FEE_PERCENT = 100e18;
    uint256 public constant MAX_BONUS_PERCENT = 1000e18;
    uint256 public constant MAX_HOLD_TIME = 1095 days;
    uint256 public constant MAX_TERMS = 10;

    // Packed so that stake() reads the parameters it needs in few slots.
    IERC20 public stakeToken;
    uint40 public lastAccrual;
    uint32 public holdTimeRefMin;
    bool public stakingPaused;

    address public reservoir;
    uint32 public holdTimeMax;

    address public harvest;

    uint80 public inflationPercent;
    uint80 public refererBonusPercent;
    uint80 public timeBonusPercent;

    uint80 public unHoldFee;

    /// @notice Stake tokens owed to share holders (base units). Grows with inflation and funded bonuses.
    uint256 public totalStaked;

    HarvestTerm[] private _terms;
    mapping(address => Stake[]) private _stakes;
    mapping(address => uint256) private _userStakedAmount;
    /// @notice Addresses with at least one active stake (what the app shows as total stakers).
    uint256 public stakersCount;

    event Staked(
        address indexed user,
        uint256 indexed id,
        uint256 amount,
        uint256 bonus,
        uint256 shares,
        uint256 holdTime,
        address indexed referer
    );
    event Unstaked(address indexed user, uint256 indexed id, uint256 amountOut, uint256 fee);
    event InflationAccrued(uint256 amount);
    event ParametersChanged(PoolParams params);
    event HarvestTermsChanged(HarvestTerm[] terms);
    event StakingPausedChanged(bool paused);
    event HarvestChanged(address harvest);

    error ZeroAddress();
    error ZeroAmount();
    error ZeroShares();
    error InvalidHoldTime(uint256 holdTime, uint256 min, uint256 max);
    error SelfReferral();
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
        __ERC20_init(name_, symbol_);
        __Ownable_init(owner_);
        stakeToken = stakeToken_;
        reservoir = reservoir_;
        harvest = harvest_;
        lastAccrual = uint40(block.timestamp);
        _setParameters(params);
        _setTerms(terms);
    }

    /// @notice 1 for rate-based shares, 2 for fixed-rate shares.
    function version() public pure virtual returns (uint256);

    // ------------------------------------------------------------------ writes

    /// @notice Stakes `amount` for `holdTime` seconds (rounded down to whole days) without a referer.
    function stake(uint256 amount, uint256 holdTime) external nonReentrant returns (uint256) {
        return _stakeWithRules(amount, holdTime, address(0));
    }

    /// @notice Stakes `amount` for `holdTime` seconds with `referer`, which adds the referral bonus and requires at
    ///         least holdTimeRefMin.
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

    /// @notice Closes the caller's active stakes `ids`, paying each at the current value less the early-withdrawal
    ///         fee while it has not matured. Never blocked by the reservoir or by the owner.
    function unstake(uint256[] calldata ids) external nonReentrant {
        if (ids.length == 0) revert NoStakeIds();
        _fund(_dueInflation(), 0);
        uint256 rate = _rate();
        Stake[] storage list = _stakes[msg.sender];
        uint256 totalOut;
        uint256 totalShares;
        uint256 totalAmount;
        for (uint256 i; i < ids.length; ++i) {
            uint256 id = ids[i];
            if (id >= list.length) revert StakeNotFound(id);
            Stake storage s = list[id];
            if (!s.active) revert StakeNotActive(id);
            (uint256 gross, uint256 fee) = _grossAndFee(s, rate, block.timestamp);
            uint256 out = gross - fee;
            s.active = false;
            s.closeTime = uint32(block.timestamp);
            s.closeRate = rate.toUint96();
            s.closeAmount = out.toUint96();
            totalOut += out;
            totalShares += s.lpAmount;
            totalAmount += s.stakeAmount;
            emit Unstaked(msg.sender, id, out, fee);
        }
        _userStakedAmount[msg.sender] -= totalAmount;
        if (_userStakedAmount[msg.sender] == 0) --stakersCount;
        _burn(msg.sender, totalShares);
        _settle(totalOut, totalShares);
        stakeToken.safeTransfer(msg.sender, totalOut);
    }

    // ------------------------------------------------------------------ owner

    /// @notice Replaces the pool parameters (inflation is brought up to date at the old percent first).
    function setParameters(PoolParams calldata params) external onlyOwner nonReentrant {
        _fund(_dueInflation(), 0);
        // A pool whose inflation was 0 never moved lastAccrual; the new percent must not reach back in time.
        lastAccrual = uint40(block.timestamp);
        _setParameters(params);
    }

    function setHarvestTerms(HarvestTerm[] calldata terms) external onlyOwner {
        _setTerms(terms);
    }

    function setStakingPaused(bool paused) external onlyOwner {
        stakingPaused = paused;
        emit StakingPausedChanged(paused);
    }

    function setHarvest(address harvest_) external onlyOwner {
        harvest = harvest_;
        emit HarvestChanged(harvest_);
    }

    // ------------------------------------------------------------------ views

    function getRate() external view returns (uint256) {
        return getPoolState().rate;
    }

    function getPoolState() public view returns (PoolState memory st) {
        uint256 available = _reservoirAvailable();
        uint256 due = _inflationFor(block.timestamp - lastAccrual);
        uint256 inflation = due < available ? due : available;
        st.version = version();
        st.stakeToken = address(stakeToken);
        st.reservoir = reservoir;
        st.harvest = harvest;
        st.totalStaked = totalStaked + inflation;
        st.totalShares = totalSupply();
        st.rate = _rateOf(st.totalStaked, st.totalShares);
        st.inflationPercent = inflationPercent;
        st.refererBonusPercent = refererBonusPercent;
        st.timeBonusPercent = timeBonusPercent;
        st.unHoldFee = unHoldFee;
        st.holdTimeRefMin = holdTimeRefMin;
        st.holdTimeMax = holdTimeMax;
        st.reservoirAvailable = available - inflation;
        st.stakingPaused = stakingPaused;
    }

    function getAllHarvestBonusTimeData() external view returns (HarvestTerm[] memory) {
        return _terms;
    }

    function getAllUserStakes(address user) external view returns (Stake[] memory) {
        return _stakes[user];
    }

    /// @notice Up to `limit` stakes of `user` from index `offset`: a heavy staker's list can be read in pages.
    function getUserStakes(address user, uint256 offset, uint256 limit) external view returns (Stake[] memory page) {
        Stake[] storage list = _stakes[user];
        uint256 end = offset + limit > list.length ? list.length : offset + limit;
        if (offset >= end) return page;
        page = new Stake[](end - offset);
        for (uint256 i = offset; i < end; ++i) page[i - offset] = list[i];
    }

    function getUserStakesCount(address user) external view returns (uint256) {
        return _stakes[user].length;
    }

    function getStake(address user, uint256 id) external view returns (Stake memory) {
        if (id >= _stakes[user].length) revert StakeNotFound(id);
        return _stakes[user][id];
    }

    /// @notice Sum of the stake amounts of `user`'s active stakes (base units).
    function getAllUserStakesAmount(address user) external view returns (uint256) {
        return _userStakedAmount[user];
    }

    /// @notice What `user`'s active stakes are worth now before fees: their shares at the current rate.
    function getAllCurrentStakeAmount(address user) external view returns (uint256) {
        return (balanceOf(user) * getPoolState().rate) / ONE;
    }

    /// @notice (amountOut before fee, fee) for closing stake `id` now, or what it paid if already closed.
    function getUnstakeData(address user, uint256 id) external view returns (uint256 amountOut, uint256 fee) {
        if (id >= _stakes[user].length) revert StakeNotFound(id);
        return _unstakeData(_stakes[user][id], getPoolState().rate);
    }

    /// @notice Stakes of `user` from `offset` (at most `limit` scanned) that are active or were closed at or after
    ///         `closedSince`, each with its unstake figures; `next` is the index to continue from.
    function getStakeInfos(address user, uint256 offset, uint256 limit, uint256 closedSince)
        external
        view
        returns (StakeInfo[] memory infos, uint256 next)
    {
        Stake[] storage list = _stakes[user];
        uint256 end = offset + limit > list.length ? list.length : offset + limit;
        if (offset >= end) return (infos, list.length);
        uint256 rate = getPoolState().rate;
        infos = new StakeInfo[](end - offset);
        uint256 n;
        for (uint256 i = offset; i < end; ++i) {
            Stake memory s = list[i];
            if (!s.active && s.closeTime < closedSince) continue;
            (uint256 amountOut, uint256 fee) = _unstakeData(s, rate);
            infos[n++] = StakeInfo(i, amountOut, fee, s);
        }
        assembly {
            mstore(infos, n)
        }
        next = end;
    }

    // ------------------------------------------------------------------ internals

    function _stakeWithRules(uint256 amount, uint256 holdTime, address referer) internal returns (uint256) {
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
        return _stake(msg.sender, msg.sender, amount, hold, bonusPercent, referer);
    }

    function _stake(address user, address payer, uint256 amount, uint256 hold, uint256 bonusPercent, address referer)
        internal
        returns (uint256 id)
    {
        if (stakingPaused) revert StakingIsPaused();
        if (amount == 0) revert ZeroAmount();
        (, uint256 bonus) = _fund(_dueInflation(), (amount * bonusPercent) / PERCENT);
        uint256 shares = _sharesFor(amount + bonus, _rate());
        if (shares == 0) revert ZeroShares();

        stakeToken.safeTransferFrom(payer, address(this), amount);
        totalStaked += amount + bonus;
        if (_userStakedAmount[user] == 0) ++stakersCount;
        _userStakedAmount[user] += amount;
        _mint(user, shares);
        Stake[] storage list = _stakes[user];
        id = list.length;
        list.push(
            Stake({
                stakeAmount: amount.toUint96(),
                lpAmount: shares.toUint96(),
                stakeTime: uint32(block.timestamp),
                holdTime: uint32(hold),
                closeAmount: 0,
                closeRate: 0,
                closeTime: 0,
                active: true
            })
        );
        emit Staked(user, id, amount, bonus, shares, hold, referer);
    }

    /// @dev Inflation due since the last accrual (uncapped); moves lastAccrual. Nothing is due while the percent is 0.
    function _dueInflation() internal returns (uint256) {
        uint256 last = lastAccrual;
        if (last == block.timestamp || inflationPercent == 0) return 0;
        lastAccrual = uint40(block.timestamp);
        return _inflationFor(block.timestamp - last);
    }

    /// @dev Pulls inflation and a stake bonus from the reservoir in one transfer, capped at what it can give
    ///      (inflation first), and books the inflation. The full amount is tried first because it nearly always
    ///      succeeds; only when it does not does the pool ask the reservoir how much it can give.
    function _fund(uint256 inflationWanted, uint256 bonusWanted) internal returns (uint256 inflation, uint256 bonus) {
        inflation = inflationWanted;
        bonus = bonusWanted;
        if (inflation + bonus == 0) return (0, 0);
        if (!_tryPull(inflation + bonus)) {
            uint256 available = _reservoirAvailable();
            if (inflation > available) inflation = available;
            if (bonus > available - inflation) bonus = available - inflation;
            if (inflation + bonus != 0) stakeToken.safeTransferFrom(reservoir, address(this), inflation + bonus);
        }
        if (inflation != 0) {
            totalStaked += inflation;
            emit InflationAccrued(inflation);
        }
    }

    /// @dev transferFrom(reservoir, this, amount) that reports failure instead of reverting (SafeERC20 semantics).
    function _tryPull(uint256 amount) private returns (bool) {
        (bool ok, bytes memory ret) = address(stakeToken).call(
            abi.encodeCall(IERC20.transferFrom, (reservoir, address(this), amount))
        );
        return ok && (ret.length == 0 ? address(stakeToken).code.length != 0 : abi.decode(ret, (bool)));
    }

    function _inflationFor(uint256 elapsed) internal view returns (uint256) {
        if (totalSupply() == 0) return 0;
        return (totalStaked * inflationPercent * elapsed) / (YEAR * PERCENT);
    }

    function _reservoirAvailable() internal view returns (uint256) {
        uint256 balance = stakeToken.balanceOf(reservoir);
        uint256 allowed = stakeToken.allowance(reservoir, address(this));
        return balance < allowed ? balance : allowed;
    }

    function _rate() internal view returns (uint256) {
        return _rateOf(totalStaked, totalSupply());
    }

    /// @dev Early-withdrawal fee: linear in the time left, `unHoldFee` percent of `amount` at the start.
    function _earlyFee(uint256 amount, uint256 hold, uint256 elapsed) internal view returns (uint256) {
        if (elapsed >= hold) return 0;
        return (amount * unHoldFee * (hold - elapsed)) / hold / PERCENT;
    }

    function _unstakeData(Stake memory s, uint256 rate) internal view returns (uint256 amountOut, uint256 fee) {
        if (s.active) return _grossAndFee(s, rate, block.timestamp);
        (amountOut, ) = _grossAndFee(s, s.closeRate, s.closeTime);
        fee = amountOut - s.closeAmount;
    }

    function _rateOf(uint256 staked, uint256 shares) internal pure virtual returns (uint256);

    function _sharesFor(uint256 value, uint256 rate) internal pure virtual returns (uint256);

    /// @dev What closing `s` at `time` and `rate` is worth before the fee, and the fee.
    function _grossAndFee(Stake memory s, uint256 rate, uint256 time) internal view virtual returns (uint256 gross, uint256 fee);

    /// @dev Books a batch of closes: `paid` leaves the pool to the user, `shares` were burned.
    function _settle(uint256 paid, uint256 shares) internal virtual;

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
            if (hold < 1 days || hold > MAX_HOLD_TIME) revert ParameterOutOfBounds("hold", hold, MAX_HOLD_TIME);
            _bounded("bonus", terms[i].bonus, MAX_BONUS_PERCENT);
            _terms.push(terms[i]);
        }
        emit HarvestTermsChanged(terms);
    }

    function _bounded(string memory name, uint256 value, uint256 max) internal pure {
        if (value > max) revert ParameterOutOfBounds(name, value, max);
    }

    /// @dev Shares only move by mint and burn.
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) revert SharesNotTransferable();
        super._update(from, to, value);
    }
}
