// The one source of "now". Domain code takes a `now: Date` argument and never reads the
// system clock itself; HTTP requests get theirs from `requestNow` (see http/clock-plugin.ts),
// which honours the X-Test-Now header when the test clock is enabled.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** Parses an X-Test-Now value: an ISO 8601 instant with Z or an offset. */
export function parseTestNow(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
