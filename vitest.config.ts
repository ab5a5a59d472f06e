import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 30_000,
    // New password hashes at N=2^14 instead of 2^17: imports hash every account's password.
    env: { CHANNELNET_TEST_SCRYPT_COST: '14' },
    hookTimeout: 60_000,
  },
});
