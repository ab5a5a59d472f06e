// Every test file that measures a request's CPU runs in the `bounds` project, alone
// (test/bounds-files.ts): measured among other files, a bound fails on the machine's load.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOUNDS } from './bounds-files.ts';

const MEASURES = /\b(cpuOf|leastCpu|cpuUsage)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.test.ts') && !entry.name.endsWith('.unit.test.ts') ? [file] : [];
  });
}

describe('the bounds project', () => {
  it('holds every test file that measures CPU, and only existing files', () => {
    const measuring = testFiles('test').filter((file) => MEASURES.test(readFileSync(file, 'utf8')));
    expect([...BOUNDS].sort()).toEqual(measuring.sort());
  });
});
