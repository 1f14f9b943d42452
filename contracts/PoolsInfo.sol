// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title PoolsInfo
/// @notice Registry of staking pools. The owner whitelists the callers (factories) that may add pools; pool ids are
///         indexes into the list and never change.
contract PoolsInfo is Ownable {
    struct Pool {
        address factory;
        address pool;
        address stakeToken;
        address implAndTerms;
    }

    Pool[] private _pools;
    mapping(address => bool) public whitelist;
    mapping(address => bool) public isPool;

    event WhitelistChanged(address indexed account, bool allowed);
    event PoolAdded(uint256 indexed id, address indexed factory, address indexed pool, address stakeToken, address implAndTerms);

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
        _pools.push(Pool(factory, pool, stakeToken, implAndTerms));
        emit PoolAdded(id, factory, pool, stakeToken, implAndTerms);
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
