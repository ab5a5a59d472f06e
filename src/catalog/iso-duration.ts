// ISO 8601 durations as YouTube's Data API writes a video's length (`contentDetails.duration`:
// PT1H2M3S, P1DT2H, PT0S for a live stream or premiere). Pure, so the parser is tested alone
// (test/provider-lists.unit.test.ts: format then parse round-trips).

const DURATION_RE = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

/**
 * Seconds of an ISO 8601 duration of weeks, days, hours, minutes and seconds; undefined for
 * anything else (years and months have no fixed length: a video never says them). `P` alone and
 * `PT` alone are not durations.
 */
export function parseIsoDuration(text: string): number | undefined {
  const value = text.trim().toUpperCase();
  if (value === 'P' || value.endsWith('T')) return undefined;
  const match = DURATION_RE.exec(value);
  if (!match) return undefined;
  const [, weeks, days, hours, minutes, seconds] = match;
  const total = Number(weeks ?? 0) * 604_800 + Number(days ?? 0) * 86_400 + Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number((seconds ?? '0').replace(',', '.'));
  return Number.isFinite(total) ? total : undefined;
}

/** Whole seconds as YouTube writes them: 3723 -> PT1H2M3S, 90000 -> P1DT1H, 0 -> PT0S. */
export function formatIsoDuration(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const days = Math.floor(whole / 86_400);
  const hours = Math.floor((whole % 86_400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds ? `${seconds}S` : ''}`;
  if (days === 0) return `PT${time || '0S'}`;
  return `P${days}D${time ? `T${time}` : ''}`;
}
