// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IStakingPool} from "./interfaces/IStakingPool.sol";
import {PoolsInfo} from "./PoolsInfo.sol";

/// @title StakingPoolFactory
/// @notice Creates pools as minimal-proxy clones of an implementation (ImplAndTermsV1 or V2) at CREATE2 addresses of
///         its own salt (its address and a counter), initialises them with the caller as owner, and registers them
///         in PoolsInfo (which must whitelist this factory) in the same transaction, so no address it will use can be
///         registered by anyone else first.
contract StakingPoolFactory is Ownable {
    PoolsInfo public immutable poolsInfo;
    /// @notice Pools this factory cloned: RewardHarvest stakes claims only into these (and only while listed).
    mapping(address => bool) public isPoolCreated;
    /// @notice Pools made so far: the next pool's salt.
    uint256 public poolsCreated;

    event PoolCreated(uint256 indexed id, address indexed pool, address indexed implementation, address stakeToken);

    error ZeroAddress();

    constructor(PoolsInfo poolsInfo_, address owner_) Ownable(owner_) {
        if (address(poolsInfo_) == address(0)) revert ZeroAddress();
        poolsInfo = poolsInfo_;
    }

    /// @notice What a new pool is made of; a struct keeps the call within the EVM's stack limit.
    struct PoolConfig {
        address implementation;
        string name;
        string symbol;
        IERC20 stakeToken;
        address reservoir;
        address harvest;
        IStakingPool.PoolParams params;
        IStakingPool.HarvestTerm[] terms;
    }

    /// @notice Clones `c.implementation` into a new pool owned by the caller and registers it; returns its address and id.
    function createPool(PoolConfig calldata c) external onlyOwner returns (address pool, uint256 id) {
        if (c.implementation == address(0)) revert ZeroAddress();
        pool = Clones.cloneDeterministic(c.implementation, _salt(poolsCreated++));
        isPoolCreated[pool] = true;
        IStakingPool(pool).initialize(c.name, c.symbol, c.stakeToken, c.reservoir, c.harvest, msg.sender, c.params, c.terms);
        id = poolsInfo.addPool(address(this), pool, address(c.stakeToken), c.implementation);
        emit PoolCreated(id, pool, c.implementation, address(c.stakeToken));
    }

    /// @notice Where the pool cloned from `implementation` as this factory's pool number `n` (0-based) lives.
    function poolAddress(address implementation, uint256 n) external view returns (address) {
        return Clones.predictDeterministicAddress(implementation, _salt(n));
    }

    function _salt(uint256 n) private view returns (bytes32) {
        return keccak256(abi.encode(address(this), n));
    }
}
