// "Add from URLs" on the Videos screen, its pure part: pasted text to URLs, the Studio's lookup to
// rows the creator completes (YouTube's oEmbed gives no duration, its Data API does when the
// operator set a key; offline, nothing is fetched; a pasted playlist, channel or showcase comes
// back as its videos' rows), duplicates left out unless added anyway,
// rows to the bodies POST /videos takes, and the API's `[i].field` details back to their rows.
import type { NewVideo, VideoLookup, VideoLookupItem } from '../../api/types.ts';
import { formatDuration, parseDuration } from '../../ui/duration.ts';
import { MAX_PASTED } from './paste.ts';

export interface UrlRow {
  url: string;
  /** Why the URL cannot be added (not a video URL); the row is then only shown. */
  problem: string | null;
  providerName: string;
  providerVideoId: string;
  thumbnailUrl: string;
  title: string;
  /** As typed: seconds or 10:00. */
  duration: string;
  description: string;
  /** What the provider said, in words, when it said nothing useful. */
  note: string | null;
  /** Why the row is left out (a video already in the library, or named by an earlier line); null: added. */
  leftOut: string | null;
  /** A row left out as a duplicate that the creator adds all the same. */
  addAnyway: boolean;
  /** The pasted playlist, channel or showcase it came from, in words; null for a pasted video URL. */
  from: string | null;
}

type ListLookup = VideoLookup['lists'][number];

/** A pasted list in words: `YouTube playlist PL1`, `the uploads of @harbour (“Harbour Films”)`. */
export const listName = (list: ListLookup): string => (list.title ? `${list.name} (“${list.title}”)` : list.name);

/** What each pasted list gave, a line each: how many videos, or why fewer or none. */
export function listNotes(lists: readonly ListLookup[]): { text: string; problem: boolean }[] {
  return lists.map((list) => {
    const count = list.videos === 1 ? '1 video' : `${list.videos} videos`;
    const said = list.lookup === 'found' ? `${count}${list.message ? `; ${list.message}` : ''}` : (list.message ?? 'nothing read');
    return { text: `${listName(list)}: ${said}`, problem: list.lookup !== 'found' || list.cut };
  });
}

/** One URL per line; blank lines and # comments skipped; repeats kept once. */
export function urlsOf(text: string): string[] {
  const urls = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return [...new Set(urls)].slice(0, MAX_PASTED);
}

export function rowOf(item: VideoLookupItem, lists: readonly ListLookup[] = []): UrlRow {
  const video = item.video;
  const missing = item.missing.length > 0 ? `fill in ${item.missing.map((m) => (m === 'durationSeconds' ? 'the duration' : 'the title')).join(' and ')}` : null;
  // What the provider said when it matters: why nothing came, or why a found video has no duration (a live stream).
  const said = item.lookupMessage;
  const list = item.list === null ? undefined : lists[item.list];
  return {
    url: item.url,
    problem: item.problem,
    providerName: video?.providerName ?? '',
    providerVideoId: video?.providerVideoId ?? '',
    thumbnailUrl: video?.thumbnailUrl ?? '',
    title: video?.title ?? '',
    duration: video?.durationSeconds !== undefined ? formatDuration(video.durationSeconds) : '',
    description: video?.description ?? '',
    note: [said, missing].filter((part): part is string => part !== null).join(': ') || null,
    leftOut: item.existing
      ? `already in your videos as “${item.existing.title}” (video ${item.existing.videoId}): left out`
      : item.repeatOf !== null
        ? `the same video as line ${item.repeatOf + 1}: left out`
        : null,
    addAnyway: false,
    from: list ? listName(list) : null,
  };
}

export type RowErrors = Record<string, string>;

/**
 * The bodies to create (rows left out skipped; `rowOf[k]` is body k's row), or per-row errors (by
 * row index) found before asking the API.
 */
export function bodiesOf(rows: readonly UrlRow[]): { bodies: NewVideo[]; rowOf: number[]; errors: Map<number, RowErrors> } {
  const errors = new Map<number, RowErrors>();
  const rowOf = rows.flatMap((row, i) => (row.leftOut && !row.addAnyway ? [] : [i]));
  const bodies = rowOf.map((i) => {
    const row = rows[i]!;
    const problems: RowErrors = {};
    if (row.problem) problems['url'] = row.problem;
    if (row.title.trim() === '') problems['title'] = 'enter a title';
    const seconds = parseDuration(row.duration);
    if (seconds === undefined || seconds <= 0)
      problems['durationSeconds'] = row.duration.trim() === '' ? 'enter the duration (seconds or 10:00)' : `"${row.duration}" is not seconds or h:mm:ss above 0`;
    if (Object.keys(problems).length > 0) errors.set(i, problems);
    return {
      url: row.url,
      title: row.title.trim(),
      durationSeconds: seconds ?? 0,
      ...(row.thumbnailUrl ? { thumbnailUrl: row.thumbnailUrl } : {}),
      ...(row.description ? { description: row.description } : {}),
    };
  });
  return { bodies, rowOf, errors };
}

/** `[3].title: must not be empty` as row 3's title error; details naming no row are returned apart. */
export function rowErrorsFromDetails(details: readonly { path: string; message: string }[]): { rows: Map<number, RowErrors>; other: string[] } {
  const rows = new Map<number, RowErrors>();
  const other: string[] = [];
  for (const detail of details) {
    const match = /^\[(\d+)\]\.?([A-Za-z]*)/.exec(detail.path);
    if (!match) {
      other.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
      continue;
    }
    const index = Number(match[1]);
    const field = match[2] || 'url';
    rows.set(index, { ...rows.get(index), [field]: detail.message });
  }
  return { rows, other };
}
