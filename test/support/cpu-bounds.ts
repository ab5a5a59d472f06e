// CPU bounds that hold on any machine of this kind (issue 38): a bound is stated in CPU ms on the
// machine where it was set, and asserted relative to a calibration workload measured in the same
// process at the same time. A clean clone once failed 228 ms against a 200 ms bound on a day when
// a Fastify hello world ran at 20-25k requests/s here instead of 51k: the code had not changed, the
// machine had. The calibration sees the same slowdown (a slower core, a neighbour on the other
// one, a cold cache), so the bound moves with it; the absolute figure is printed beside each
// assertion. The documented targets in CPU ms stay in the benchmarks (bench/README.md).
import { expect } from 'vitest';

/**
 * The calibration workload's CPU on the machine the bounds were set on (node-svc, 2 cores, quiet,
 * 2026-11-28: the least of 3 runs measured 17-20 ms; the bounds themselves were tuned on machines
 * at least that fast). A faster machine keeps the bounds as written (the factor is never below 1).
 */
export const REFERENCE_CALIBRATION_MS = 18;

/**
 * What a request of ours does, in small: build objects, serialize and parse JSON, sort, match
 * and replace strings, fill and read a Map. Deterministic and allocation-heavy like a request.
 */
function calibrationWork(): number {
  let checksum = 0;
  for (let round = 0; round < 6; round++) {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({
      id: i,
      title: `Programme ${i} of round ${round}`,
      start: 1_700_000_000_000 + i * 60_000,
      tags: ['a', 'b', String(i % 7)],
    }));
    const text = JSON.stringify(rows);
    const parsed = JSON.parse(text) as typeof rows;
    parsed.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
    const index = new Map<string, number>();
    for (const row of parsed)
      index.set(
        row.title.replace(/\d+/g, (d) => String(Number(d) * 2)),
        row.id,
      );
    checksum += text.length + index.size;
  }
  return checksum;
}

function cpuMsOf(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The least CPU of a few runs of the calibration workload, now. */
export function calibrationMs(runs = 3): number {
  let least = Infinity;
  for (let run = 0; run < runs; run++) least = Math.min(least, cpuMsOf(calibrationWork));
  return least;
}

let kept: { factor: number; calibrationMs: number; at: number } | undefined;
/** Kept this long: an assertion in a loop does not calibrate per request, yet follows the machine. */
const KEEP_MS = 5_000;

/** How much slower than the reference this machine runs now (at least 1). */
export function machineFactor(): { factor: number; calibrationMs: number } {
  const now = performance.now();
  if (!kept || now - kept.at > KEEP_MS) {
    const measured = calibrationMs();
    kept = { factor: Math.max(1, measured / REFERENCE_CALIBRATION_MS), calibrationMs: measured, at: now };
  }
  return kept;
}

/** A bound of `boundMs` on the reference machine, in this machine's CPU ms now. */
export function scaledBound(boundMs: number): number {
  return boundMs * machineFactor().factor;
}

/**
 * Asserts `cpuMs` is under `boundMs` scaled to this machine, and prints the figures beside it
 * (BOUNDS_REPORT=1 prints every one; a failure's message always says them).
 */
export function expectCpuUnder(cpuMs: number, boundMs: number, label = ''): void {
  const { factor, calibrationMs: calibration } = machineFactor();
  const bound = boundMs * factor;
  const said = `${label ? `${label}: ` : ''}${cpuMs.toFixed(1)} ms of CPU, bound ${boundMs} ms x ${factor.toFixed(2)} (calibration ${calibration.toFixed(1)} ms against ${REFERENCE_CALIBRATION_MS}) = ${bound.toFixed(0)} ms`;
  if (process.env.BOUNDS_REPORT) console.log(said);
  expect(cpuMs, said).toBeLessThan(bound);
}
