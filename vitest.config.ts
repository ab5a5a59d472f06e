// Three projects (README: Tests); `npm test` runs unit and integration together, then bounds alone:
// - unit: *.unit.test.ts and the console's helper tests (web/src) — no database, server, browser
//   or process (test/unit-rule.unit.test.ts checks every import chain). `npm run test:unit`.
// - integration: every other test; its global set-up builds the console, migrates one PGlite data
//   directory and (with TEST_DATABASE_URL) one PostgreSQL template for the whole run, and starts
//   the one Chromium the console tests share.
// - bounds: the files that assert CPU bounds, one at a time on a machine otherwise idle.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BOUNDS } from './test/bounds-files.ts';

const UNIT = ['test/**/*.unit.test.ts', 'web/src/**/*.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Vitest's default is one worker per core less one: a single worker on a 2-core machine, idle
    // while a test waits for PostgreSQL, Chromium or a channelnet process. One more worker than
    // cores keeps both busy. Each test file still runs in its own process (pool "forks",
    // isolated), so process.cpuUsage() bounds in tests see only their own file's work.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits 1 s by default: a browser screen still loading its data on a slow or busy
    // machine failed CI (a slot's roll combobox read '' while its collections loaded). A poll ends
    // as soon as it passes, so a longer ceiling costs only a failing test's time.
    expect: { poll: { timeout: 20_000 } },
    // New password hashes at N=2^14 instead of 2^17: imports hash every account's password.
    env: { CHANNELNET_TEST_SCRYPT_COST: '14' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...BOUNDS],
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'bounds',
          include: [...BOUNDS],
          globalSetup: ['test/global-setup.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});
