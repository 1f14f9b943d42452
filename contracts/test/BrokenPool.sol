// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Test double for a bad entry in PoolsInfo (issue 12, finding 6): a contract a whitelisted registry caller
///         could list, whose views fail in one of several ways. The Lens's pool list must leave it out and still
///         return every other pool.
contract BrokenPool {
    enum Mode {
        Revert, // every view reverts with a reason
        Garbage, // views return too little data to decode
        NotAToken, // stakeToken() is an address with no code
        BurnGas // views consume all the gas they are given (INVALID opcode)
    }

    Mode public immutable mode;
    address public immutable token;

    error Broken();

    constructor(Mode mode_, address token_) {
        mode = mode_;
        token = token_;
    }

    /// @notice Answers stakeToken() per the mode; any other view fails the same way.
    function stakeToken() external view returns (address) {
        if (mode == Mode.NotAToken) return address(0xdead);
        _fail();
        return token;
    }

    fallback() external {
        _fail();
    }

    function _fail() private view {
        if (mode == Mode.Revert) revert Broken();
        if (mode == Mode.Garbage) {
            assembly {
                mstore(0, 1)
                return(0, 1)
            }
        }
        if (mode == Mode.BurnGas) {
            assembly {
                invalid()
            }
        }
    }
}
