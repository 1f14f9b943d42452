// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title PlatformToken
/// @notice The platform's 18-decimal ERC20 with EIP-2612 permits (domain: the token's name, version "1", chain id,
///         address), so a stake can be approved and made in one signature (StakingPoolBase.stakeWithPermit). Only the
///         owner mints (vesting allocations, reservoir funding, demo balances).
contract PlatformToken is ERC20, ERC20Permit, Ownable {
    constructor(string memory name_, string memory symbol_, address owner_)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
        Ownable(owner_)
    {}

    /// @notice Mints `amount` base units to `to`.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
