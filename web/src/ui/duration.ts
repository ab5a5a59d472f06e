// One duration format in the console (issue 36 item 5): shown as h:mm:ss (m:ss under an hour),
// typed as h:mm:ss, m:ss or plain seconds. Every Videos screen shows and reads durations through
// these two, so a duration typed anywhere reads back the same everywhere. Pure.

/** 600 -> "10:00", 3723 -> "1:02:03", 59 -> "0:59"; rounded to the second. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * Seconds from `600` (or `12.5`), `10:00`, `75:30` (minutes past an hour without the hour) or
 * `1:02:03`; undefined when it is none of them (seconds or minutes of 60 and over after a colon,
 * a sign, anything else).
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const clock = /^(\d+):([0-5]\d):([0-5]\d)$/.exec(value);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  const short = /^(\d+):([0-5]\d)$/.exec(value);
  if (short) return Number(short[1]) * 60 + Number(short[2]);
  return undefined;
}
