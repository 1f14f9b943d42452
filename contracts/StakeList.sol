// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title StakeList
/// @notice A permutation of stake ids packed eight to a storage word (32 bits each). Each entry holds id XOR position,
///         so an entry never written reads as its own position: a list where stake n sits at position n costs no
///         writes at all, and only the entries a close moves are stored.
library StakeList {
    function get(mapping(uint256 => uint256) storage words, uint256 position) internal view returns (uint256) {
        return uint32(words[position >> 3] >> ((position & 7) << 5)) ^ position;
    }

    function set(mapping(uint256 => uint256) storage words, uint256 position, uint256 id) internal {
        uint256 shift = (position & 7) << 5;
        uint256 word = words[position >> 3];
        uint256 entry = uint32(id ^ position);
        words[position >> 3] = (word & ~(uint256(type(uint32).max) << shift)) | (entry << shift);
    }
}
