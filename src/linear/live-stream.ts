// The live playlists as the service answers them (docs/linear.md): the pure parts (ledger.ts,
// live-playlist.ts) over the on-air timeline, the ledger rows and the videos' ingests, with what
// keeps a warm request off the database:
// - per channel, its settings and zone (until a catalog change of the channel);
// - per channel, its ledger rows (immutable once written: kept, only pruned);
// - per video, its ingest and status (until a catalog change, at most INGEST_TTL_MS: an ingest
//   finishing is not a catalog change);
// - per channel, the window's state (its input: rows, programmes, sources), valid from when it was
//   made until the next programme starts or READ_AHEAD_MS passes (stateUntil): the windows in that
//   span are pure arithmetic over it, so a channel whose segments are 1 s long reads the database
//   once in one to two minutes however many players poll it;
// - per rung, the rendered text, valid from its last segment's start until that segment ends (the
//   next segment's start: nothing changes before), re-rendered from the state after; LRU by bytes.
// Rows are written as programmes first start, when a window is asked (no ticking loop).
import { createHash } from 'node:crypto';
import type { CacheFollower, OwnerChange } from '../cache/catalog-cache.ts';
import type { Queryable } from '../db/connect.ts';
import { ingestStamps, liveChannel } from '../data/channel-linear.ts';
import { insertLedgerRows, ledgerRowsFrom } from '../data/linear-ledger.ts';
import type { ScheduleTimelines } from '../schedules/timelines.ts';
import { verdictOf } from './coverage.ts';
import { readIngestedVideos } from './ingested.ts';
import type { LedgerRow } from './ledger.ts';
import { liveWindow, masterPlaylist, mediaPlaylist, nextChange, type WindowInput } from './live-playlist.ts';
import { lookBack, READ_AHEAD_MS, rowsDue, spanOf, stateUntil, windowInput, type WindowAsk } from './window-state.ts';
import type { PlayableSource } from './programme-segments.ts';
import { settingsOf } from './stored-settings.ts';
import type { IngestedVideo, LinearSettings } from './types.ts';

const INGEST_TTL_MS = 30_000;
/** How long before its read-ahead ends a kept state is made again in the background. */
const REFRESH_AHEAD_MS = 5_000;
/** Rendered playlists and window states kept, in bytes (1,000 channels of 3 rungs at ~5 KB: 15 MB). */
export const DEFAULT_LIVE_CACHE_BYTES = 64 * 1024 * 1024;
const STATE_OVERHEAD = 2048;
/** States made in one batch (its queries carry one array parameter per table). */
const MAX_BATCH = 500;
/** Channels whose ledger rows are kept (about 1 KB each). */
const MAX_KEPT_ROWS = 20_000;

export interface Rendered {
  text: string;
  etag: string;
  /** Seconds a client or CDN may keep it: at most half a target duration (at least 1). */
  maxAge: number;
}

interface LiveChannel {
  id: number;
  ownerId: number;
  timezone: string;
  settings: LinearSettings | undefined;
  master: Rendered | undefined;
}

/** A rung's text and the instants it holds for: [its last segment's start, that segment's end). */
interface Shown extends Rendered {
  from: number;
  until: number;
}

/** A state asked for, waiting for its turn's batch. */
interface Asked {
  channel: LiveChannel;
  now: number;
  resolve: (state: State) => void;
  reject: (error: unknown) => void;
}

interface State {
  from: number;
  /** Until when it is every window's input (stateUntil): past it, a request waits for a new one. */
  until: number;
  /** From when a request makes the next one in the background while this one answers. */
  refreshAt: number;
  input: WindowInput;
  rungs: Map<number, Shown>;
  bytes: number;
}

const etagOf = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`;
const rendered = (text: string, settings: LinearSettings): Rendered => ({ text, etag: etagOf(text), maxAge: Math.max(1, Math.floor(settings.targetDurationSeconds / 2)) });

export class LiveStreams implements CacheFollower {
  private readonly channels = new Map<number, LiveChannel | null>();
  private readonly rows = new Map<number, { floor: number; rows: LedgerRow[] }>();
  private readonly ingests = new Map<number, { at: number; stamp: number; status: 'pending' | 'ready' | 'failed' | undefined; video: IngestedVideo | undefined }>();
  private readonly states = new Map<number, State>();
  private readonly pending = new Map<number, Promise<State>>();
  private readonly queue: Asked[] = [];
  private bytes = 0;
  private trusted = false;

  constructor(
    private readonly db: Queryable,
    private readonly timelines: ScheduleTimelines,
    private readonly slateBase: string,
    private readonly maxBytes = DEFAULT_LIVE_CACHE_BYTES,
  ) {}

  invalidate(trusted: boolean): void {
    this.trusted = trusted;
    this.channels.clear();
    this.ingests.clear();
    this.states.clear();
    this.pending.clear();
    this.bytes = 0;
  }

  /** A change of some channels (or of an owner: its channels, and any video). */
  drop(change: OwnerChange): void {
    const ids =
      change.channelIds ??
      [...this.channels.keys()].filter((id) => {
        const c = this.channels.get(id);
        return !c || c.ownerId === change.ownerId;
      });
    if (!change.channelIds) this.ingests.clear();
    for (const id of ids) {
      this.channels.delete(id);
      this.pending.delete(id);
      this.forget(id);
    }
  }

  /** The channel if it exists and has linear output on (settings read once until a change). */
  async channel(channelId: number): Promise<LiveChannel | undefined> {
    let entry = this.channels.get(channelId);
    if (entry === undefined) {
      const row = await liveChannel(this.db, channelId);
      entry = row ? { id: row.id, ownerId: row.ownerId, timezone: row.timezone, settings: row.linear ? settingsOf(row.linear) : undefined, master: undefined } : null;
      if (this.trusted) this.channels.set(channelId, entry);
    }
    return entry?.settings?.enabled ? entry : undefined;
  }

  /** The multivariant playlist, or undefined when the channel has no linear output. */
  async master(channelId: number): Promise<Rendered | undefined> {
    const channel = await this.channel(channelId);
    if (!channel) return undefined;
    channel.master ??= rendered(masterPlaylist(channel.settings!.ladder), channel.settings!);
    return channel.master;
  }

  /** Rung `rung`'s media playlist at `now`, or undefined (no linear output, no such rung). */
  async media(channelId: number, rung: number, now: number): Promise<Rendered | undefined> {
    const channel = await this.channel(channelId);
    const settings = channel?.settings;
    if (!channel || !settings || rung < 0 || rung >= settings.ladder.length) return undefined;
    let state = this.states.get(channelId);
    if (!state || now < state.from || now >= state.until) state = await this.fresh(channel, now);
    else if (now >= state.refreshAt && state.until < state.input.nextStart) this.refreshAhead(channel, now);
    const shown = state.rungs.get(rung);
    if (shown && now >= shown.from && now < shown.until) return shown;
    const segments = liveWindow({ ...state.input, now }, rung);
    const next: Shown = {
      ...rendered(mediaPlaylist(segments, settings.targetDurationSeconds), settings),
      from: segments.at(-1)?.programDateTime ?? now,
      until: nextChange(segments, now),
    };
    state.rungs.set(rung, next);
    this.grow(channelId, state, next.text.length - (shown?.text.length ?? 0));
    return next;
  }

  /** Cache bytes held (rendered text and window states). */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * A state near the end of its read-ahead is made again in the background while the kept one
   * answers: a poll then never waits on the database for it (only a programme's start, whose row
   * must be written first, does). A failed read is left to the next request's own.
   */
  private refreshAhead(channel: LiveChannel, now: number): void {
    if (this.pending.has(channel.id)) return;
    this.fresh(channel, now).catch(() => undefined);
  }

  private async fresh(channel: LiveChannel, now: number): Promise<State> {
    const shared = this.pending.get(channel.id);
    if (shared) {
      const state = await shared;
      if (now >= state.from && now < state.until) return state;
    }
    const making = this.makeState(channel, now);
    this.pending.set(channel.id, making);
    try {
      const state = await making;
      if (this.trusted && this.channels.get(channel.id) === channel) this.keep(channel.id, state);
      return state;
    } finally {
      if (this.pending.get(channel.id) === making) this.pending.delete(channel.id);
    }
  }

  /**
   * A channel's new state, made with every other asked in the same turn of the event loop: one
   * query per table for all of them (rows, the timeline, ingests; the rows due written in one
   * insert), so a fleet whose windows fall due together (a restart, a programme starting on the
   * hour on every channel) costs a few queries, not a few per channel.
   */
  private makeState(channel: LiveChannel, now: number): Promise<State> {
    return new Promise((resolve, reject) => {
      this.queue.push({ channel, now, resolve, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.queue.length > 0) setImmediate(() => this.flush());
    this.makeStates(batch).then(
      (states) => batch.forEach((b, i) => b.resolve(states[i]!)),
      (error: unknown) => batch.forEach((b) => b.reject(error)),
    );
  }

  private async makeStates(batch: readonly Asked[]): Promise<State[]> {
    const floorOf = (b: Asked) => b.now - lookBack(b.channel.settings!);
    const rows = await this.rowsOf(batch.map((b) => ({ channelId: b.channel.id, from: floorOf(b) })));
    const spans = batch.map((b) => spanOf(b.channel.settings!, rows.get(b.channel.id)!, b.now));
    const segments = await this.timelines.segmentsOverlapping(
      this.db,
      batch.map(({ channel }, i) => ({ channel: { id: channel.id, timezone: channel.timezone, ownerId: channel.ownerId }, from: spans[i]!.since, to: spans[i]!.to })),
      false,
    );
    const onAirs = segments.map((list) => list.map((s) => ({ start: s.start, end: s.end, videoId: s.video.videoTubeId, offset: s.offset, isLive: s.isLive })));
    const videosOf = (i: number, list: readonly LedgerRow[]) => [...list.map((r) => r.videoId), ...onAirs[i]!.filter((s) => !s.isLive).map((s) => s.videoId)];
    await this.readIngests(
      batch.flatMap((b, i) => videosOf(i, rows.get(b.channel.id)!)),
      batch[0]!.now,
    );
    const asks = batch.map((b, i): WindowAsk => {
      const own = rows.get(b.channel.id)!;
      return {
        settings: b.channel.settings!,
        rows: own,
        onAir: onAirs[i]!,
        ...spans[i]!,
        sources: this.playable(b.channel.settings!, videosOf(i, own)),
        now: b.now,
        slateBase: this.slateBase,
      };
    });
    const due = asks.flatMap((ask, i) => rowsDue(ask).map((row) => ({ channelId: batch[i]!.channel.id, ...row })));
    if (due.length > 0) {
      await insertLedgerRows(this.db, due);
      const written = [...new Set(due.map((r) => r.channelId))];
      const again = await this.reloadRows(batch.filter((b) => written.includes(b.channel.id)).map((b) => ({ channelId: b.channel.id, from: floorOf(b) })));
      // Another instance's rows may name videos not read yet.
      await this.readIngests(
        [...again.values()].flat().map((r) => r.videoId),
        batch[0]!.now,
      );
      asks.forEach((ask, i) => {
        const id = batch[i]!.channel.id;
        if (!again.has(id)) return;
        ask.rows = again.get(id)!;
        for (const [video, source] of this.playable(
          batch[i]!.channel.settings!,
          ask.rows.map((r) => r.videoId),
        ))
          (ask.sources as Map<number, PlayableSource>).set(video, source);
      });
    }
    return asks.map((ask) => {
      const input = windowInput(ask);
      // Each state is made again from a random 50-100% of its read-ahead: channels first asked
      // together (a fleet started at once, a restart) would otherwise all read again in the same
      // second, every read-ahead. It answers until its end meanwhile, so a fleet back from a pause
      // finds its states held and refreshes them behind its answers, not before them.
      const until = stateUntil(input, ask.now);
      const refreshAt = Math.min(until - REFRESH_AHEAD_MS, ask.now + READ_AHEAD_MS * (0.5 + Math.random() / 2));
      return { from: ask.now, until, refreshAt, input, rungs: new Map(), bytes: STATE_OVERHEAD };
    });
  }

  /** Per channel, its rows from the last one at or before `from` (kept; read, together, for those whose kept ones do not reach back). */
  private async rowsOf(asks: ReadonlyArray<{ channelId: number; from: number }>): Promise<Map<number, LedgerRow[]>> {
    const out = new Map<number, LedgerRow[]>();
    const missing: Array<{ channelId: number; from: number }> = [];
    for (const ask of asks) {
      const kept = this.rows.get(ask.channelId);
      if (kept && kept.floor <= ask.from) out.set(ask.channelId, kept.rows);
      else missing.push(ask);
    }
    for (const [id, rows] of await this.reloadRows(missing)) out.set(id, rows);
    return out;
  }

  private async reloadRows(asks: ReadonlyArray<{ channelId: number; from: number }>): Promise<Map<number, LedgerRow[]>> {
    // A channel asked twice (two clocks) is read from the earlier floor.
    const floors = new Map<number, number>();
    // Read an hour further back than needed: the next windows' reads are then kept ones.
    for (const a of asks) floors.set(a.channelId, Math.min(floors.get(a.channelId) ?? Infinity, a.from - 3_600_000));
    const read = await ledgerRowsFrom(
      this.db,
      [...floors].map(([channelId, from]) => ({ channelId, from })),
    );
    for (const [channelId, rows] of read) {
      this.rows.delete(channelId); // re-inserted: the newest read last
      this.rows.set(channelId, { floor: floors.get(channelId)!, rows });
    }
    // Past the bound, the channels read longest ago go first (Map order is insertion order).
    for (const id of this.rows.keys()) {
      if (this.rows.size <= MAX_KEPT_ROWS) break;
      if (!read.has(id)) this.rows.delete(id);
    }
    return read;
  }

  /**
   * Reads again the ingests of these videos not checked for INGEST_TTL_MS (one light query for
   * all; decoded again only those ingested anew).
   */
  private async readIngests(videoIds: readonly number[], now: number): Promise<void> {
    const ids = [...new Set(videoIds)].filter((id) => id > 0);
    const stale = ids.filter((id) => {
      const e = this.ingests.get(id);
      return !e || Math.abs(now - e.at) >= INGEST_TTL_MS;
    });
    if (stale.length === 0) return;
    const stamps = await ingestStamps(this.db, stale);
    const changed = stale.filter((id) => {
      const e = this.ingests.get(id);
      const s = stamps.get(id);
      return !e || e.status !== s?.status || e.stamp !== (s?.at ?? 0);
    });
    const videos = await readIngestedVideos(
      this.db,
      changed.filter((id) => stamps.get(id)?.status === 'ready'),
    );
    for (const id of stale) {
      const stamp = stamps.get(id);
      const kept = this.ingests.get(id);
      const video = changed.includes(id) ? videos.get(id) : kept?.video;
      // Checked again after INGEST_TTL_MS less a random part: videos read together are not all read again together.
      this.ingests.set(id, { at: now - (Math.random() * INGEST_TTL_MS) / 2, stamp: stamp?.at ?? 0, status: stamp?.status, video });
    }
    if (this.ingests.size > 50_000) this.ingests.clear();
  }

  /** What each video plays under the settings (absent: the slate), from the ingests read. */
  private playable(settings: LinearSettings, videoIds: readonly number[]): Map<number, PlayableSource> {
    const out = new Map<number, PlayableSource>();
    for (const id of new Set(videoIds)) {
      const e = id > 0 ? this.ingests.get(id) : undefined;
      const verdict = e && verdictOf(settings, e.status, e.video, false);
      if (verdict && typeof verdict !== 'string') out.set(id, verdict);
    }
    return out;
  }

  private keep(channelId: number, state: State): void {
    this.forget(channelId);
    this.states.set(channelId, state);
    this.bytes += state.bytes;
    this.evict(channelId);
  }

  private grow(channelId: number, state: State, bytes: number): void {
    state.bytes += bytes;
    if (this.states.get(channelId) === state) {
      this.bytes += bytes;
      this.states.delete(channelId); // re-inserted: Map order is the LRU order
      this.states.set(channelId, state);
      this.evict(channelId);
    }
  }

  private forget(channelId: number): void {
    const old = this.states.get(channelId);
    if (!old) return;
    this.states.delete(channelId);
    this.bytes -= old.bytes;
  }

  private evict(keepId: number): void {
    for (const [id, state] of this.states) {
      if (this.bytes <= this.maxBytes || id === keepId) break;
      this.states.delete(id);
      this.bytes -= state.bytes;
    }
  }
}
