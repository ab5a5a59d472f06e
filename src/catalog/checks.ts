// Cross-entity rules for accounts, reference data, videos and channels. They run only on a
// catalog whose shape is valid, and each appends `<json path>: <message>` lines to `errors`.
import { createHash } from 'node:crypto';
import { DayEntries, MAX_DAY_ENTRIES } from '../schedules/day-entries.ts';
import { fastLocalDate } from '../schedules/zone-offsets.ts';
import { instantMillis } from './fields.ts';
import type { Catalog, CatalogAccount, CatalogChannel } from './format.ts';
import { eachDuplicate, untouched, type ExistingCatalog, type Resolver } from './resolve.ts';
import { videoIdProblem } from './video-url.ts';

export type Errors = string[];

export function checkDuplicateIds(catalog: Catalog, errors: Errors): void {
  const lists: Array<[string, string, ReadonlyArray<{ id: number }>]> = [
    ['accounts', 'account', catalog.accounts],
    ['categories', 'category', catalog.categories],
    ['languages', 'language', catalog.languages],
    ['videos', 'video', catalog.videos],
    ['channels', 'channel', catalog.channels],
    ['apps', 'app', catalog.apps],
  ];
  for (const [list, noun, items] of lists) {
    eachDuplicate(
      items,
      (e) => String(e.id),
      (e, i) => errors.push(`${list}[${i}].id: duplicate ${noun} id ${e.id}`),
    );
  }
}

/** Schedule block ids are global (channelScheduleId), not per channel. */
export function checkScheduleIds(catalog: Catalog, existing: ExistingCatalog, errors: Errors): void {
  const fileChannels = new Set(catalog.channels.map((c) => c.id));
  const elsewhere = new Map<number, number>();
  for (const b of existing.scheduleBlocks) if (!fileChannels.has(b.channelId)) elsewhere.set(b.id, b.channelId);
  const blocks = catalog.channels.flatMap((c, ci) => c.schedules.map((s, si) => ({ id: s.id, path: `channels[${ci}].schedules[${si}].id` })));
  eachDuplicate(
    blocks,
    (b) => String(b.id),
    (b) => errors.push(`${b.path}: duplicate schedule block id ${b.id}`),
  );
  for (const b of blocks) {
    const owner = elsewhere.get(b.id);
    if (owner !== undefined) errors.push(`${b.path}: schedule block ${b.id} already belongs to channel ${owner}`);
  }
}

const ACCOUNT_KEYS = ['username', 'email', 'publicUrl'] as const;

export function checkAccountUniqueness(catalog: Catalog, existing: ExistingCatalog, errors: Errors): void {
  const others = untouched(existing.accounts, catalog.accounts);
  for (const field of ACCOUNT_KEYS) {
    const taken = new Map(others.map((a) => [a[field].toLowerCase(), a.id]));
    eachDuplicate(
      catalog.accounts,
      (a) => a[field].toLowerCase(),
      (a, i) => errors.push(`accounts[${i}].${field}: duplicate ${field} ${JSON.stringify(a[field])}`),
    );
    catalog.accounts.forEach((a, i) => {
      const holder = taken.get(a[field].toLowerCase());
      if (holder !== undefined) errors.push(`accounts[${i}].${field}: ${field} ${JSON.stringify(a[field])} already used by account ${holder}`);
    });
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Tokens and token hashes share one key space: the service stores SHA-256 of the GUID. */
export function checkAppTokens(catalog: Catalog, errors: Errors): void {
  const tokens = catalog.accounts.flatMap((a, ai) =>
    a.appTokens.map((t, ti) => {
      const field = t.token !== undefined ? 'token' : 'tokenHash';
      const hash = t.token !== undefined ? sha256(t.token.toLowerCase()) : (t.tokenHash ?? '');
      return { hash, path: `accounts[${ai}].appTokens[${ti}].${field}` };
    }),
  );
  eachDuplicate(
    tokens,
    (t) => t.hash,
    (t) => errors.push(`${t.path}: duplicate app token`),
  );
}

function checkFavorites(account: CatalogAccount, ai: number, resolve: Resolver, errors: Errors): void {
  account.favorites.forEach((f, fi) => {
    const path = `accounts[${ai}].favorites[${fi}].channelId`;
    const owner = resolve.channelOwner(f.channelId);
    if (owner === undefined) errors.push(`${path}: unknown channel ${f.channelId}`);
    else if (owner !== account.id) errors.push(`${path}: channel ${f.channelId} is not owned by account ${account.id}`);
  });
  eachDuplicate(
    account.favorites,
    (f) => String(f.channelId),
    (f, fi) => errors.push(`accounts[${ai}].favorites[${fi}].channelId: duplicate favorite channel ${f.channelId}`),
  );
}

export function checkAccounts(catalog: Catalog, resolve: Resolver, errors: Errors): void {
  catalog.accounts.forEach((a, ai) => checkFavorites(a, ai, resolve, errors));
}

export function checkVideos(catalog: Catalog, resolve: Resolver, errors: Errors): void {
  catalog.videos.forEach((v, i) => {
    if (!resolve.account(v.ownerId)) errors.push(`videos[${i}].ownerId: unknown account ${v.ownerId}`);
    if (v.categoryId !== null && !resolve.category(v.categoryId)) errors.push(`videos[${i}].categoryId: unknown category ${v.categoryId}`);
    const idProblem = videoIdProblem(v.providerName, v.providerVideoId);
    if (idProblem) errors.push(`videos[${i}].providerVideoId: ${idProblem}`);
  });
}

function checkVideoList(ids: readonly number[], path: string, resolve: Resolver, errors: Errors, unique: boolean): void {
  ids.forEach((id, k) => {
    if (!resolve.video(id)) errors.push(`${path}[${k}]: unknown video ${id}`);
  });
  if (unique) eachDuplicate(ids, String, (id, k) => errors.push(`${path}[${k}]: duplicate video ${id}`));
}

function checkChannelRefs(c: CatalogChannel, p: string, resolve: Resolver, errors: Errors): void {
  if (!resolve.account(c.ownerId)) errors.push(`${p}.ownerId: unknown account ${c.ownerId}`);
  if (!resolve.category(c.categoryId)) errors.push(`${p}.categoryId: unknown category ${c.categoryId}`);
  if (c.languageId !== null && !resolve.language(c.languageId)) errors.push(`${p}.languageId: unknown language ${c.languageId}`);
  checkVideoList(c.videoIds, `${p}.videoIds`, resolve, errors, true);
  checkVideoList(c.vodVideoIds, `${p}.vodVideoIds`, resolve, errors, true);
  c.schedules.forEach((s, si) => checkVideoList(s.videoIds, `${p}.schedules[${si}].videoIds`, resolve, errors, false));
  c.liveStreams.forEach((s, si) => {
    if (!resolve.video(s.videoId)) errors.push(`${p}.liveStreams[${si}].videoId: unknown video ${s.videoId}`);
  });
  eachDuplicate(
    c.vast,
    (v) => v.platform,
    (v, vi) => errors.push(`${p}.vast[${vi}].platform: duplicate vast platform "${v.platform}"`),
  );
}

/** Slugs are unique per owner as stored (the database index is case-sensitive). */
function checkChannelUrls(catalog: Catalog, existing: ExistingCatalog, errors: Errors): void {
  const key = (c: { ownerId: number; url: string }): string => `${c.ownerId}\u0000${c.url}`;
  const taken = new Map(untouched(existing.channels, catalog.channels).map((c) => [key(c), c.id]));
  eachDuplicate(catalog.channels, key, (c, i) => errors.push(`channels[${i}].url: duplicate url ${JSON.stringify(c.url)} for owner ${c.ownerId}`));
  catalog.channels.forEach((c, i) => {
    const holder = taken.get(key(c));
    if (holder !== undefined) errors.push(`channels[${i}].url: url ${JSON.stringify(c.url)} already used by channel ${holder} of owner ${c.ownerId}`);
  });
}

/**
 * A channel-day holds at most MAX_DAY_ENTRIES videos and live streams (src/schedules/day-entries.ts),
 * counted without expanding a day. The first day past it is named at its last listed block (else
 * live stream) starting that day: a Studio write adds its block or stream last.
 */
function checkDayEntries(c: CatalogChannel, p: string, errors: Errors): void {
  const streamDates = c.liveStreams.map((s) => fastLocalDate(instantMillis(s.start) ?? 0, c.timezone));
  const blocks = c.schedules.map((b) => ({ date: b.startTime.slice(0, 10), loopDaily: b.loopDaily, entries: b.videoIds.length }));
  const days = new DayEntries(blocks, streamDates);
  const date = days.busiestCandidates().find((d) => days.on(d) > MAX_DAY_ENTRIES);
  if (date === undefined) return;
  const block = blocks.findLastIndex((b) => b.date === date || (b.loopDaily && b.date <= date));
  const path = block >= 0 ? `${p}.schedules[${block}].videoIds` : `${p}.liveStreams[${streamDates.lastIndexOf(date)}]`;
  errors.push(
    `${path}: the blocks and live streams starting on ${date} (${c.timezone}) hold ${days.on(date)} videos; ` +
      `a channel-day holds at most ${MAX_DAY_ENTRIES} (a loopDaily block counts on every day from its start)`,
  );
}

export function checkChannels(catalog: Catalog, existing: ExistingCatalog, resolve: Resolver, errors: Errors): void {
  catalog.channels.forEach((c, i) => {
    checkChannelRefs(c, `channels[${i}]`, resolve, errors);
    checkDayEntries(c, `channels[${i}]`, errors);
  });
  checkChannelUrls(catalog, existing, errors);
}
