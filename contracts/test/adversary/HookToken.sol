// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

interface ITokenHook {
    function onTokenTransfer(address from, address to, uint256 amount) external;
}

/// @notice Adversarial test token: an ERC20 that calls a hook on the sender and the recipient of every transfer
///         (ERC777 style), so that a contract on either side can try to re-enter the pool mid-transfer. A failing
///         hook does not fail the transfer (the hook records what it managed to do).
contract AdvHookToken is ERC20 {
    constructor() ERC20("Hook", "HOOK") {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (from != address(0) && from.code.length != 0) _hook(from, from, to, value);
        if (to != address(0) && to.code.length != 0) _hook(to, from, to, value);
    }

    function _hook(address target, address from, address to, uint256 value) private {
        (bool ok, ) = target.call(abi.encodeCall(ITokenHook.onTokenTransfer, (from, to, value)));
        ok;
    }
}
