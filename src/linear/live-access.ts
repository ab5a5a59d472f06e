// Who may list and play a channel's live output (docs/linear.md: Who may tune in). A live `{key}`
// is an app's guide key (src/access/epg-keys.ts) or a viewer's personal link (src/access/live-keys.ts).
//
// - An app key lists and plays only what anyone may watch: the app's channels with linear output
//   on that the one gating rule opens to a caller with no device and no viewer (so none of a paid
//   app's) and that are not private. Nothing sold leaks through a URL handed around.
// - A viewer's link lists and plays what that viewer holds in that app: the same rule with the
//   viewer as the caller, so their subscriptions open a paid app's channels and their password
//   unlocks open private ones.
//
// Playlists are polled every few seconds by every player, so the answer for a key is kept in
// memory for ACCESS_KEEP_MS, then read again in the background while it still answers, up to
// ACCESS_STALE_MS (per database handle, at most ACCESS_KEEP_ENTRIES keys). Revoking a link or an
// app's key, an entitlement ending, a channel made private or its linear output turned off
// therefore stops the playlists within ACCESS_STALE_MS: 10 s, well inside one 60 s window.
// No HTTP here.
import type { Caller } from '../access/caller.ts';
import { playableChannels } from '../access/channel-unlocks.ts';
import { appOfEpgKey } from '../access/epg-keys.ts';
import { hashLiveLinkKey, isLiveLinkKey } from '../access/live-keys.ts';
import { ownerAppOffers } from '../data/app-offers.ts';
import { appChannelAssignments, type App } from '../data/apps.ts';
import { ownerChannels, type ChannelRow } from '../data/channels.ts';
import { findLiveLinkByHash, linearEnabledChannels } from '../data/live-access.ts';
import type { Queryable } from '../db/connect.ts';
import { accessGate } from '../entitlements/gate.ts';
import { xmltvChannelId } from '../presenters/xmltv.ts';
import { guideNumbers } from './guide-numbers.ts';
import type { LineupChannel } from './types.ts';

export const ACCESS_KEEP_MS = 5_000;
/** The longest a kept answer is used (while one read in the background replaces it): the bound on a revocation. */
export const ACCESS_STALE_MS = 2 * ACCESS_KEEP_MS;
const ACCESS_KEEP_ENTRIES = 10_000;

/** Whose key it is: the app, its owner, and for a personal link the viewer. */
export interface LiveHolder {
  appId: number;
  ownerId: number;
  viewerId?: number;
}

interface Access extends LiveHolder {
  appName: string;
  /** What the key lists, in the app's order. */
  channels: LineupChannel[];
  /** The same channels as the catalog has them (the viewer's guide renders from these). */
  rows: ChannelRow[];
  /** Their ids: every playlist request asks it. */
  ids: ReadonlySet<number>;
}

interface Kept {
  at: number;
  answer: Promise<Access | undefined>;
  /** The answer once read (a refresh in the background answers with it meanwhile). */
  settled?: Access | undefined;
  refreshing?: boolean;
}

const kept = new WeakMap<object, Map<string, Kept>>();

/** The app, owner and viewer of the key when it may play the channel now; undefined otherwise (unknown, revoked, not listed). */
export async function mayPlayLive(db: Queryable, key: string, channelId: number, now: Date): Promise<LiveHolder | undefined> {
  const access = await accessOf(db, key, now);
  if (!access?.ids.has(channelId)) return undefined;
  return holderOf(access);
}

/** What the key lists, in the app's order; undefined for an unknown or revoked key. */
export async function liveLineup(db: Queryable, key: string, now: Date): Promise<(LiveHolder & { appName: string; channels: LineupChannel[] }) | undefined> {
  const access = await accessOf(db, key, now);
  return access && { ...holderOf(access), appName: access.appName, channels: access.channels };
}

/** The catalog rows of what the key lists (for its guide); undefined for an unknown or revoked key. */
export async function liveGuideChannels(db: Queryable, key: string, now: Date): Promise<ChannelRow[] | undefined> {
  return (await accessOf(db, key, now))?.rows;
}

const holderOf = ({ appId, ownerId, viewerId }: Access): LiveHolder => (viewerId === undefined ? { appId, ownerId } : { appId, ownerId, viewerId });

/**
 * The kept answer when younger than ACCESS_KEEP_MS (by the clock asked with). Until twice that it
 * still answers while one read in the background replaces it: a key polled by a fleet of players
 * never makes them wait on its (large: every channel of the app) read. Older, a new one is awaited.
 */
function accessOf(db: Queryable, key: string, now: Date): Promise<Access | undefined> {
  let entries = kept.get(db);
  if (!entries) kept.set(db, (entries = new Map()));
  const at = now.getTime();
  const entry = entries.get(key);
  if (entry && at >= entry.at) {
    if (at - entry.at < ACCESS_KEEP_MS) return entry.answer;
    if (at - entry.at < ACCESS_STALE_MS && 'settled' in entry) {
      if (!entry.refreshing) {
        entry.refreshing = true;
        read(db, entries, key, now).catch(() => {
          entry.refreshing = false;
        });
      }
      return entry.answer;
    }
  }
  if (entry) entries.delete(key);
  else if (entries.size >= ACCESS_KEEP_ENTRIES) entries.delete(entries.keys().next().value!);
  return read(db, entries, key, now);
}

/** Reads the key's answer and keeps it once read (a failed read is not kept: the next request tries again). */
function read(db: Queryable, entries: Map<string, Kept>, key: string, now: Date): Promise<Access | undefined> {
  const answer = computeAccess(db, key, now);
  const entry: Kept = { at: now.getTime(), answer };
  const current = entries.get(key);
  // A first read is shared at once; a refresh replaces the kept answer only when it has one.
  if (!current || !('settled' in current)) entries.set(key, entry);
  answer.then(
    (settled) => {
      entry.settled = settled;
      if (entries.get(key) === current && current !== entry) entries.set(key, entry);
    },
    () => entries.get(key) === entry && entries.delete(key),
  );
  return answer;
}

async function computeAccess(db: Queryable, key: string, now: Date): Promise<Access | undefined> {
  const holder = await holderOfKey(db, key);
  if (!holder) return undefined;
  const { app, viewerId } = holder;
  const caller: Caller = { ownerId: app.ownerId, app, deviceId: null, viewerId: viewerId ?? null, now, zone: undefined };
  const [owned, assignments, offers] = await Promise.all([ownerChannels(db, app.ownerId), appChannelAssignments(db, app.id), ownerAppOffers(db, app.ownerId)]);
  const byId = new Map(owned.map((c) => [c.id, c]));
  const carried = assignments.flatMap((a) => byId.get(a.channelId) ?? []);
  const [gate, playable, enabled] = await Promise.all([
    accessGate(db, offers, caller),
    playableChannels(db, carried, caller),
    linearEnabledChannels(
      db,
      carried.map((c) => c.id),
    ),
  ]);
  const numbers = guideNumbers(assignments);
  const rows = carried.filter((c) => enabled.has(c.id) && playable.has(c.id) && gate.channelOpen(c.id));
  return {
    appId: app.id,
    ownerId: app.ownerId,
    appName: app.appName,
    ...(viewerId === undefined ? {} : { viewerId }),
    rows,
    ids: new Set(rows.map((c) => c.id)),
    channels: rows.map((c) => ({
      channelId: c.id,
      guideNumber: numbers.get(c.id)!,
      xmltvId: xmltvChannelId(c.id),
      name: c.name,
      logoUrl: c.pictureUrl,
      group: c.categoryName,
    })),
  };
}

/** The app (and viewer) a key opens: a personal link by its prefix, anything else as an app's guide key. */
async function holderOfKey(db: Queryable, key: string): Promise<{ app: App; viewerId?: number } | undefined> {
  if (isLiveLinkKey(key)) return findLiveLinkByHash(db, hashLiveLinkKey(key));
  const app = await appOfEpgKey(db, key);
  return app && { app };
}
