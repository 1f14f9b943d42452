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
///         Claim(user, amount, lastUpdateBlock, currentBlock, rewardToken) under this contract's domain (name,
///         version, chain id, address), so it cannot be replayed on another chain or deployment. Each claim moves the
///         user's last block to its currentBlock, which kills every older signature for that user and token.
contract RewardHarvest is Ownable, EIP712, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    bytes32 public constant CLAIM_TYPEHASH = keccak256(
        "Claim(address user,uint256 amount,uint256 lastUpdateBlock,uint256 currentBlock,address rewardToken)"
    );

    PoolsInfo public immutable poolsInfo;
    /// @notice The factory whose pools claims may be staked into (with `poolsInfo` listing them).
    StakingPoolFactory public immutable factory;

    mapping(address token => mapping(address signer => bool)) public trustedSigners;
    /// @dev One slot per user and token: a first claim writes one fresh slot, not two.
    struct Account {
        uint64 lastBlock;
        uint192 claimed;
    }

    mapping(address user => mapping(address token => Account)) private _accounts;
    mapping(address user => bool) public isUser;
    uint256 private _usersCount;

    event TrustedSignerChanged(address indexed token, address indexed signer, bool trusted);
    event Harvested(address indexed user, address indexed token, uint256 amount, uint256 currentBlock);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);
    event HarvestStaked(address indexed user, address indexed pool, uint256 stakeId, uint256 amount, uint256 hold);

    error ZeroAddress();
    error ZeroAmount();
    error InvalidMessage();
    error UntrustedSigner(address signer);
    error StaleClaim(uint256 expectedLastBlock, uint256 lastUpdateBlock);
    error InvalidCurrentBlock(uint256 currentBlock);
    error CurrentBlockInFuture(uint256 currentBlock, uint256 blockNumber);
    error UnknownPool(address pool);
    error TokenMismatch(address poolToken, address rewardToken);

    constructor(PoolsInfo poolsInfo_, StakingPoolFactory factory_, address owner_) Ownable(owner_) EIP712("RewardHarvest", "1") {
        if (address(poolsInfo_) == address(0) || address(factory_) == address(0)) revert ZeroAddress();
        poolsInfo = poolsInfo_;
        factory = factory_;
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

    /// @notice Claims `amount` of `rewardToken` to the caller's wallet.
    function harvest(
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        bytes32 message,
        bytes calldata signature,
        address rewardToken
    ) external nonReentrant {
        _consume(amount, lastUpdateBlock, currentBlock, message, signature, rewardToken);
        IERC20(rewardToken).safeTransfer(msg.sender, amount);
        emit Harvested(msg.sender, rewardToken, amount, currentBlock);
    }

    /// @notice Claims `amount` straight into a stake in `pool` under the pool's harvest term of `hold` seconds.
    function harvestStake(
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        bytes32 message,
        bytes calldata signature,
        address rewardToken,
        address pool,
        uint256 hold
    ) external nonReentrant returns (uint256 stakeId) {
        // A whitelisted registry caller could list any contract; only the factory's own clones are trusted with claims.
        if (!factory.isPoolCreated(pool) || !poolsInfo.isListed(pool)) revert UnknownPool(pool);
        address poolToken = address(IStakingPool(pool).stakeToken());
        if (poolToken != rewardToken) revert TokenMismatch(poolToken, rewardToken);
        _consume(amount, lastUpdateBlock, currentBlock, message, signature, rewardToken);
        IERC20(rewardToken).forceApprove(pool, amount);
        stakeId = IStakingPool(pool).stakeFor(msg.sender, amount, hold);
        emit Harvested(msg.sender, rewardToken, amount, currentBlock);
        emit HarvestStaked(msg.sender, pool, stakeId, amount, hold);
    }

    /// @notice The block of `user`'s last claim of `token` (0 before the first); a new claim must be signed for it.
    function getLastBlock(address user, address token) external view returns (uint256) {
        return _accounts[user][token].lastBlock;
    }

    /// @notice Total `token` that `user` has claimed.
    function claimed(address user, address token) external view returns (uint256) {
        return _accounts[user][token].claimed;
    }

    /// @notice How many distinct users have ever claimed.
    function getUsersCount() external view returns (uint256) {
        return _usersCount;
    }

    /// @notice The EIP-712 digest a trusted signer signs for this claim.
    function claimDigest(address user, uint256 amount, uint256 lastUpdateBlock, uint256 currentBlock, address rewardToken)
        public
        view
        returns (bytes32)
    {
        return _hashTypedDataV4(keccak256(abi.encode(CLAIM_TYPEHASH, user, amount, lastUpdateBlock, currentBlock, rewardToken)));
    }

    function _consume(
        uint256 amount,
        uint256 lastUpdateBlock,
        uint256 currentBlock,
        bytes32 message,
        bytes calldata signature,
        address rewardToken
    ) private {
        if (amount == 0) revert ZeroAmount();
        if (message != claimDigest(msg.sender, amount, lastUpdateBlock, currentBlock, rewardToken)) revert InvalidMessage();
        address signer = ECDSA.recover(message, signature);
        if (!trustedSigners[rewardToken][signer]) revert UntrustedSigner(signer);
        Account storage account = _accounts[msg.sender][rewardToken];
        uint256 last = account.lastBlock;
        if (lastUpdateBlock != last) revert StaleClaim(last, lastUpdateBlock);
        if (currentBlock <= lastUpdateBlock) revert InvalidCurrentBlock(currentBlock);
        if (currentBlock > block.number) revert CurrentBlockInFuture(currentBlock, block.number);
        // currentBlock <= block.number fits 64 bits for any real chain.
        account.lastBlock = uint64(currentBlock);
        account.claimed += amount.toUint192();
        if (!isUser[msg.sender]) {
            isUser[msg.sender] = true;
            ++_usersCount;
        }
    }
}
