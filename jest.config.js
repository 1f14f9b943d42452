/**
 * Plain logic (*.test.ts) runs in Node; components (*.test.tsx) in jsdom. Both live beside the source. Tests needing
 * a node or a server live in test/sagas and test/server and get their own projects as those layers arrive;
 * test/contracts belongs to Hardhat's mocha runner.
 */
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.test.ts'],
    },
    {
      displayName: 'components',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/src'],
      testMatch: ['**/*.test.tsx'],
      setupFiles: ['<rootDir>/test/setup/jsdom.ts'],
    },
  ],
}
