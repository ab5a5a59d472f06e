// The "paste a list" format of the Videos screen: one video per line,
//   title | duration | provider | provider video id [| description]
// where duration is seconds (600) or a clock (10:00, 1:02:03: ui/duration.ts). Blank lines and lines starting
// with # are skipped. Pure, so the format is tested without a browser.
import type { NewVideo } from '../../api/types.ts';
import { parseDuration } from '../../ui/duration.ts';

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
