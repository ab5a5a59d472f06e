// The one seeded pseudo-random generator (mulberry32): small, fast and the same on every machine
// and Node version, so a seed means the same shuffle, the same demo catalog and the same bench
// network everywhere. Not for anything secret (node:crypto is).

/** Numbers in [0, 1) from `seed`, the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
