/** Stands in for ethers v5's @ethersproject/address inside web3-react, backed by ethers v6. */
export { getAddress, isAddress } from 'ethers'
