// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Reservoir
/// @notice Holds reward tokens. Pools draw inflation and stake bonuses from it through ERC20 allowances that only the
///         owner grants, so the owner decides how much each pool may ever take. The owner can also take its own funds
///         back; it has no power over anything staked in a pool.
contract Reservoir is Ownable {
    using SafeERC20 for IERC20;

    event PoolApproved(address indexed token, address indexed pool, uint256 amount);
    event Withdrawn(address indexed token, address indexed to, uint256 amount);

    error ZeroAddress();

    constructor(address owner_) Ownable(owner_) {}

    /// @notice Lets `pool` draw up to `amount` of `token` (replaces any earlier allowance).
    function approvePool(IERC20 token, address pool, uint256 amount) external onlyOwner {
        if (pool == address(0)) revert ZeroAddress();
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
}
