// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title PoolsInfo
/// @notice Registry of staking pools. The owner whitelists the callers (factories) that may add pools; pool ids are
///         indexes into the list and never change. The owner can delist a pool (and list it again): a delisted pool
///         stays readable by id, but the app's pool list and claim-and-stake skip it (docs/contracts.md).
contract PoolsInfo is Ownable {
    struct Pool {
        address factory;
        address pool;
        address stakeToken;
        address implAndTerms;
        bool listed;
    }

    Pool[] private _pools;
    mapping(address => bool) public whitelist;
    mapping(address => bool) public isPool;
    mapping(address => uint256) private _idOf;

    event WhitelistChanged(address indexed account, bool allowed);
    event PoolAdded(uint256 indexed id, address indexed factory, address indexed pool, address stakeToken, address implAndTerms);
    event PoolListingChanged(uint256 indexed id, address indexed pool, bool listed);

    error NotWhitelisted(address caller);
    error PoolAlreadyAdded(address pool);
    error PoolNotFound(uint256 id);
    error ZeroAddress();

    constructor(address owner_) Ownable(owner_) {}

    /// @notice Allows or forbids `account` to add pools.
    function setWhitelisted(address account, bool allowed) external onlyOwner {
        if (account == address(0)) revert ZeroAddress();
        whitelist[account] = allowed;
        emit WhitelistChanged(account, allowed);
    }

    /// @notice Registers a pool; returns its id.
    function addPool(address factory, address pool, address stakeToken, address implAndTerms) external returns (uint256 id) {
        if (!whitelist[msg.sender]) revert NotWhitelisted(msg.sender);
        if (pool == address(0) || stakeToken == address(0)) revert ZeroAddress();
        if (isPool[pool]) revert PoolAlreadyAdded(pool);
        isPool[pool] = true;
        id = _pools.length;
        _idOf[pool] = id;
        _pools.push(Pool(factory, pool, stakeToken, implAndTerms, true));
        emit PoolAdded(id, factory, pool, stakeToken, implAndTerms);
    }

    /// @notice Lists or delists pool `id`. Delisting hides the pool from new claim-and-stakes and the pool list; its
    ///         stakers can still close their stakes (nothing in a pool depends on the registry).
    function setListed(uint256 id, bool listed) external onlyOwner {
        if (id >= _pools.length) revert PoolNotFound(id);
        _pools[id].listed = listed;
        emit PoolListingChanged(id, _pools[id].pool, listed);
    }

    /// @notice Whether `pool` is registered and currently listed.
    function isListed(address pool) external view returns (bool) {
        return isPool[pool] && _pools[_idOf[pool]].listed;
    }

    /// @notice The pool registered under `id`.
    function getPools(uint256 id) external view returns (Pool memory) {
        if (id >= _pools.length) revert PoolNotFound(id);
        return _pools[id];
    }

    function getAllPools() external view returns (Pool[] memory) {
        return _pools;
    }

    function getPoolsLength() external view returns (uint256) {
        return _pools.length;
    }
}
