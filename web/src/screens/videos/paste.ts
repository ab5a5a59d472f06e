// The "paste a list" format of the Videos screen: one video per line,
//   title | duration | provider | provider video id [| description]
// where duration is seconds (600) or a clock (10:00, 1:02:03). Blank lines and lines starting
// with # are skipped. Pure, so the format is tested without a browser.
import type { NewVideo } from '../../api/types.ts';

export type { NewVideo };

export interface PastedLine {
  /** 1-based line number in the pasted text. */
  line: number;
  video: NewVideo;
}

export interface PasteProblem {
  line: number;
  message: string;
}

export const MAX_PASTED = 1000;

/** Seconds from `600`, `10:00` or `1:02:03`; undefined when it is neither. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const match = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)$/.exec(value);
  if (!match) return undefined;
  return Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

export function parsePastedVideos(text: string): { videos: PastedLine[]; problems: PasteProblem[] } {
  const videos: PastedLine[] = [];
  const problems: PasteProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const parts = raw.split(/\s*[|\t]\s*/).map((part) => part.trim());
    const [title = '', duration = '', providerName = '', providerVideoId = '', ...rest] = parts;
    if (parts.length < 4) return problems.push({ line, message: 'expected title | duration | provider | provider video id' });
    if (title === '') return problems.push({ line, message: 'title is empty' });
    const durationSeconds = parseDuration(duration);
    if (durationSeconds === undefined) return problems.push({ line, message: `duration "${duration}" is not seconds or h:mm:ss` });
    if (providerName === '' || providerVideoId === '') return problems.push({ line, message: 'provider and provider video id are required' });
    const description = rest.join(' | ').trim();
    videos.push({ line, video: { title, durationSeconds, providerName, providerVideoId, ...(description ? { description } : {}) } });
  });
  if (videos.length > MAX_PASTED) problems.push({ line: videos[MAX_PASTED]!.line, message: `at most ${MAX_PASTED} videos in one paste` });
  return { videos, problems };
}

/**
 * The API names a bulk item by its index (`[3].title: ...`); this maps such details back to
 * the pasted line they came from.
 */
export function problemsFromDetails(details: readonly { path: string; message: string }[], lines: readonly PastedLine[]): PasteProblem[] {
  return details.map((detail) => {
    const match = /^\[(\d+)\]\.?(.*)$/.exec(detail.path);
    const item = match ? lines[Number(match[1])] : undefined;
    if (!match || !item) return { line: 0, message: detail.path ? `${detail.path}: ${detail.message}` : detail.message };
    return { line: item.line, message: match[2] ? `${match[2]}: ${detail.message}` : detail.message };
  });
}

/** 600 -> "10:00", 3723 -> "1:02:03". */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
