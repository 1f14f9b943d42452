import { expect } from 'chai'
import hre from 'hardhat'
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from 'hardhat/builtin-tasks/task-names'

describe('offline compiler', () => {
  it('hands Hardhat the npm solc-js build for 0.8.28', async () => {
    const build = await hre.run(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, { quiet: true, solcVersion: '0.8.28' })
    expect(build.isSolcJs).to.equal(true)
    expect(build.compilerPath).to.match(/soljson\.js$/)
    expect(build.longVersion).to.match(/^0\.8\.28\+commit/)
  })

  it('refuses any other version with a message instead of a download', async () => {
    let message = ''
    try {
      await hre.run(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, { quiet: true, solcVersion: '0.8.20' })
    } catch (err) {
      message = (err as Error).message
    }
    expect(message).to.contain('Solidity 0.8.20 was requested')
    expect(message).to.contain('only the npm solc package (0.8.28) is available offline')
  })
})
