// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IRegistry {
    function addPool(address factory, address pool, address stakeToken, address implAndTerms) external returns (uint256);
}

/// @notice An empty contract: what a junk registry entry points at.
contract Junk {}

/// @notice Test double of a whitelisted registry caller that lies (finding 4 of "pools that keep their word"): it says
///         it created any pool, registers addresses it did not make (another factory's next clone address, junk
///         contracts, broken pools), and can fill the registry with junk in bulk.
contract JamFactory {
    IRegistry public immutable registry;

    constructor(IRegistry registry_) {
        registry = registry_;
    }

    /// @notice "Yes, I made it", whatever it is.
    function isPoolCreated(address) external pure returns (bool) {
        return true;
    }

    /// @notice Registers `pool` as its own.
    function register(address pool, address stakeToken) external returns (uint256) {
        return registry.addPool(address(this), pool, stakeToken, address(this));
    }

    /// @notice Deploys and registers `count` junk contracts.
    function spam(uint256 count, address stakeToken) external {
        for (uint256 i; i < count; ++i) registry.addPool(address(this), address(new Junk()), stakeToken, address(this));
    }
}
