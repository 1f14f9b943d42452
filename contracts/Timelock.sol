// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// Compiled so the deploy script can put OpenZeppelin's TimelockController in front of every owner power on real
// networks (docs/operations.md): pools, registry, factory, harvest, reservoir and token.
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
