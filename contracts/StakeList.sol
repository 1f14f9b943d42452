// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title StakeList
/// @notice A list of stake ids packed eight to a storage word (ids are uint32), indexed from 0. The length is kept by
///         the caller, in a slot it writes anyway, so appending costs one word write and usually not a fresh one.
library StakeList {
    function get(mapping(uint256 => uint256) storage words, uint256 i) internal view returns (uint256) {
        return uint32(words[i >> 3] >> ((i & 7) << 5));
    }

    function set(mapping(uint256 => uint256) storage words, uint256 i, uint256 id) internal {
        uint256 shift = (i & 7) << 5;
        uint256 word = words[i >> 3];
        words[i >> 3] = (word & ~(uint256(type(uint32).max) << shift)) | (uint256(uint32(id)) << shift);
    }
}
