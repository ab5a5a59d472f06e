// Three projects (README: Tests); `npm test` (scripts/test.mjs) runs unit and integration together,
// beside the type checks and lint, then bounds alone:
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
    // cores keeps both busy. Integration files share worker processes (below); the bounds files
    // each run in a process of their own, so process.cpuUsage() sees only their own file's work.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits 1 s by default: a browser screen still loading its data on a slow or busy
    // machine failed CI (a slot's roll combobox read '' while its collections loaded). A poll ends
    // as soon as it passes, so a longer ceiling costs only a failing test's time.
    expect: { poll: { timeout: 20_000 } },
    // New password hashes at N=2^11 instead of 2^17: imports hash every account's password, and
    // at 2^14 the hashing was a fifth of the CPU of the sign-in-heavy files. Above 2^10, the cost
    // test/passwords.unit.test.ts makes an "old" hash with, which must still ask for a rehash.
    env: { CHANNELNET_TEST_SCRYPT_COST: '11' },
    projects: [
      {
        extends: true,
        // Pure modules: files share worker processes as the integration files do (below).
        test: { name: 'unit', include: UNIT, isolate: process.env.VITEST_ISOLATE === '1' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // Files share worker processes (each worker runs file after file with the modules it
          // loaded): loading the server's modules in a new process per file was 200 s of the
          // run's worker time (measured: 665 s -> 529 s of wall time, 959 -> 686 s of CPU).
          // What a file leaves in module state is cleared before the next (test/support/per-file.ts);
          // a file that replaces a module's part puts it back (the password hasher).
          // VITEST_ISOLATE=1 runs each file in its own process, as before.
          isolate: process.env.VITEST_ISOLATE === '1',
          setupFiles: ['test/support/per-file.ts'],
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
          // One file at a time. BOUNDS_WORKERS=2 runs two (each still in its own process): 161 s
          // instead of 253 s on 2 cores, green, but the requests measured up to 10% more CPU
          // while the calibration moved 0-10%, so the default stays one (bench/README.md).
          maxWorkers: Number(process.env.BOUNDS_WORKERS ?? 1),
        },
      },
    ],
  },
});
