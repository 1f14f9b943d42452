// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Test double for the pool-list finding (issue "pools that keep their word", finding 4): an ERC20 whose
///         name() and symbol() return `size` bytes, built in memory at each call (cheap to deploy, costly to read).
contract HugeNameToken is ERC20 {
    uint256 public immutable size;

    constructor(uint256 size_) ERC20("", "") {
        size = size_;
        _mint(msg.sender, 1e30);
    }

    function name() public view override returns (string memory) {
        return string(new bytes(size));
    }

    function symbol() public view override returns (string memory) {
        return string(new bytes(size));
    }
}
