// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IAdvPool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
    function sweep() external returns (uint256);
}

/// @notice Attacker for a hook token: when the pool pays it, it tries to close the same stake again, to stake, and to
///         sweep, all from inside the pool's transfer. Records which re-entries succeeded.
contract AdvReentrantStaker {
    IAdvPool public pool;
    IERC20 public token;
    uint256 public reenterId;
    bool public armed;
    uint256 public attempts;
    uint256 public successes;

    function setup(IAdvPool pool_, IERC20 token_) external {
        pool = pool_;
        token = token_;
        token_.approve(address(pool_), type(uint256).max);
    }

    function doStake(uint256 amount, uint256 hold) external returns (uint256) {
        return pool.stake(amount, hold);
    }

    function attack(uint256 id) external {
        reenterId = id;
        armed = true;
        uint256[] memory ids = new uint256[](1);
        ids[0] = id;
        pool.unstake(ids);
        armed = false;
    }

    function onTokenTransfer(address from, address, uint256) external {
        if (!armed || msg.sender != address(token) || from != address(pool)) return;
        armed = false;
        uint256[] memory ids = new uint256[](1);
        ids[0] = reenterId;
        ++attempts;
        try pool.unstake(ids) {
            ++successes;
        } catch {}
        ++attempts;
        try pool.stake(1e18, 1 days) {
            ++successes;
        } catch {}
        ++attempts;
        try pool.sweep() {
            ++successes;
        } catch {}
    }
}
