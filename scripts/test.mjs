// npm test: everything CI checks, in the least wall time two cores allow (issue 38: under 8 min).
// Two lanes at once, then the bounds alone:
// - the checks: type checks (server and console), lint, then the Node 24 phase (the unit project
//   and a start-and-serve smoke on Node 24). Their output is held and printed when they end, so
//   it does not interleave with the tests';
// - the unit and integration projects (vitest.config.ts): they wait on Chromium, PostgreSQL and
//   child processes much of the time, and the checks fill those gaps;
// - then the bounds project, which asserts CPU figures and so runs with nothing else of ours
//   beside it (test/bounds-files.ts).
// Exits non-zero when any step fails; every step runs (a lint finding does not hide a test's).
import { spawn } from 'node:child_process';

const CHECKS = [
  ['npx', ['tsc', '--noEmit']],
  ['npx', ['tsc', '-p', 'web', '--noEmit']],
  ['npm', ['run', '--silent', 'lint']],
  ['npm', ['run', '--silent', 'test:node24']],
];
const TESTS = ['npx', ['vitest', 'run', '--project', 'unit', '--project', 'integration']];
const BOUNDS = ['npx', ['vitest', 'run', '--project', 'bounds']];

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Runs a command; resolves with its exit code and, when `held`, its output (stdout and stderr, in order). */
function run([command, args], held = false) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: Buffer.from(String(error)) }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }));
  });
}

async function checks() {
  const started = performance.now();
  const failed = [];
  for (const step of CHECKS) {
    const stepStarted = performance.now();
    const { code, output } = await run(step, true);
    const name = [step[0], ...step[1]].join(' ');
    process.stdout.write(`\n[checks] ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds(stepStarted)}\n`);
    if (code !== 0 || output.length > 0) process.stdout.write(output);
    if (code !== 0) failed.push(name);
  }
  process.stdout.write(`[checks] done in ${seconds(started)}\n`);
  return failed;
}

const started = performance.now();
const [failedChecks, tests] = await Promise.all([checks(), run(TESTS)]);
const failed = [...failedChecks];
if (tests.code !== 0) failed.push('vitest unit and integration');
process.stdout.write(`\n[test] checks, unit and integration: ${seconds(started)}\n`);
const boundsStarted = performance.now();
if ((await run(BOUNDS)).code !== 0) failed.push('vitest bounds');
process.stdout.write(`[test] bounds: ${seconds(boundsStarted)}; npm test in all: ${seconds(started)}\n`);
if (failed.length > 0) {
  process.stdout.write(`[test] FAILED: ${failed.join('; ')}\n`);
  process.exit(1);
}
