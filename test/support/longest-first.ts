// Runs the longest test files first, by the durations of a recorded full run
// (test/support/durations.json, from CI's log): with three workers on two cores, a 60 s file
// started last holds the whole run open after the others are done. Vitest orders by its own cache
// of durations, which a clean checkout (CI) does not have. Files not in the list (new ones) run
// among those of a middling duration. Refresh the list from a full run's log when it drifts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const RECORDED: Record<string, number> = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8'));
const MIDDLING = 5_000;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const duration = (file: TestSpecification) => RECORDED[path.relative(root, file.moduleId).split(path.sep).join('/')] ?? MIDDLING;
    // Projects still run one after the other (integration, then the short unit project).
    return [...files].sort((a, b) => (a.project.name === b.project.name ? duration(b) - duration(a) : a.project.name < b.project.name ? -1 : 1));
  }
}
