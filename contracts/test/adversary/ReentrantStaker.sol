// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IAdvPool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
    function sweep() external returns (uint256);
    function restake(uint256[] calldata ids, uint256 holdTime, uint256 maxFee, uint256 minBonus, uint256 minReward)
        external
        returns (uint256);
}

/// @notice Attacker for a hook token: when the pool pays it, it tries to close the same stake again, to stake, and to
///         sweep, all from inside the pool's transfer, and, once given ids (setRestake), to restake them. Records which
///         re-entries succeeded, and the error selector of each one refused.
contract AdvReentrantStaker {
    IAdvPool public pool;
    IERC20 public token;
    uint256 public reenterId;
    bool public armed;
    uint256 public attempts;
    uint256 public successes;
    uint256[] internal _restakeIds;
    bytes4[] internal _errors;

    function setup(IAdvPool pool_, IERC20 token_) external {
        pool = pool_;
        token = token_;
        token_.approve(address(pool_), type(uint256).max);
    }

    function doStake(uint256 amount, uint256 hold) external returns (uint256) {
        return pool.stake(amount, hold);
    }

    /// @notice Restakes its own stakes `ids` (any fee, no minimums): the pool refuses what is not a matured stake of
    ///         this contract.
    function doRestake(uint256[] calldata ids, uint256 hold) external returns (uint256) {
        return pool.restake(ids, hold, type(uint256).max, 0, 0);
    }

    /// @notice Stakes to restake from inside the next payment (none: no restake attempt).
    function setRestake(uint256[] calldata ids) external {
        _restakeIds = ids;
    }

    /// @notice The selectors of the errors the refused re-entries reverted with, in order.
    function errors() external view returns (bytes4[] memory) {
        return _errors;
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
        } catch (bytes memory reason) {
            _errors.push(bytes4(reason));
        }
        ++attempts;
        try pool.stake(1e18, 1 days) {
            ++successes;
        } catch (bytes memory reason) {
            _errors.push(bytes4(reason));
        }
        ++attempts;
        try pool.sweep() {
            ++successes;
        } catch (bytes memory reason) {
            _errors.push(bytes4(reason));
        }
        if (_restakeIds.length == 0) return;
        ++attempts;
        try pool.restake(_restakeIds, 1 days, type(uint256).max, 0, 0) {
            ++successes;
        } catch (bytes memory reason) {
            _errors.push(bytes4(reason));
        }
    }
}
