// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice What PoolsInfo asks a caller that adds a pool: whether it made that pool.
interface IPoolFactory {
    function isPoolCreated(address pool) external view returns (bool);
}

/// @title PoolsInfo
/// @notice Registry of staking pools. The owner whitelists the factories that may add pools, and a factory may add
///         only a pool it made: the pool names the caller as its factory, already has code, and the caller says it
///         created it. So nobody can register a factory's next pool address before the factory makes it (the address
///         has no code until then, and the factory registers it in the same transaction). Pool ids are indexes into
///         the list and never change. The owner can delist a pool (and list it again): a delisted pool stays readable
///         by id, but the app's pool list and claim-and-stake skip it; the listed pools are kept in a list of their
///         own, so pages of listed pools never read delisted ones (docs/contracts.md).
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
    /// @dev Ids of the listed pools, in listing order (a delisted one's place takes the last); _listedAt[id] is its
    ///      position + 1 (0: not listed).
    uint256[] private _listed;
    mapping(uint256 => uint256) private _listedAt;

    event WhitelistChanged(address indexed account, bool allowed);
    event PoolAdded(uint256 indexed id, address indexed factory, address indexed pool, address stakeToken, address implAndTerms);
    event PoolListingChanged(uint256 indexed id, address indexed pool, bool listed);

    error NotWhitelisted(address caller);
    error PoolAlreadyAdded(address pool);
    error PoolNotFound(uint256 id);
    error ZeroAddress();
    /// @notice A factory may add only a pool it names as its own (factory == caller).
    error NotTheFactory(address factory, address caller);
    /// @notice The pool has no code yet (a future address) or its factory does not say it made it.
    error NotCreatedByFactory(address pool, address factory);

    constructor(address owner_) Ownable(owner_) {}

    /// @notice Allows or forbids `account` to add pools.
    function setWhitelisted(address account, bool allowed) external onlyOwner {
        if (account == address(0)) revert ZeroAddress();
        whitelist[account] = allowed;
        emit WhitelistChanged(account, allowed);
    }

    /// @notice Registers a pool the calling factory made; returns its id. The pool is listed.
    function addPool(address factory, address pool, address stakeToken, address implAndTerms) external returns (uint256 id) {
        if (!whitelist[msg.sender]) revert NotWhitelisted(msg.sender);
        if (pool == address(0) || stakeToken == address(0)) revert ZeroAddress();
        if (factory != msg.sender) revert NotTheFactory(factory, msg.sender);
        if (isPool[pool]) revert PoolAlreadyAdded(pool);
        if (pool.code.length == 0 || !_madeBy(msg.sender, pool)) revert NotCreatedByFactory(pool, factory);
        isPool[pool] = true;
        id = _pools.length;
        _idOf[pool] = id;
        _pools.push(Pool(factory, pool, stakeToken, implAndTerms, true));
        _listed.push(id);
        _listedAt[id] = _listed.length;
        emit PoolAdded(id, factory, pool, stakeToken, implAndTerms);
    }

    /// @dev Whether `factory` answers isPoolCreated(pool) with true (an account that cannot answer says no).
    function _madeBy(address factory, address pool) private view returns (bool) {
        (bool ok, bytes memory ret) = factory.staticcall(abi.encodeCall(IPoolFactory.isPoolCreated, (pool)));
        return ok && ret.length == 32 && abi.decode(ret, (bool));
    }

    /// @notice Lists or delists pool `id`. Delisting hides the pool from new claim-and-stakes and the pool list; its
    ///         stakers can still close their stakes (nothing in a pool depends on the registry).
    function setListed(uint256 id, bool listed) external onlyOwner {
        if (id >= _pools.length) revert PoolNotFound(id);
        _pools[id].listed = listed;
        uint256 at = _listedAt[id];
        if (listed && at == 0) {
            _listed.push(id);
            _listedAt[id] = _listed.length;
        } else if (!listed && at != 0) {
            uint256 last = _listed[_listed.length - 1];
            _listed[at - 1] = last;
            _listedAt[last] = at;
            _listed.pop();
            delete _listedAt[id];
        }
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

    /// @notice Every registered pool, listed or not. Its cost grows with the registry: lists read pages of
    ///         getListedPage.
    function getAllPools() external view returns (Pool[] memory) {
        return _pools;
    }

    function getPoolsLength() external view returns (uint256) {
        return _pools.length;
    }

    /// @notice How many pools are listed.
    function getListedCount() external view returns (uint256) {
        return _listed.length;
    }

    /// @notice Up to `limit` listed pools from position `offset` of the listed list: their ids and addresses, and
    ///         where the next page starts (type(uint256).max at the end). Delisted pools are never read.
    function getListedPage(uint256 offset, uint256 limit)
        external
        view
        returns (uint256[] memory ids, address[] memory pools, uint256 next)
    {
        uint256 total = _listed.length;
        uint256 end = offset >= total ? offset : (limit > total - offset ? total : offset + limit);
        ids = new uint256[](end - offset);
        pools = new address[](end - offset);
        for (uint256 k = offset; k < end; ++k) {
            uint256 id = _listed[k];
            ids[k - offset] = id;
            pools[k - offset] = _pools[id].pool;
        }
        next = end < total ? end : type(uint256).max;
    }
}
