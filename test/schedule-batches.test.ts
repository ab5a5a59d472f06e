// Batched schedule loaders: for many channels at once they answer what the per-channel loaders
// answer, channel by channel, in a fixed number of queries whatever the number of channels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveStreamSpansForChannels, liveStreamsForChannels, scheduleBlocksForChannels, type ChannelDates } from '../src/data/schedule-batches.ts';
import { liveStreamSpans, liveStreamsFor, scheduleBlocksFor } from '../src/data/schedules.ts';
import { customCatalog } from './support/custom.ts';
import { countingQueries, customCatalogDatabase } from './support/batches.ts';
import { BACKENDS, type TestDatabase } from './support/db.ts';

/** The test catalog plus an unpublished block and a second loopDaily one on channel 201. */
function catalog() {
  const c = customCatalog();
  const news = c.channels.find((ch: { id: number }) => ch.id === 201);
  news.schedules.push(
    { id: 9301, startTime: '2026-11-20T23:30:00', published: false, videoIds: [5001, 5002] },
    { id: 9302, startTime: '2026-11-19T05:00:00', loopDaily: true, videoIds: [5002, 5002, 5001] },
  );
  return c;
}

const byId = <T extends { id: number }>(list: readonly T[]) => [...list].sort((a, b) => a.id - b.id);

describe.each(BACKENDS)('batched schedule loaders (%s)', (kind) => {
  let database: TestDatabase;
  const channelIds = [201, 202, 204, 205, 206, 401, 999];
  // Different ranges per channel, as zones give them: each must get its own rows, no neighbour's.
  const ranges: ChannelDates[] = channelIds.map((channelId, i) => ({
    channelId,
    fromDate: i % 2 === 0 ? '2026-11-20' : '2026-11-21',
    toDate: i % 3 === 0 ? '2026-11-22' : '2026-11-23',
  }));

  const withoutDescription = <V extends { description: unknown }>({ description: _description, ...video }: V) => video;

  beforeAll(async () => {
    database = await customCatalogDatabase(kind, catalog());
  });
  afterAll(() => database.close());

  it.each([false, true])('blocks with their videos per channel and date range, unpublished=%s', async (includeUnpublished) => {
    const { db, queries } = countingQueries(database.db);
    const batched = await scheduleBlocksForChannels(db, ranges, includeUnpublished);
    expect(queries()).toBe(2); // the blocks with their entries' video ids, the videos
    for (const r of ranges) {
      const single = await scheduleBlocksFor(database.db, r.channelId, r.fromDate, r.toDate, includeUnpublished);
      // The batched loads carry no descriptions (src/data/schedule-batches.ts BatchVideo).
      expect(byId(batched.get(r.channelId) ?? [])).toEqual(byId(single.map((b) => ({ ...b, videos: b.videos.map(withoutDescription) }))));
    }
    expect(batched.get(201)?.some((b) => b.id === 9301)).toBe(includeUnpublished);
    expect(
      batched
        .get(201)
        ?.find((b) => b.id === 9302)
        ?.videos.map((v) => v.videoTubeId),
    ).toEqual([5002, 5002, 5001]);
  });

  it('live streams and their spans per channel for a window', async () => {
    const from = new Date('2026-11-21T00:00:00Z');
    const to = new Date('2026-11-21T19:00:00Z');
    const { db, queries } = countingQueries(database.db);
    const streams = await liveStreamsForChannels(db, channelIds, from, to);
    const spans = await liveStreamSpansForChannels(db, channelIds, from, to);
    expect(queries()).toBe(2);
    for (const id of channelIds) {
      expect(streams.get(id) ?? []).toEqual((await liveStreamsFor(database.db, id, from, to)).map((l) => ({ ...l, video: withoutDescription(l.video) })));
      expect(spans.get(id) ?? []).toEqual(await liveStreamSpans(database.db, id, from, to));
    }
    expect([...streams.keys()].sort()).toEqual([201, 202]);
  });

  it('ask nothing of the database for no channels', async () => {
    const { db, queries } = countingQueries(database.db);
    expect((await scheduleBlocksForChannels(db, [], false)).size).toBe(0);
    expect((await liveStreamsForChannels(db, [], new Date(0), new Date(1))).size).toBe(0);
    expect(queries()).toBe(0);
  });
});
