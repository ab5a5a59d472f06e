// A channel's linear output settings (GET/PUT /api/v1/studio/channels/{id}/linear, docs/linear.md):
// on or off, the fixed ladder and container, the one target duration, the window, the epoch.
// - The ladder defaults to the channel's first ready HLS video's; the container with it.
// - v1 stitches MPEG-TS only: an fMP4 ladder is refused in words (the shipped slate is TS, and a
//   channel must air the slate at every rung).
// - The target duration never changes once the channel has aired (a ledger row exists): HLS forbids
//   EXT-X-TARGETDURATION to change over a playlist's life.
// - The window is 3 target durations to an hour (RFC 8216 6.2.2; MediaTailor's upper bound).
// Stored: channel_linear.ladder holds { container, variants }.
import type { Database, Queryable } from '../db/connect.ts';
import { channelLinearRow, firstReadyVideoId, insertChannelLinear, updateChannelLinear, type ChannelLinearRow } from '../data/channel-linear.ts';
import { ownedChannel } from '../data/channels.ts';
import { hasAired } from '../data/linear-ledger.ts';
import { assertMatches, etagOf } from './etag.ts';
import { EditRefusal, invalid, notFound } from './refusals.ts';
import { write, type Editor, type Written } from './write.ts';
import { settingsOf, type StoredLadder } from '../linear/stored-settings.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { channelCoverage, type Coverage } from '../linear/coverage.ts';
import { readIngestedVideos } from '../linear/ingested.ts';
import { defaultLadder, rungOf } from '../linear/ladder.ts';
import type { Container, LadderVariant, LinearSettings } from '../linear/types.ts';

export const DEFAULT_WINDOW_SECONDS = 60;
export const DEFAULT_TARGET_SECONDS = 6;
export const MAX_TARGET_SECONDS = 30;
export const MAX_WINDOW_SECONDS = 3600;
export const MAX_RUNGS = 8;

/** What a GET answers but the coverage: the part If-Match versions. */
export interface LinearPart {
  enabled: boolean;
  container: Container;
  targetDurationSeconds: number;
  windowSeconds: number;
  ladder: LadderVariant[];
  epoch: string | null;
}

export type LinearResource = LinearPart & { coverage: Coverage };

export interface LinearBody {
  enabled: boolean;
  targetDurationSeconds: number;
  windowSeconds?: number | undefined;
  ladder?: LadderVariant[] | undefined;
}

/** The channel's default ladder and container (its first ready video's), if it has one. */
async function defaults(db: Queryable, channelId: number): Promise<{ container: Container; ladder: LadderVariant[]; target: number } | undefined> {
  const videoId = await firstReadyVideoId(db, channelId);
  const video = videoId === undefined ? undefined : (await readIngestedVideos(db, [videoId])).get(videoId);
  return video && { container: video.container, ladder: defaultLadder(video), target: video.targetDurationSeconds };
}

async function currentPart(db: Queryable, channelId: number): Promise<{ part: LinearPart; row: ChannelLinearRow | undefined }> {
  const row = await channelLinearRow(db, channelId);
  if (row) {
    const s = settingsOf(row);
    return {
      row,
      part: {
        enabled: s.enabled,
        container: s.container,
        targetDurationSeconds: s.targetDurationSeconds,
        windowSeconds: s.windowSeconds,
        ladder: s.ladder,
        epoch: row.epoch.toISOString(),
      },
    };
  }
  const d = await defaults(db, channelId);
  const target = d?.target ?? DEFAULT_TARGET_SECONDS;
  return {
    row,
    part: {
      enabled: false,
      container: d?.container ?? 'ts',
      targetDurationSeconds: target,
      windowSeconds: Math.max(DEFAULT_WINDOW_SECONDS, 3 * target),
      ladder: d?.ladder ?? [],
      epoch: null,
    },
  };
}

async function ownerChannel(db: Queryable, ownerId: number, channelId: number) {
  const channel = await ownedChannel(db, ownerId, channelId);
  if (!channel) throw notFound('Channel');
  return channel;
}

/** The channel's settings with their coverage over the next 7 days, and the settings' ETag. */
export async function readLinear(db: Queryable, timelines: ScheduleTimelines, ownerId: number, channelId: number, now: Date): Promise<{ body: LinearResource; etag: string }> {
  const channel = await ownerChannel(db, ownerId, channelId);
  const { part } = await currentPart(db, channelId);
  const coverage = await channelCoverage(db, timelines, { id: channel.id, timezone: channel.timezone, ownerId }, part, now.getTime());
  return { body: { ...part, coverage }, etag: etagOf(part) };
}

/** The problems of a PUT body against the current settings (empty: none). Pure. */
export function linearProblems(body: LinearBody, current: LinearPart, aired: boolean, container: Container): string[] {
  const problems: string[] = [];
  const target = body.targetDurationSeconds;
  if (!Number.isInteger(target) || target < 1 || target > MAX_TARGET_SECONDS)
    problems.push(`targetDurationSeconds: must be a whole number of seconds from 1 to ${MAX_TARGET_SECONDS}`);
  else if (aired && current.epoch !== null && target !== current.targetDurationSeconds) {
    problems.push(`targetDurationSeconds: the channel has aired with ${current.targetDurationSeconds} s; a live stream's target duration can never change`);
  }
  const window = body.windowSeconds ?? Math.max(DEFAULT_WINDOW_SECONDS, 3 * target);
  if (!Number.isInteger(window) || window < 3 * target || window > MAX_WINDOW_SECONDS) {
    problems.push(`windowSeconds: must be a whole number of seconds from 3 target durations (${3 * target}) to ${MAX_WINDOW_SECONDS}`);
  }
  const ladder = body.ladder ?? current.ladder;
  if (ladder.length === 0) problems.push('ladder: the channel has no ready HLS video to take a ladder from; give one (1 to 8 rungs) or ingest a video first');
  if (ladder.length > MAX_RUNGS) problems.push(`ladder: at most ${MAX_RUNGS} rungs`);
  if (container === 'fmp4') problems.push('ladder: fragmented MP4 (fMP4) output is not supported yet; the linear stream stitches MPEG-TS videos');
  return problems;
}

/** Turns linear output on or off, with its ladder, target duration and window (If-Match; audited). */
export async function putLinear(
  db: Database,
  editor: Editor,
  channelId: number,
  body: LinearBody,
  ifMatch: string | undefined,
  timelines: ScheduleTimelines,
): Promise<Written<LinearResource>> {
  const written = await write(db, editor, async (tx) => {
    await ownerChannel(tx, editor.ownerId, channelId);
    const { part, row } = await currentPart(tx, channelId);
    assertMatches(ifMatch, part);
    const aired = row !== undefined && (await hasAired(tx, channelId));
    const container: Container = body.ladder ? 'ts' : part.container;
    const problems = linearProblems(body, part, aired, container);
    if (problems.length > 0) throw invalid(problems);
    const target = body.targetDurationSeconds;
    const values = {
      channelId,
      enabled: body.enabled,
      targetDurationSeconds: target,
      windowSeconds: body.windowSeconds ?? Math.max(DEFAULT_WINDOW_SECONDS, 3 * target),
      ladder: { container, variants: (body.ladder ?? part.ladder).map(rungOf) } satisfies StoredLadder,
      epoch: row?.epoch ?? editor.now,
    };
    const ok = row ? await updateChannelLinear(tx, values, row.version) : await insertChannelLinear(tx, values);
    if (!ok) throw new EditRefusal('precondition_failed', 'The linear settings changed meanwhile; read them again and retry.');
    const after: LinearPart = {
      enabled: values.enabled,
      container,
      targetDurationSeconds: target,
      windowSeconds: values.windowSeconds,
      ladder: values.ladder.variants,
      epoch: values.epoch.toISOString(),
    };
    const fields = Object.keys(after).filter((k) => JSON.stringify(after[k as keyof LinearPart]) !== JSON.stringify(part[k as keyof LinearPart]));
    return {
      written: { status: 200, body: after, etag: etagOf(after) },
      changes: [{ action: row ? 'update' : 'create', resource: `channels/${channelId}/linear`, fields, channelIds: [channelId] }],
      moved: [],
    };
  });
  const channel = await ownerChannel(db, editor.ownerId, channelId);
  const coverage = await channelCoverage(db, timelines, { id: channelId, timezone: channel.timezone, ownerId: editor.ownerId }, written.body, editor.now.getTime());
  return { ...written, body: { ...written.body, coverage } };
}
