// How many bytes a cached answer holds, so the catalog cache can be bounded by memory rather
// than by a count of entries (one answer can embed a 500 KB image, another is a few bytes).
// Strings and byte arrays are measured exactly: a string counts 2 bytes per UTF-16 code unit
// (V8 stores it in 1 or 2, so this is its largest footprint), a Buffer or typed array its
// byteLength. Everything else is a cheap estimate of V8's layout, one pass over the value,
// which loading it has already paid for: 8 bytes per number, boolean, null or reference,
// plus a header per object, array, Map, Set or Date. Shared objects are counted once.

const HEADER = 32; // an object's hidden-class pointer, properties and elements (rounded up)
const SLOT = 8; // one tagged value: a number, a pointer, a boolean or null

export function estimateBytes(value: unknown): number {
  return measure(value, new Set());
}

function measure(value: unknown, seen: Set<object>): number {
  if (typeof value === 'string') return HEADER / 2 + value.length * 2;
  if (typeof value === 'bigint') return HEADER / 2 + Math.ceil(value.toString(16).length / 2);
  if (typeof value !== 'object' || value === null) return SLOT;
  if (seen.has(value)) return SLOT;
  seen.add(value);
  if (ArrayBuffer.isView(value)) return HEADER + value.byteLength;
  if (value instanceof ArrayBuffer) return HEADER + value.byteLength;
  if (value instanceof Date) return HEADER + SLOT;
  if (Array.isArray(value)) return HEADER + value.reduce((sum: number, item) => sum + SLOT + measure(item, seen), 0);
  if (value instanceof Map) {
    let sum = HEADER;
    for (const [key, item] of value) sum += 2 * SLOT + measure(key, seen) + measure(item, seen);
    return sum;
  }
  if (value instanceof Set) {
    let sum = HEADER;
    for (const item of value) sum += SLOT + measure(item, seen);
    return sum;
  }
  let sum = HEADER;
  for (const key in value) {
    if (Object.hasOwn(value, key)) sum += SLOT + measure(key, seen) + measure((value as Record<string, unknown>)[key], seen);
  }
  return sum;
}
