// Ends the run with the plain line `tests: N passed, N failed, N skipped`, which CI reads
// to tell a run that tested something from one that ran nothing. With TEST_TIMINGS=<file>, also
// appends each test file's wall time, slowest first: where the suite's minutes go (issue 38).
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
    const timings = process.env['TEST_TIMINGS'];
    if (timings) {
      const lines = testModules
        .map((m) => ({ ms: m.diagnostic().duration, file: path.relative(process.cwd(), m.moduleId) }))
        .sort((a, b) => b.ms - a.ms)
        .map(({ ms, file }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
      appendFileSync(timings, `${lines.join('\n')}\n`);
    }
  }
}
