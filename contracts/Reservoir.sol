// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Reservoir
/// @notice Holds reward tokens. Pools draw inflation and stake bonuses from it through ERC20 allowances that only the
///         owner grants, so the owner decides how much each pool may ever take. Every allowance is backed: the owner
///         can grant a pool only what the balance holds beyond what the other pools may already draw, so the sum of
///         the allowances never passes the balance (draws lower both alike; what pools send back only adds to it).
///         One pool's burst of stakes, however large and at whatever fee, can use up only that pool's allowance,
///         never what another pool may draw. The owner can take back funds (which may leave allowances unbacked: the
///         owner's choice, visible in `free`); it has no power over anything staked in a pool.
contract Reservoir is Ownable {
    using SafeERC20 for IERC20;

    /// @notice Pools ever approved for each token (their allowances make up what is committed).
    mapping(IERC20 => address[]) private _pools;
    mapping(IERC20 => mapping(address => bool)) private _known;

    event PoolApproved(address indexed token, address indexed pool, uint256 amount);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);

    error ZeroAddress();
    /// @notice The allowance asked is more than the balance holds beyond what the other pools may draw (`free`).
    error AllowanceNotBacked(uint256 amount, uint256 free);

    constructor(address owner_) Ownable(owner_) {}

    /// @notice Lets `pool` draw up to `amount` of `token` (replaces any earlier allowance). `amount` must be backed:
    ///         at most the balance less what the other pools may draw (approvable); type(uint256).max asks for all of
    ///         that.
    function approvePool(IERC20 token, address pool, uint256 amount) external onlyOwner {
        if (pool == address(0)) revert ZeroAddress();
        if (amount != 0) {
            uint256 most = approvable(token, pool);
            if (amount == type(uint256).max) amount = most;
            else if (amount > most) revert AllowanceNotBacked(amount, most);
        }
        if (!_known[token][pool]) {
            _known[token][pool] = true;
            _pools[token].push(pool);
        }
        token.forceApprove(pool, amount);
        emit PoolApproved(address(token), pool, amount);
    }

    /// @notice Sends `amount` of the reservoir's own `token` to `to`.
    function withdraw(IERC20 token, address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        token.safeTransfer(to, amount);
        emit Withdrawn(address(token), to, amount);
    }

    /// @notice What `pool` can draw of `token` right now: the smaller of the balance and the pool's allowance.
    function available(IERC20 token, address pool) public view returns (uint256) {
        uint256 balance = token.balanceOf(address(this));
        uint256 allowed = token.allowance(address(this), pool);
        return balance < allowed ? balance : allowed;
    }

    /// @notice The balance beyond what all pools may draw: what approvePool can still grant, what pools sent back.
    function free(IERC20 token) external view returns (uint256) {
        uint256 committed = _committed(token, address(0));
        uint256 balance = token.balanceOf(address(this));
        return balance > committed ? balance - committed : 0;
    }

    /// @notice The most approvePool can let `pool` draw now: the balance less what the other pools may draw.
    function approvable(IERC20 token, address pool) public view returns (uint256) {
        uint256 others = _committed(token, pool);
        uint256 balance = token.balanceOf(address(this));
        return balance > others ? balance - others : 0;
    }

    /// @notice The pools approved for `token`, ever.
    function getPools(IERC20 token) external view returns (address[] memory) {
        return _pools[token];
    }

    /// @dev What the pools other than `except` may draw: the sum of their allowances.
    function _committed(IERC20 token, address except) private view returns (uint256 sum) {
        address[] storage pools = _pools[token];
        for (uint256 i; i < pools.length; ++i) {
            if (pools[i] != except) sum += token.allowance(address(this), pools[i]);
        }
    }
}
