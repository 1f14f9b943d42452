/**
 * Plain logic (*.test.ts) runs in Node; components (*.test.tsx) in jsdom. Both live beside the source. test/server runs
 * the API and test/sagas the store's sagas against a real Hardhat node started by the global setup; test/contracts belongs to Hardhat's mocha runner.
 */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src', '<rootDir>/server'],
      testMatch: ['**/*.test.ts'],
    },
    {
      displayName: 'components',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.test.tsx'],
      setupFiles: ['<rootDir>/test/setup/jsdom.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/setup/testingLibrary.ts'],
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/server'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/setup/chain.ts',
      globalTeardown: '<rootDir>/test/setup/chainTeardown.ts',
      testTimeout: 60_000,
    },
    {
      displayName: 'sagas',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/sagas'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/setup/chain.ts',
      globalTeardown: '<rootDir>/test/setup/chainTeardown.ts',
      testTimeout: 60_000,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/e2e'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
      globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
      setupFiles: ['<rootDir>/test/setup/e2eWorker.ts'],
    },
  ],
}
