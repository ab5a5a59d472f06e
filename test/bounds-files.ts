// The vitest project `bounds` (vitest.config.ts).
/**
 * The files that assert CPU bounds (process.cpuUsage around a request). They run in a project of
 * their own, one file at a time after the others (`npm test` runs it last), each file in a process
 * of its own (the other projects' files share processes): under three workers
 * on two cores the same request measured 1.5-2.5x its quiet CPU, and the bounds failed on load,
 * not on the code. test/bounds-rule.unit.test.ts keeps this list whole.
 */
export const BOUNDS: readonly string[] = [
  'test/analytics-bounds.test.ts',
  'test/epg-network.test.ts',
  'test/fuzz/bounds.test.ts',
  'test/hardening-bounds.test.ts',
  'test/hardening-edge.test.ts',
  'test/hardening-locked-videos.test.ts',
  'test/hardening-roku.test.ts',
  'test/linear-bounds.test.ts',
  'test/linear-ingest.test.ts',
  'test/list-bounds.test.ts',
  'test/owner-bounds.test.ts',
  'test/programming-bounds.test.ts',
  'test/rollup-bounds.test.ts',
  'test/schedule-write-bounds.test.ts',
  'test/studio-ids.test.ts',
  'test/studio-owner-rules.test.ts',
];
