// The process-wide compiled schedule cache: same answers as the per-channel loading and
// expansion of today (REST day, Custom request-zone day), loads shared and kept until a change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayWindow, loadPublishedDays, loadScheduledEntries } from './support/reference-schedules.ts';
import { channelDaySchedule } from './support/reference-schedules.ts';
import type { ExpandedBlock, ExpandedVideo, ScheduleVideo } from '../src/schedules/expand.ts';
import { ScheduleTimelines, type PublishedWindow } from '../src/schedules/timelines.ts';
import { countingQueries, customCatalogDatabase, SCHEDULE_CHANNELS } from './support/batches.ts';
import { BACKENDS, type TestDatabase } from './support/db.ts';

/** What the presenters read of an entry (the live URI travels differently on each path). */
const entry = (v: ExpandedVideo<ScheduleVideo>) => [v.video.videoTubeId, v.video.title, v.playbackOrderNumber, v.start, v.end, v.isLive];
const blocksText = (blocks: ExpandedBlock<ScheduleVideo>[]) =>
  JSON.stringify(blocks.map((b) => [b.channelScheduleId, b.start, b.published, b.loopDaily, b.isLive, b.videos.map(entry)]));

const CHANNELS = SCHEDULE_CHANNELS;
/** The same entry objects (kept ones), not only equal ones. */
/** The same kept listings read (listing.ts): a window is cut in place from them, so kept means the same listing objects. */
const sameEntries = (a: PublishedWindow, b: PublishedWindow) => a.length === b.length && a.listings.length === b.listings.length && a.listings.every((l, i) => l === b.listings[i]);

describe.each(BACKENDS)('schedule timelines (%s)', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await customCatalogDatabase(kind);
  });
  afterAll(() => database.close());

  it('answer the REST day and the Custom request-zone days of today', async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    for (const channel of CHANNELS) {
      for (const date of ['2026-11-20', '2026-11-21', '2026-11-22']) {
        for (const includeUnpublished of [false, true]) {
          expect(blocksText(await timelines.channelDay(database.db, channel, date, includeUnpublished))).toBe(
            blocksText(await channelDaySchedule(database.db, channel, date, includeUnpublished)),
          );
        }
      }
    }
    for (const zone of ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'UTC']) {
      const window = dayWindow('2026-11-21', zone);
      const sliced = await timelines.window(database.db, CHANNELS, window.from, window.to, false);
      for (const channel of CHANNELS) {
        const expected = (await loadScheduledEntries(database.db, channel, [window]))(window);
        expect(
          JSON.stringify(
            sliced
              .get(channel.id)!
              .flatMap((b) => b.videos)
              .map(entry),
          ),
        ).toBe(JSON.stringify(expected.map(entry)));
      }
    }
  });

  it('carry the live stream URI on live entries', async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    const blocks = await timelines.channelDay(database.db, { id: 202, timezone: 'UTC' }, '2026-11-21', false);
    expect(blocks.find((b) => b.isLive)?.videos[0]?.video.liveUri).toBe('https://live.example/private');
  });

  it('load many channels together, once, until a change', async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    const { db, queries } = countingQueries(database.db);
    const window = dayWindow('2026-11-21', 'Europe/Berlin');
    // Two requests at once share one load: blocks (with their entries), videos, live streams.
    await Promise.all([timelines.window(db, CHANNELS, window.from, window.to, false), timelines.window(db, CHANNELS, window.from, window.to, false)]);
    expect(queries()).toBe(3);
    await timelines.window(db, CHANNELS, window.from, window.to, false);
    expect(queries()).toBe(3);
    timelines.dropChannels([201]);
    await timelines.window(db, CHANNELS, window.from, window.to, false);
    expect(queries()).toBe(6);
    timelines.invalidate(true);
    await timelines.window(db, CHANNELS, window.from, window.to, false);
    expect(queries()).toBe(9);
  });

  it('keep published windows until a change, and none while changes cannot be heard', async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    const { db, queries } = countingQueries(database.db);
    const window = dayWindow('2026-11-21', 'Europe/Berlin');
    const asks = CHANNELS.map((channel) => ({ channel, ...window }));
    const first = await timelines.publishedWindows(db, asks);
    // Channels 0 and 1 have entries that day: keeping them is seen in their objects.
    expect([first[0]!.length > 0, first[1]!.length > 0]).toEqual([true, true]);
    for (const [i, channel] of CHANNELS.entries()) {
      const expected = (await loadPublishedDays(database.db, channel, [window]))(window);
      expect(JSON.stringify(first[i]!.toArray().map(entry))).toBe(JSON.stringify(expected.map(entry)));
    }
    const loads = queries();
    const again = await timelines.publishedWindows(db, asks);
    // The kept listings' entries, not new ones (a window of another zone is a new array of them).
    expect(again.every((entries, i) => sameEntries(entries, first[i]!))).toBe(true);
    expect(queries()).toBe(loads);
    timelines.dropChannels([CHANNELS[0]!.id]);
    const dropped = await timelines.publishedWindows(db, asks);
    expect(sameEntries(dropped[0]!, first[0]!)).toBe(false);
    expect(sameEntries(dropped[1]!, first[1]!)).toBe(true);
    timelines.invalidate(true);
    expect(sameEntries((await timelines.publishedWindows(db, asks))[1]!, first[1]!)).toBe(false);
    const untrusted = new ScheduleTimelines(10_000, false);
    const once = await untrusted.publishedWindows(database.db, asks);
    expect(sameEntries((await untrusted.publishedWindows(database.db, asks))[0]!, once[0]!)).toBe(false);
  });

  it('list a channel-day once for reads asking it at once, counted once', async () => {
    const window = dayWindow('2026-11-21', 'Europe/Berlin');
    const asks = CHANNELS.map((channel) => ({ channel, ...window }));
    const alone = new ScheduleTimelines(10_000, true);
    await alone.publishedWindows(database.db, asks);
    const timelines = new ScheduleTimelines(10_000, true);
    const { db, queries } = countingQueries(database.db);
    const answers = await Promise.all(Array.from({ length: 8 }, () => timelines.publishedWindows(db, asks)));
    expect(answers.every((answer) => answer.every((entries, i) => sameEntries(entries, answers[0]![i]!)))).toBe(true);
    expect(queries()).toBe(3); // one load
    // Kept once: eight listings of the same days counted as one (counting each pushed others out).
    expect(timelines.bytes.published).toBe(alone.bytes.published);
    expect(timelines.bytes.published).toBeGreaterThan(0);
  });

  it('do not share a listing under way with a read that comes after a change of its channel', async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    const window = dayWindow('2026-11-21', 'Europe/Berlin');
    const asks = CHANNELS.map((channel) => ({ channel, ...window }));
    const before = timelines.publishedWindows(database.db, asks);
    timelines.dropChannels([CHANNELS[0]!.id]);
    const after = timelines.publishedWindows(database.db, asks);
    const [a, b] = await Promise.all([before, after]);
    expect(sameEntries(b[0]!, a[0]!)).toBe(false); // listed again after the change
    expect(sameEntries(b[1]!, a[1]!)).toBe(true); // shared: unchanged
    const later = await timelines.publishedWindows(database.db, asks);
    expect(sameEntries(later[0]!, b[0]!)).toBe(true); // the listing made after the change is the one kept
  });

  it('compile the days around a day asked while there is room, and only the day asked when full', async () => {
    const roomy = new ScheduleTimelines(10_000, true);
    await roomy.channelDay(database.db, CHANNELS[0]!, '2026-11-21', false);
    expect(roomy.size.days).toBeGreaterThan(1);
    // Full (its bound is what one day holds): a day asked pushes another out, none around it.
    const full = new ScheduleTimelines(1, true);
    await full.channelDay(database.db, CHANNELS[0]!, '2026-11-20', false);
    await full.channelDay(database.db, CHANNELS[0]!, '2026-11-21', false);
    expect(full.size.days).toBe(1);
    // The day kept is the one asked (a day around it would have pushed it out): asked again, no query.
    const { db, queries } = countingQueries(database.db);
    await full.channelDay(db, CHANNELS[0]!, '2026-11-21', false);
    expect(queries()).toBe(0);
  });

  it('keep nothing while changes cannot be heard, and stay within their bound', async () => {
    const untrusted = new ScheduleTimelines(10_000, false);
    await untrusted.channelDay(database.db, CHANNELS[0]!, '2026-11-21', false);
    expect(untrusted.size.days).toBe(0);
    const small = new ScheduleTimelines(5, true);
    for (const date of ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22']) await small.channelDay(database.db, CHANNELS[0]!, date, false);
    expect(small.size.entries).toBeLessThanOrEqual(5);
    expect(small.size.days).toBeGreaterThan(0);
  });
});
