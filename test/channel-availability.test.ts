// Availability flags and guide entries for many channels at once (src/channels/availability.ts,
// src/schedules/published-days.ts) answer what the per-channel code of the Custom routes answers
// today, in a fixed number of queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelAvailability } from '../src/channels/availability.ts';
import { dayWindow, loadPublishedDays } from './support/reference-schedules.ts';
import { liveStreamSpans } from '../src/data/schedules.ts';
import { vodCounts } from '../src/data/vod.ts';
import { localDateOf } from '../src/schedules/labels.ts';
import { publishedDays } from '../src/schedules/published-days.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { countingQueries, customCatalogDatabase, SCHEDULE_CHANNELS } from './support/batches.ts';
import { BACKENDS, type TestDatabase } from './support/db.ts';

const CHANNELS = SCHEDULE_CHANNELS;

describe.each(BACKENDS)('channel availability and guide days for many channels (%s)', (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await customCatalogDatabase(kind);
  });
  afterAll(() => database.close());

  /** What src/channels/listing.ts computes channel by channel. */
  async function oracle(zone: string | undefined, now: number) {
    const vod = await vodCounts(
      database.db,
      CHANNELS.map((c) => c.id),
    );
    return new Map(
      await Promise.all(
        CHANNELS.map(async (channel) => {
          const z = zone ?? channel.timezone;
          const today = dayWindow(localDateOf(now, z), z);
          const entries = (await loadPublishedDays(database.db, channel, [today]))(today);
          const live = await liveStreamSpans(database.db, channel.id, new Date(today.from), new Date(today.to));
          return [
            channel.id,
            {
              scheduleAvailable: entries.length > 0,
              liveAvailable: live.some(([start, end]) => end > now && start < today.to),
              vodAvailable: (vod.get(channel.id) ?? 0) > 0,
            },
          ] as const;
        }),
      ),
    );
  }

  it.each([
    [undefined, '2026-11-21T15:00:00Z'],
    ['America/New_York', '2026-11-21T15:00:00Z'],
    ['Asia/Kolkata', '2026-11-21T20:30:00Z'],
    ['Pacific/Kiritimati', '2026-11-21T09:00:00Z'],
    [undefined, '2026-11-22T02:00:00Z'],
  ])('match the per-channel flags in zone %s at %s', async (zone, at) => {
    const now = Date.parse(at);
    const flags = await channelAvailability(database.db, new ScheduleTimelines(10_000, true), CHANNELS, zone, now);
    expect(flags).toEqual(await oracle(zone, now));
  });

  it('cost five queries for all the channels and compile no day (src/schedules/entry-spans.ts)', async () => {
    const timelines = new ScheduleTimelines(10_000, true);
    const { db, queries } = countingQueries(database.db);
    await channelAvailability(db, timelines, CHANNELS, 'Europe/Berlin', Date.parse('2026-11-21T15:00:00Z'));
    // Blocks and live starts, the spans of the channels none of whose blocks starts today, live spans, VOD counts.
    expect(queries()).toBe(5);
    expect(timelines.size.days).toBe(0);
  });

  it.each([undefined, 'Europe/Berlin', 'Asia/Kolkata'])('give the guide entries of loadPublishedDays in zone %s', async (zone) => {
    const dates = ['2026-11-20', '2026-11-21', '2026-11-22'];
    const days = await publishedDays(database.db, new ScheduleTimelines(10_000, true), CHANNELS, dates, zone);
    for (const channel of CHANNELS) {
      const windows = dates.map((date) => dayWindow(date, zone ?? channel.timezone));
      const entriesOf = await loadPublishedDays(database.db, channel, windows);
      for (const window of windows) {
        // Schedule loads carry no descriptions (src/data/schedule-batches.ts); the reference's do.
        const strip = (e: { video: object }) => ({ ...e, video: { ...e.video, liveUri: undefined, liveStreamId: undefined, description: undefined } });
        expect(days.get(channel.id)!.get(window.date)!.toArray().map(strip)).toEqual(entriesOf(window).map(strip));
      }
    }
    // The private channel's live entry plays the stream's URI.
    const live = [...days.get(202)!.values()].flatMap((w) => w.toArray()).find((e) => e.isLive);
    expect(live?.video.streamUrl).toBe('https://live.example/private');
  });
});
