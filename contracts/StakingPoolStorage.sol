// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {StakeList} from "./StakeList.sol";

/// @title StakingPoolStorage
/// @notice The state of a pool, its events and errors, and the arithmetic its writes and its views share
///         (docs/contracts.md, "Pools"). StakingPoolBase writes it; PoolViews reads it for the per-stake views, which
///         the pool reaches by delegatecall so that the pool's code stays under the 24 KB limit.
/// @dev Both read one layout: nothing but this contract declares state (OpenZeppelin 5 keeps its own in namespaced
///      slots).
abstract contract StakingPoolStorage {
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
    /// @notice What a referer owes for a referral is counted in these base units (rounded down: never more than the
    ///         referred stake's bonus).
    uint256 public constant BACKING_UNIT = 2 ** 24;
    /// @dev StakeRecord.flags: the stake was made through a referral that its referer owes for (a Referral record),
    ///      or it backs referrals (a Liens record).
    uint8 internal constant REFERRED = 1;
    uint8 internal constant BACKS = 2;

    /// @dev Two slots. Bonus, reward and fee are kept as fractions of the principal (1e18 = 100%), so the amounts are
    ///      derived exactly the same way whenever they are read.
    struct StakeRecord {
        uint96 amount;
        uint64 bonusFraction;
        uint72 rewardFraction;
        uint16 holdDays;
        uint8 flags;
        // While active, the rate at stake time; once closed, the fee gains the close paid (for the closed list).
        uint104 rateOrGains;
        uint64 feeFraction;
        // Seconds since the pool's epoch (so they last 136 years from its creation); closeTime 0 while active.
        uint32 stakeTime;
        uint32 closeTime;
        // Where the stake sits in its owner's order (see _order).
        uint24 position;
    }

    /// @dev One slot per user. Stakes made = count; active = count - closedCount; `staked`: principal of its active
    ///      stakes.
    struct Account {
        uint104 staked;
        uint24 count;
        uint24 closedCount;
    }

    /// @dev On a referred stake: who referred it, which of the referer's stakes backs it, and what the referer owes
    ///      for it (its referral bonus as funded, in whole BACKING_UNITs rounded down). Deleted when it closes.
    struct Referral {
        address referer;
        uint24 backerId;
        uint72 units;
    }

    /// @dev On a stake that backs referrals: what it owes for the referred stakes still open (BACKING_UNITs), and,
    ///      once it closed early, what it owed then and what its fee paid back (base units).
    struct Liens {
        uint72 live;
        uint72 liveAtClose;
        uint96 paid;
    }

    /// @dev The shares whose release day is a UTC day, and the rate at that day's start once it has begun.
    struct Expiry {
        uint128 shares;
        uint104 rate;
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
    IERC20 internal _stakeToken;
    uint32 public holdTimeRefMin;
    uint32 public holdTimeMax;
    bool public stakingPaused;
    /// @dev refererMinStake in whole tokens (1e18 base units), in the slot every stake reads first.
    uint24 internal _refererMinTokens;

    address public reservoir;
    /// @notice Addresses with at least one active stake (what the app shows as total stakers).
    uint56 public stakersCount;
    /// @dev One second before the pool was created: stake times are kept relative to it, and are never 0.
    uint40 internal _epoch;

    address public harvest;

    uint80 public inflationPercent;
    uint80 public refererBonusPercent;
    uint80 public timeBonusPercent;

    uint80 public unHoldFee;

    // The rate and the shared fees change together, and the rate is never 0, so this slot is never written fresh.
    uint104 internal _rate;
    /// @dev Fees shared with holders and not yet paid out (rounded up, so never short).
    uint128 internal _sharedFees;

    /// @dev Early-close fees (version 1) not yet released to holders; released linearly until _streamEnd. With them
    ///      (pool time; days are UTC days): the first release day whose start has not retired its shares yet (0: none
    ///      marked), so that a walk crossing no release day reads nothing more, and the latest release day of any stake,
    ///      where walks stop.
    uint128 internal _pendingFees;
    uint32 internal _streamEnd;
    uint32 internal _lastRelease;
    uint32 internal _nextDay;
    uint32 internal _lastExpiryDay;

    /// @dev The pool's shares: the principal of active stakes whose release day has not begun (version 1; every
    ///      active stake in version 2). Fees are shared among these only; a stake leaves them at the start of its
    ///      release day (see _expiries). With it, principal + bonus + reward of every active stake (one slot: a stake
    ///      and a close write both).
    uint128 internal _atRisk;
    uint128 internal _committed;
    /// @dev Principal of active stakes whose release day has begun (version 1): with _atRisk, all active principal.
    uint128 internal _expiredActive;

    string internal _name;
    string internal _symbol;

    IStakingPool.HarvestTerm[] internal _terms;
    mapping(address => Account) internal _accounts;
    mapping(address => mapping(uint256 => StakeRecord)) internal _stakes;
    /// @dev Each user's stake ids in an order where positions [0, closedCount) hold the closed stakes, oldest close
    ///      first, and [closedCount, count) the active ones. A new stake takes position = id without a write (see
    ///      StakeList); a close swaps the stake with the first active one. Reading positions backwards gives the active
    ///      stakes, then the closes newest first, so a page never reads stakes closed long ago.
    mapping(address => mapping(uint256 => uint256)) internal _order;
    /// @dev UTC day (unix time / 1 day) => the shares released on it and the rate when it began (version 1).
    mapping(uint256 => Expiry) internal _expiries;
    /// @dev One bit per UTC day that some stake is released on, 256 days a word: a walk reads a word, not a slot, for
    ///      each stretch of days without a release.
    mapping(uint256 => uint256) internal _releaseDays;
    mapping(address => mapping(uint256 => Referral)) internal _referrals;
    mapping(address => mapping(uint256 => Liens)) internal _liens;

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
    /// @notice A close: `amountOut - fee` went to the user (or, in a restake, into its new stake), `forfeited` back to
    ///         the reservoir.
    event Unstaked(address indexed user, uint256 indexed id, uint256 amountOut, uint256 fee, uint256 forfeited);
    /// @notice Stake `id` of `referer`, closed early, paid back `amount` of its fee for the referral bonuses it backed.
    event ReferralPaidBack(address indexed referer, uint256 indexed id, uint256 amount);
    /// @notice Matured stakes `ids` of `user` were closed into its new stake `id` of `amount`.
    event Restaked(address indexed user, uint256 indexed id, uint256[] ids, uint256 amount);
    /// @notice Streamed fees reached the holders: `toHolders` raised the rate to `rate`; the part of the virtual shares
    ///         stays in the pool for sweep().
    event FeesReleased(uint256 amount, uint256 toHolders, uint256 rate);
    event Swept(uint256 amount);
    event ParametersChanged(IStakingPool.PoolParams params);
    event HarvestTermsChanged(IStakingPool.HarvestTerm[] terms);
    event StakingPausedChanged(bool paused);
    event HarvestChanged(address harvest);
    event RefererMinStakeChanged(uint256 minStake);

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
    /// @notice The referral bonus would take what the referer's latest stake owes for open referrals past what it keeps
    ///         at stake for the referred period: the early-close fee it would still pay when the referred stake is
    ///         released.
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
    /// @notice Only a matured stake can be restaked.
    error StakeNotMatured(uint256 id);
    error SharesNotTransferable();
    error NotSupportedInThisVersion();

    /// @dev Whether early-close fees stay with the remaining stakers.
    function _sharesFees() internal view virtual returns (bool);

    function _min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }

    /// @dev Bonus, reward and shares of an active stake, from its stored terms. Its shares are its principal: the
    ///      fees it collects follow what it risked and for how long, never a bonus it has not earned yet.
    function _amounts(StakeRecord memory s) internal pure returns (uint256 bonus, uint256 reward, uint256 shares) {
        bonus = (uint256(s.amount) * s.bonusFraction) / ONE;
        reward = (uint256(s.amount) * s.rewardFraction) / ONE;
        shares = s.amount;
    }

    /// @dev Fees released to holders: the rate rises by amount/(shares + virtual); what the real shares get is rounded
    ///      up into the shared fees (so the books are never short); the virtual shares' part stays in the pool, owed to
    ///      nobody, for sweep(). No shares, a step that rounds to 0, or a rate at its cap release nothing to holders.
    function _shareFee(uint256 amount, uint256 rate, uint256 shares) internal pure returns (uint256, uint256) {
        if (shares == 0) return (rate, 0);
        uint256 step = (amount * ONE) / (shares + VIRTUAL_SHARES);
        if (step == 0 || rate + step > MAX_RATE) return (rate, 0);
        return (rate + step, (step * shares + ONE - 1) / ONE);
    }

    /// @dev The pool's fee books at a moment (version 1): the stream released up to it, and the shares whose release
    ///      day has begun retired. `crossedDays`/`rates`: the release days this walk passed (`crossed` of them) and the rate
    ///      at each one's start; `dayDone`: the last day passed; `nextDay`: the first release day after it (0: none).
    struct Walk {
        uint256 t;
        uint256 rate;
        uint256 sharedFees;
        uint256 pending;
        uint256 lastRelease;
        uint256 atRisk;
        uint256 dayDone;
        uint256 nextDay;
        uint256 released;
        uint256 toHolders;
        /// @dev Principal that left the shares on the days passed.
        uint256 retired;
        uint256 crossed;
        uint256[] crossedDays;
        uint256[] rates;
    }

    /// @dev The books at pool time `t`. Each release day since the last walk that has shares in it: the stream is
    ///      released up to the day's start to the shares at risk before it, the rate then is noted, and the day's
    ///      shares stop sharing. A walk reads one slot a day it passes, up to the latest release day.
    function _walk(uint256 t) internal view returns (Walk memory w) {
        w.t = t;
        // Version 2 shares no fee: its rate stays at 1e18 and it keeps no stream, shares at risk or release days.
        if (!_sharesFees()) {
            w.rate = ONE;
            w.atRisk = _atRisk;
            return w;
        }
        w.rate = _rate;
        w.sharedFees = _sharedFees;
        w.pending = _pendingFees;
        w.lastRelease = _lastRelease;
        w.atRisk = _atRisk;
        uint256 end = _streamEnd;
        // Release days are UTC days (unix time / 1 day); the stream runs in pool time.
        uint256 epoch = _epoch;
        uint256 today = (epoch + t) / 1 days;
        w.dayDone = today;
        w.nextDay = _nextDay;
        if (w.nextDay != 0 && w.nextDay <= today) {
            uint256 last = _lastExpiryDay;
            // From one release day to the next through the bitmap (a word per 256 days, a slot per release day): first
            // to count those with shares, then to pass them; where the second pass stops is the next release day.
            uint256 n;
            uint256 d = w.nextDay;
            for (; d <= today && d <= last; d = _nextReleaseDay(d + 1, last)) {
                if (_expiries[d].shares != 0) ++n;
            }
            w.crossedDays = new uint256[](n);
            w.rates = new uint256[](n);
            for (d = w.nextDay; d <= today && d <= last; d = _nextReleaseDay(d + 1, last)) {
                uint256 shares = _expiries[d].shares;
                if (shares == 0) continue;
                _releaseTo(w, d * 1 days - epoch, end);
                w.crossedDays[w.crossed] = d;
                w.rates[w.crossed++] = w.rate;
                w.atRisk -= shares;
                w.retired += shares;
            }
            w.nextDay = d <= last ? d : 0;
        }
        _releaseTo(w, t, end);
    }

    /// @dev The first day from `d` to `last` marked in the release-day bitmap, or `last + 1`.
    function _nextReleaseDay(uint256 d, uint256 last) internal view returns (uint256) {
        while (d <= last) {
            uint256 word = _releaseDays[d >> 8] >> (d & 255);
            if (word != 0) {
                d += _lowestBit(word);
                return d <= last ? d : last + 1;
            }
            d = ((d >> 8) + 1) << 8;
        }
        return last + 1;
    }

    /// @dev The index of the lowest set bit of `x` (not 0).
    function _lowestBit(uint256 x) internal pure returns (uint256 r) {
        x &= ~x + 1;
        if (x >> 128 != 0) (x, r) = (x >> 128, r + 128);
        if (x >> 64 != 0) (x, r) = (x >> 64, r + 64);
        if (x >> 32 != 0) (x, r) = (x >> 32, r + 32);
        if (x >> 16 != 0) (x, r) = (x >> 16, r + 16);
        if (x >> 8 != 0) (x, r) = (x >> 8, r + 8);
        if (x >> 4 != 0) (x, r) = (x >> 4, r + 4);
        if (x >> 2 != 0) (x, r) = (x >> 2, r + 2);
        if (x >> 1 != 0) r += 1;
    }

    /// @dev Releases to the shares at risk what the stream owes from the last release to `time`.
    function _releaseTo(Walk memory w, uint256 time, uint256 end) private pure {
        if (w.pending == 0 || time <= w.lastRelease) return;
        uint256 released = time >= end ? w.pending : (w.pending * (time - w.lastRelease)) / (end - w.lastRelease);
        if (released == 0) return;
        w.pending -= released;
        uint256 toHolders;
        (w.rate, toHolders) = _shareFee(released, w.rate, w.atRisk);
        w.sharedFees += toHolders;
        w.released += released;
        w.toHolders += toHolders;
        w.lastRelease = time;
    }

    /// @dev The books now, as views see them.
    function _moment() internal view returns (Walk memory) {
        return _walk(_now());
    }

    /// @dev The UTC day (unix time / 1 day) whose start ends stake `s`'s share of the fees: the day of its release.
    function _expiryDay(StakeRecord memory s) internal view returns (uint256) {
        return (uint256(_epoch) + s.stakeTime + uint256(s.holdDays) * 1 days) / 1 days;
    }

    /// @dev The rate active stake `s`'s gains are counted to: the rate now while it is at risk, else the rate when its
    ///      release day began.
    function _rateOf(StakeRecord memory s, Walk memory w) internal view returns (uint256) {
        if (!_sharesFees()) return w.rate;
        uint256 day = _expiryDay(s);
        if (day > w.dayDone) return w.rate;
        // Passed in this walk (and not stored yet): the walk's list is in day order.
        if (w.crossed != 0 && day >= w.crossedDays[0]) {
            (uint256 lo, uint256 hi) = (0, w.crossed - 1);
            while (lo < hi) {
                uint256 mid = (lo + hi + 1) / 2;
                if (w.crossedDays[mid] <= day) lo = mid;
                else hi = mid - 1;
            }
            if (w.crossedDays[lo] == day) return w.rates[lo];
        }
        return _expiries[day].rate;
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
    function _asActive(StakeRecord memory s) internal pure returns (StakeRecord memory) {
        return StakeRecord(
            s.amount,
            s.bonusFraction,
            s.rewardFraction,
            s.holdDays,
            s.flags,
            uint104(ONE),
            s.feeFraction,
            s.stakeTime,
            s.closeTime,
            s.position
        );
    }

    function _view(StakeRecord memory s, Walk memory w) internal view returns (IStakingPool.Stake memory v) {
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
            v.gains = (v.lpAmount * (_rateOf(s, w) - v.entryRate)) / ONE;
        } else {
            // Closed: its shares are gone (lpAmount 0); the gains it was paid are kept.
            v.gains = s.rateOrGains;
        }
    }

    function _activeCount(Account memory acc) internal pure returns (uint256) {
        return acc.count - acc.closedCount;
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
}
