// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {PoolsInfo} from "./PoolsInfo.sol";
import {StakingPoolFactory} from "./StakingPoolFactory.sol";

/// @title RewardHarvest
/// @notice Pays vesting claims signed off-chain by a trusted signer. A claim is the EIP-712 message
///         Claim(user, amount, lastUpdateBlock, currentBlock, claimedBefore, deadline, rewardToken) under this
///         contract's domain (name, version, chain id, address), so it cannot be replayed on another chain or
///         deployment. It commits to the state it was signed for: the user's last claim block and claimed total
///         (both must still be what the contract holds) and a deadline. After a claim the total is
///         claimedBefore + amount, i.e. exactly the vested figure the signer signed; a signature made on another
///         branch of the chain or for an older state cannot add to it, however the claims are ordered or replayed.
contract RewardHarvest is Ownable, EIP712, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    bytes32 public constant CLAIM_TYPEHASH = keccak256(
        "Claim(address user,uint256 amount,uint256 lastUpdateBlock,uint256 currentBlock,uint256 claimedBefore,uint256 deadline,address rewardToken)"
    );

    PoolsInfo public immutable poolsInfo;
    /// @notice The factory whose pools claims may be staked into (with `poolsInfo` listing them): the owner moves it to
    ///         a new factory, so claim-and-stake reaches the pools of the current one.
    StakingPoolFactory public factory;

    mapping(address token => mapping(address signer => bool)) public trustedSigners;
    /// @dev One slot per user and token: a first claim writes one fresh slot, not two.
    struct Account {
        uint64 lastBlock;
        uint192 claimed;
    }

    /// @notice The terms a claim-and-stake accepts: early-close fee at most `maxFee` (1e18-scaled percent), bonus and
    ///         reward at least `minBonus` and `minReward` (base units; type(uint256).max asks for the full figure).
    struct StakeBounds {
        uint256 maxFee;
        uint256 minBonus;
        uint256 minReward;
    }

    /// @dev The signed fields of a claim, grouped to keep the external functions within the stack limit.
    struct Claim {
        uint256 amount;
        uint256 lastUpdateBlock;
        uint256 currentBlock;
        uint256 claimedBefore;
        uint256 deadline;
        address rewardToken;
    }

    mapping(address user => mapping(address token => Account)) private _accounts;
    uint256 private _usersCount;

    event TrustedSignerChanged(address indexed token, address indexed signer, bool trusted);
    event Harvested(address indexed user, address indexed token, uint256 amount, uint256 currentBlock);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);
    event HarvestStaked(address indexed user, address indexed pool, uint256 stakeId, uint256 amount, uint256 hold);
    event FactoryChanged(address factory);

    error ZeroAddress();
    error ZeroAmount();
    error InvalidMessage();
    error UntrustedSigner(address signer);
    error StaleClaim(uint256 expectedLastBlock, uint256 lastUpdateBlock);
    error InvalidCurrentBlock(uint256 currentBlock);
    error CurrentBlockInFuture(uint256 currentBlock, uint256 blockNumber);
    error ClaimedTotalMismatch(uint256 claimed, uint256 claimedBefore);
    error ClaimExpired(uint256 deadline, uint256 timestamp);
    error UnknownPool(address pool);
    error TokenMismatch(address poolToken, address rewardToken);

    constructor(PoolsInfo poolsInfo_, StakingPoolFactory factory_, address owner_) Ownable(owner_) EIP712("RewardHarvest", "1") {
        if (address(poolsInfo_) == address(0) || address(factory_) == address(0)) revert ZeroAddress();
        poolsInfo = poolsInfo_;
        factory = factory_;
    }

    /// @notice Claims are staked only into pools `factory_` made (and PoolsInfo lists).
    function setFactory(StakingPoolFactory factory_) external onlyOwner {
        if (address(factory_) == address(0)) revert ZeroAddress();
        factory = factory_;
        emit FactoryChanged(address(factory_));
    }

    function setTrustedSigner(address token, address signer, bool trusted) external onlyOwner {
        if (token == address(0) || signer == address(0)) revert ZeroAddress();
        trustedSigners[token][signer] = trusted;
        emit TrustedSignerChanged(token, signer, trusted);
    }

    /// @notice Sends the owner's unclaimed funds back (e.g. at the end of a vesting programme).
    function withdraw(IERC20 token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        token.safeTransfer(to, amount);
        emit Withdrawn(address(token), to, amount);
    }

    /// @notice Claims `amount` of `rewardToken` to the caller's wallet. `claimedBefore` and `lastUpdateBlock` must be
    ///         the caller's claimed total and last claim block now, and `deadline` (unix seconds) not yet passed.
    function harvest(
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        uint256 claimedBefore,
        uint256 deadline,
        bytes32 message,
        bytes calldata signature,
        address rewardToken
    ) external nonReentrant {
        _consume(Claim(amount, lastUpdateBlock, currentBlock, claimedBefore, deadline, rewardToken), message, signature);
        IERC20(rewardToken).safeTransfer(msg.sender, amount);
        emit Harvested(msg.sender, rewardToken, amount, currentBlock);
    }

    /// @notice Claims `amount` straight into a stake in `pool` under the pool's harvest term of `hold` seconds, on the
    ///         term's full bonus and reward (else RewardsUnavailable) whatever the early-close fee: the app sends
    ///         harvestStakeGuarded.
    function harvestStake(
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        uint256 claimedBefore,
        uint256 deadline,
        bytes32 message,
        bytes calldata signature,
        address rewardToken,
        address pool,
        uint256 hold
    ) external nonReentrant returns (uint256 stakeId) {
        Claim memory c = Claim(amount, lastUpdateBlock, currentBlock, claimedBefore, deadline, rewardToken);
        stakeId = _harvestStake(c, message, signature, pool, hold, false, StakeBounds(0, 0, 0));
    }

    /// @notice harvestStake that lands only on the terms the holder saw: an early-close fee at most `bounds.maxFee`, a
    ///         bonus and reward at least `bounds.minBonus`, `bounds.minReward`; else the pool reverts FeeAboveMax,
    ///         BonusBelowMin or RewardBelowMin (and nothing is claimed).
    function harvestStakeGuarded(
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        uint256 claimedBefore,
        uint256 deadline,
        bytes32 message,
        bytes calldata signature,
        address rewardToken,
        address pool,
        uint256 hold,
        StakeBounds calldata bounds
    ) external nonReentrant returns (uint256 stakeId) {
        Claim memory c = Claim(amount, lastUpdateBlock, currentBlock, claimedBefore, deadline, rewardToken);
        stakeId = _harvestStake(c, message, signature, pool, hold, true, bounds);
    }

    function _harvestStake(
        Claim memory c,
        bytes32 message,
        bytes calldata signature,
        address pool,
        uint256 hold,
        bool bounded,
        StakeBounds memory bounds
    ) private returns (uint256 stakeId) {
        // A whitelisted registry caller could list any contract; only the factory's own clones are trusted with claims.
        if (!factory.isPoolCreated(pool) || !poolsInfo.isListed(pool)) revert UnknownPool(pool);
        address poolToken = address(IStakingPool(pool).stakeToken());
        if (poolToken != c.rewardToken) revert TokenMismatch(poolToken, c.rewardToken);
        _consume(c, message, signature);
        IERC20(c.rewardToken).forceApprove(pool, c.amount);
        stakeId = bounded
            ? IStakingPool(pool).stakeForGuarded(msg.sender, c.amount, hold, bounds.maxFee, bounds.minBonus, bounds.minReward)
            : IStakingPool(pool).stakeFor(msg.sender, c.amount, hold);
        emit Harvested(msg.sender, c.rewardToken, c.amount, c.currentBlock);
        emit HarvestStaked(msg.sender, pool, stakeId, c.amount, hold);
    }

    /// @notice The block of `user`'s last claim of `token` (0 before the first); a new claim must be signed for it.
    function getLastBlock(address user, address token) external view returns (uint256) {
        return _accounts[user][token].lastBlock;
    }

    /// @notice Total `token` that `user` has claimed.
    function claimed(address user, address token) external view returns (uint256) {
        return _accounts[user][token].claimed;
    }

    /// @notice What a claim for `user` and `token` must be signed for now: the claimed total and the last claim block.
    function getClaimState(address user, address token) external view returns (uint256 claimedTotal, uint256 lastBlock) {
        Account storage account = _accounts[user][token];
        return (account.claimed, account.lastBlock);
    }

    /// @notice How many users have ever claimed (each counted at its first claim of a reward token; the product pays one).
    function getUsersCount() external view returns (uint256) {
        return _usersCount;
    }

    /// @notice The EIP-712 digest a trusted signer signs for this claim.
    function claimDigest(
        address user,
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        uint256 claimedBefore,
        uint256 deadline,
        address rewardToken
    ) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(CLAIM_TYPEHASH, user, amount, lastUpdateBlock, currentBlock, claimedBefore, deadline, rewardToken)
            )
        );
    }

    function _consume(Claim memory c, bytes32 message, bytes calldata signature) private {
        if (c.amount == 0) revert ZeroAmount();
        if (block.timestamp > c.deadline) revert ClaimExpired(c.deadline, block.timestamp);
        if (
            message
                != claimDigest(msg.sender, c.amount, c.lastUpdateBlock, c.currentBlock, c.claimedBefore, c.deadline, c.rewardToken)
        ) revert InvalidMessage();
        address signer = ECDSA.recover(message, signature);
        if (!trustedSigners[c.rewardToken][signer]) revert UntrustedSigner(signer);
        Account storage account = _accounts[msg.sender][c.rewardToken];
        (uint256 last, uint256 total) = (account.lastBlock, account.claimed);
        if (c.lastUpdateBlock != last) revert StaleClaim(last, c.lastUpdateBlock);
        // The signer computed amount = vested - claimedBefore: only from that very total does the sum stay within
        // what was vested. A signature from another branch or an older state names another total and is refused.
        if (c.claimedBefore != total) revert ClaimedTotalMismatch(total, c.claimedBefore);
        if (c.currentBlock <= c.lastUpdateBlock) revert InvalidCurrentBlock(c.currentBlock);
        if (c.currentBlock > block.number) revert CurrentBlockInFuture(c.currentBlock, block.number);
        // currentBlock <= block.number fits 64 bits for any real chain.
        account.lastBlock = uint64(c.currentBlock);
        account.claimed = (total + c.amount).toUint192();
        // A first claim of this token (no last block yet) counts its user: no separate per-user flag to write.
        if (last == 0) ++_usersCount;
    }
}
