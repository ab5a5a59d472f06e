// Set-up of every integration test file (vitest.config.ts): files share worker processes, so the
// module state one file leaves is cleared before the next begins. What holds such state: the
// metrics registry (counters and histograms), the stored-origins allow list (each test app adds
// its operator's origins). Caches keyed by content (zone tables, escaped video text checked
// against the video, images by digest) stay: a later file's data cannot meet a stale entry.
// With TEST_TIMINGS=<file>, also appends the file's own CPU (this process only: not Chromium's,
// PostgreSQL's or a child process's) to <file>.cpu: where the suite's CPU goes (issue 38).
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { forgetStoredOriginsForTests } from '../../src/catalog/fields.ts';
import { registry } from '../../src/observability/metrics.ts';

let started: NodeJS.CpuUsage | undefined;

beforeAll(() => {
  registry.resetMetrics();
  forgetStoredOriginsForTests();
  started = process.cpuUsage();
});

const timings = process.env['TEST_TIMINGS'];
if (timings) {
  afterAll(() => {
    const used = process.cpuUsage(started);
    const file = path.relative(process.cwd(), expect.getState().testPath ?? '?');
    appendFileSync(`${timings}.cpu`, `${((used.user + used.system) / 1e6).toFixed(1).padStart(7)} s  ${file}\n`);
  });
}
