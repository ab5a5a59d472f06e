import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioCatalog, studioTest, type StudioTest } from './support/studio.ts';

/** Video 5002's title, as refusals quote it. */
const WEATHER = 'Weather "live" & <more>';

// Channel 201 (alice, America/New_York): 9001 one-off 2026-11-21 08:00 [5001 5002 5001] (to
// 08:22:01.25), 9002 loopDaily from 2026-11-18 22:00 [5002] (2 min), 9003 unpublished one-off
// 2026-11-21 12:00 [5001]; a live stream 2026-11-21 13:00-14:30. Videos: 5001 600.5 s, 5002
// 120.25 s, 5003 3600 s; olga's 6001. Each test works on days of its own.
const SCHEDULES = '/channels/201/schedules';

describe.each(BACKENDS)('Studio schedules on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    // A free app selling channel 201, so that the Custom guide lists it without a sign-in.
    const catalog = studioCatalog();
    catalog.apps.push({ id: 304, ownerId: 11, platform: 'firetv', appName: 'Alice Fire TV', channels: [{ channelId: 201 }], createdAt: '2026-03-01T00:00:00Z' });
    s = await studioTest(backend, catalog);
  });
  afterAll(() => s.t.close());

  const create = (body: object, headers: Record<string, string> = {}) => s.call('POST', SCHEDULES, { body, headers });
  const created = async (body: object) => {
    const response = await create(body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: number; startTime: string; published: boolean; loopDaily: boolean; videoIds: number[] };
  };
  const ids = async (query = '') => ((await s.call('GET', `${SCHEDULES}${query}`)).json().data.items as { id: number }[]).map((b) => b.id);
  const liveStreamIds = async () =>
    ((await s.t.database.db.execute(sql`select id from live_streams where channel_id = 201 order by id`)) as any).rows.map((r: any) => Number(r.id));
  const rest = (date: string) => s.t.request({ url: `/api/v1/rest/channels/201/schedules?date=${date}`, headers: { authorization: `Bearer ${s.tokens.alice}` } });
  const guide = (date: string) => s.t.request({ url: `/api/v1/services/custom/users/11/channels/video?channels_ids=201&dates=${date}` });

  it("lists a channel's blocks in catalog form by start, with an ETag, and filters by the days they play", async () => {
    const list = await s.call('GET', SCHEDULES);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers.etag).toMatch(/^"/);
    expect(list.json().data).toEqual({
      channelId: 201,
      timezone: 'America/New_York',
      items: [
        { id: 9002, startTime: '2026-11-18T22:00:00', published: true, loopDaily: true, videoIds: [5002] },
        { id: 9001, startTime: '2026-11-21T08:00:00', published: true, loopDaily: false, videoIds: [5001, 5002, 5001] },
        { id: 9003, startTime: '2026-11-21T12:00:00', published: false, loopDaily: false, videoIds: [5001] },
      ],
    });
    expect(await ids('?from=2026-11-21&to=2026-11-21')).toEqual([9002, 9001, 9003]);
    expect(await ids('?from=2026-11-19&to=2026-11-20')).toEqual([9002]);
    expect(await ids('?to=2026-11-17')).toEqual([]);
    expect(await ids('?from=2026-11-22')).toEqual([9002]);
    const backwards = await s.call('GET', `${SCHEDULES}?from=2026-11-22&to=2026-11-21`);
    expect(backwards.statusCode).toBe(422);
    expect((await s.call('GET', `${SCHEDULES}?from=2026-02-30`)).json().error.details).toEqual([
      { path: 'querystring.from', message: 'must be a real date in the form yyyy-MM-dd' },
    ]);
    const one = await s.call('GET', `${SCHEDULES}/9001`);
    expect(one.json().data).toEqual(list.json().data.items[1]);
    expect(one.headers.etag).toMatch(/^"/);
    // A block of another channel of the same owner is not under this one.
    const elsewhere = await s.call('GET', '/channels/202/schedules/9001');
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().error.message).toBe('Schedule block not found.');
  });

  it('creates, reads, changes and deletes a block, writing only its rows', async () => {
    const before = await s.call('GET', SCHEDULES);
    const streams = await liveStreamIds();
    expect(streams).toHaveLength(1);
    const response = await create({ startTime: '2026-12-01T09:00:00', videoIds: [5002] });
    expect(response.statusCode, response.body).toBe(201);
    const block = response.json().data;
    expect(block).toEqual({ id: expect.any(Number), startTime: '2026-12-01T09:00:00', published: true, loopDaily: false, videoIds: [5002] });
    expect(block.id).toBeGreaterThan(9601);
    const read = await s.call('GET', `${SCHEDULES}/${block.id}`);
    expect(read.json().data).toEqual(block);
    expect(read.headers.etag).toBe(response.headers.etag);
    const after = await s.call('GET', SCHEDULES);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(await liveStreamIds()).toEqual(streams);

    const patched = await s.call('PATCH', `${SCHEDULES}/${block.id}`, {
      body: { ...block, published: false, videoIds: [5002, 5001] },
      headers: { 'if-match': read.headers.etag as string },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toEqual({ ...block, published: false, videoIds: [5002, 5001] });
    expect(patched.headers.etag).not.toBe(read.headers.etag);
    expect((await s.call('GET', `${SCHEDULES}/${block.id}`)).json().data.videoIds).toEqual([5002, 5001]);
    expect(await liveStreamIds()).toEqual(streams);
    const moved = await s.call('PATCH', `${SCHEDULES}/${block.id}`, { body: { id: 1 } });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().error.details).toEqual([{ path: 'id', message: 'cannot be changed' }]);

    const gone = await s.call('DELETE', `${SCHEDULES}/${block.id}`, { headers: { 'if-match': patched.headers.etag as string } });
    expect(gone.statusCode).toBe(204);
    expect((await s.call('GET', `${SCHEDULES}/${block.id}`)).statusCode).toBe(404);
    expect((await s.call('GET', SCHEDULES)).headers.etag).toBe(before.headers.etag);
    expect(await liveStreamIds()).toEqual(streams);

    const audit: any = await s.t.database.db.execute(
      sql`select action, resource from studio_audit where owner_id = 11 and resource = ${`channels/201/schedules/${block.id}`} order by id`,
    );
    expect(audit.rows.map((r: any) => r.action)).toEqual(['create', 'update', 'delete']);
  });

  it('takes a chosen id unless it is in use anywhere, and a retried POST creates once', async () => {
    const chosen = await created({ id: 9500, startTime: '2026-12-02T09:00:00', videoIds: [5001] });
    expect(chosen.id).toBe(9500);
    const mine = await create({ id: 9001, startTime: '2026-12-02T11:00:00', videoIds: [5001] });
    const hers = await create({ id: 9601, startTime: '2026-12-02T11:00:00', videoIds: [5001] });
    expect(mine.statusCode).toBe(409);
    expect(hers.statusCode).toBe(409);
    expect(hers.json().error.code).toBe('id_taken');
    expect(hers.json().error.message.replace('9601', 'N')).toBe(mine.json().error.message.replace('9001', 'N'));

    const headers = { 'idempotency-key': 'block-once' };
    const first = await create({ startTime: '2026-12-02T13:00:00', videoIds: [5001] }, headers);
    const again = await create({ startTime: '2026-12-02T13:00:00', videoIds: [5001] }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await ids('?from=2026-12-02&to=2026-12-02')).toEqual([9002, 9500, first.json().data.id]);
  });

  it('refuses bad blocks with 422 details in the import wording, changing nothing', async () => {
    const before = await s.call('GET', SCHEDULES);
    const expectInvalid = async (response: Awaited<ReturnType<typeof create>>, details: object[]) => {
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.json().error.details).toEqual(details);
    };
    await expectInvalid(await create({ startTime: '2026-13-01T00:00:00', videoIds: [5001] }), [{ path: 'startTime', message: 'no such date/time "2026-13-01T00:00:00"' }]);
    await expectInvalid(await create({ startTime: '2026-12-03T00:00:00+01:00', videoIds: [5001] }), [
      { path: 'startTime', message: 'bad wall time "2026-12-03T00:00:00+01:00" (want yyyy-MM-ddTHH:mm:ss, no offset)' },
    ]);
    await expectInvalid(await create({ startTime: '2026-12-03T09:00:00', videoIds: [] }), [{ path: 'videoIds', message: 'must not be empty' }]);
    await expectInvalid(await create({ startTime: '2026-12-03T09:00:00', videoIds: [5001, 5002, 6001] }), [{ path: 'videoIds[2]', message: 'unknown video 6001' }]);
    await expectInvalid(await create({ startTime: '2026-12-03T09:00:00', videoIds: [77] }), [{ path: 'videoIds[0]', message: 'unknown video 77' }]);
    await expectInvalid(await create({ startTime: '2026-12-03T09:00:00', videoIds: [5001], colour: 'red' }), [{ path: 'colour', message: 'unknown field' }]);
    await expectInvalid(await s.call('PATCH', `${SCHEDULES}/9001`, { body: { videoIds: [5001, 6001] } }), [{ path: 'videoIds[1]', message: 'unknown video 6001' }]);
    await expectInvalid(await s.call('PATCH', `${SCHEDULES}/9001`, { body: { startTime: '2026-11-21T24:00:00' } }), [
      { path: 'startTime', message: 'no such date/time "2026-11-21T24:00:00"' },
    ]);
    const after = await s.call('GET', SCHEDULES);
    expect(after.headers.etag).toBe(before.headers.etag);
  });

  it('refuses a block overlapping another (unpublished ones too) with 409 naming it, unless allowOverlap', async () => {
    const before = await s.call('GET', SCHEDULES);
    const overlapping = await create({ startTime: '2026-11-21T08:20:00', videoIds: [5002] });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json().error.code).toBe('schedule_conflict');
    expect(overlapping.json().error.message).toMatch(
      /^The new block \(2026-11-21T08:20:00-05:00 to 2026-11-21T08:22:00-05:00\) overlaps the 'Morning news' block \(2026-11-21T08:00:00-05:00 to 2026-11-21T08:22:01-05:00\) on 2026-11-21 in America\/New_York; /,
    );
    // Named as a creator knows it (its first video and its times), never by its id.
    expect(overlapping.json().error.message).not.toContain('9001');
    const unpublished = await create({ startTime: '2026-11-21T11:55:00', videoIds: [5001] });
    expect(unpublished.statusCode).toBe(409);
    expect(unpublished.json().error.message).toContain("overlaps the 'Morning news' block (2026-11-21T12:00:00-05:00 to 2026-11-21T12:10:00-05:00)");
    expect((await s.call('GET', SCHEDULES)).headers.etag).toBe(before.headers.etag);
    // Touching is not overlapping: 9001 ends at 08:22:01.25.
    const next = await created({ startTime: '2026-11-21T08:22:02', videoIds: [5002] });
    const allowed = await created({ startTime: '2026-11-21T08:20:00', videoIds: [5002], allowOverlap: true });
    expect(allowed).toEqual({ id: expect.any(Number), startTime: '2026-11-21T08:20:00', published: true, loopDaily: false, videoIds: [5002] });
    // A change of its span is checked again (the earliest overlap, ties by block id, is named); publishing alone is not.
    const moved = await s.call('PATCH', `${SCHEDULES}/${next.id}`, { body: { startTime: '2026-11-21T08:21:00' } });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().error.message).toMatch(
      /^The 'Weather "live" & <more>' block \(2026-11-21T08:21:00-05:00 to 2026-11-21T08:23:00-05:00\) overlaps the 'Morning news' block \(2026-11-21T08:00:00-05:00 /,
    );
    const stretched = await s.call('PATCH', `${SCHEDULES}/${allowed.id}`, { body: { videoIds: [5002, 5002] }, headers: { 'if-match': '*' } });
    expect(stretched.statusCode).toBe(409);
    expect(stretched.json().error.message).toContain(`overlaps the 'Morning news' block (2026-11-21T08:00:00-05:00`);
    expect((await s.call('PATCH', `${SCHEDULES}/${allowed.id}`, { body: { published: false } })).statusCode).toBe(200);
    expect((await s.call('PATCH', `${SCHEDULES}/${next.id}`, { body: { startTime: '2026-11-21T08:21:00', allowOverlap: true } })).statusCode).toBe(200);
    for (const id of [next.id, allowed.id]) expect((await s.call('DELETE', `${SCHEDULES}/${id}`)).statusCode).toBe(204);
  });

  it('checks loopDaily blocks on every day they play', async () => {
    // A one-off block meets the loop 9002 on its own day, any day after 2026-11-18.
    const onLoop = await create({ startTime: '2027-06-05T22:01:00', videoIds: [5002] });
    expect(onLoop.statusCode).toBe(409);
    expect(onLoop.json().error.message).toContain(`overlaps the '${WEATHER}' block (2027-06-05T22:00:00-04:00 to 2027-06-05T22:02:00-04:00) on 2027-06-05`);
    const beforeLoop = await created({ startTime: '2026-11-17T22:01:00', videoIds: [5002] });
    // A new loop meets 9002 on the first day both play.
    const loop = await create({ startTime: '2026-11-10T21:59:00', loopDaily: true, videoIds: [5002] });
    expect(loop.statusCode).toBe(409);
    expect(loop.json().error.message).toMatch(/^The new block \(2026-11-17T21:59:00-05:00 .* overlaps the 'Weather "live" & <more>' block \(2026-11-17T22:01:00-05:00/);
    // ... and a one-off block far ahead.
    const ahead = await created({ startTime: '2027-02-01T05:00:00', videoIds: [5001] });
    const early = await create({ startTime: '2026-12-10T05:05:00', loopDaily: true, videoIds: [5002] });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toContain(`overlaps the 'Morning news' block (2027-02-01T05:00:00-05:00 to 2027-02-01T05:10:00-05:00) on 2027-02-01`);
    // A loop starting after a one-off's day does not meet it.
    const later = await created({ startTime: '2027-02-02T05:05:00', loopDaily: true, videoIds: [5002] });
    for (const id of [beforeLoop.id, ahead.id, later.id]) expect((await s.call('DELETE', `${SCHEDULES}/${id}`)).statusCode).toBe(204);
  });

  it('measures spans in instants on a 25-hour day (America/New_York, 2026-11-01)', async () => {
    // [5003 5003 5001] is 2 h 10 min: from midnight it ends at 01:10 EST on the day the clocks fall back.
    const fallBack = await created({ startTime: '2026-11-01T00:00:00', videoIds: [5003, 5003, 5001] });
    const two = await created({ startTime: '2026-11-01T02:00:00', videoIds: [5002] });
    // In the repeated hour a wall time is its first pass (EDT), as the schedule plays it.
    const repeated = await create({ startTime: '2026-11-01T01:05:00', videoIds: [5002] });
    expect(repeated.statusCode).toBe(409);
    expect(repeated.json().error.message).toMatch(
      /\(2026-11-01T01:05:00-04:00 to 2026-11-01T01:07:00-04:00\) overlaps the 'Concert' block \(2026-11-01T00:00:00-04:00 to 2026-11-01T01:10:00-05:00\) on 2026-11-01/,
    );
    // A week later the same two blocks overlap (a 24-hour day).
    await created({ startTime: '2026-11-08T00:00:00', videoIds: [5003, 5003, 5001] });
    const weekLater = await create({ startTime: '2026-11-08T02:00:00', videoIds: [5002] });
    expect(weekLater.statusCode).toBe(409);
    expect(weekLater.json().error.message).toContain('(2026-11-08T00:00:00-05:00 to 2026-11-08T02:10:00-05:00) on 2026-11-08');
    // The console's day shows the 25-hour day as it plays.
    const day = (await s.call('GET', '/channels/201/days/2026-11-01')).json().data;
    expect(day.entries.map((b: any) => [b.blockId, b.startTime])).toEqual([
      [fallBack.id, '2026-11-01T00:00:00'],
      [two.id, '2026-11-01T02:00:00'],
    ]);
    expect(day.entries[0].videos.map((v: any) => v.playbackStartTime)).toEqual(['2026-11-01T00:00:00', '2026-11-01T01:00:00', '2026-11-01T01:00:00']);
  });

  it('answers the expanded day as REST shows it, in Studio names, each entry naming its block, unpublished ones included', async () => {
    const response = await s.call('GET', '/channels/201/days/2026-11-21');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toMatch(/^"/);
    const day = response.json().data;
    expect(Object.keys(day)).toEqual(['channelId', 'date', 'timezone', 'entries', 'totalVideos', 'totalDurationLabel']);
    expect(day.entries.map((b: any) => [b.blockId, b.isLive, b.startTime, b.published])).toEqual([
      [9001, false, '2026-11-21T08:00:00', true],
      [9003, false, '2026-11-21T12:00:00', false],
      [null, true, '2026-11-21T13:00:00', true],
      [9002, false, '2026-11-21T22:00:00', true],
    ]);
    expect(day.entries[1].videos[0]).toMatchObject({ videoId: 5001, playbackStartTime: '2026-11-21T12:00:00' });
    expect(day.timezone).toBe('America/New_York');
    // No REST wire name is left in the Studio's answer.
    expect(response.body).not.toMatch(/TubeId|channelScheduleId|"schedules"/);
    // The same day as REST's schedules route, key for key once the names are mapped back.
    const restDay = (await rest('2026-11-21')).json().data;
    const asRest = {
      channelTubeId: day.channelId,
      date: day.date,
      schedules: day.entries.map(({ blockId, isLive: _l, videos, ...b }: any) => ({
        channelScheduleId: blockId ?? -videos[0].videoId,
        ...b,
        videos: videos.map(({ videoId, ...v }: any) => ({ videoTubeId: videoId, ...v })),
      })),
      totalVideos: day.totalVideos,
      totalDurationLabel: day.totalDurationLabel,
    };
    expect(asRest).toEqual(restDay);
    expect((await s.call('GET', '/channels/201/days/2026-11-31')).statusCode).toBe(422);
  });

  it("copies a day's one-off blocks to other days at the same wall times, refusing conflicts, replacing on request", async () => {
    const s1 = await created({ startTime: '2026-12-14T10:00:00', videoIds: [5001] });
    const s2 = await created({ startTime: '2026-12-14T15:00:00', published: false, videoIds: [5002] });
    const loop = await created({ startTime: '2026-12-14T06:00:00', loopDaily: true, videoIds: [5002] });
    const copy = (date: string, body: object, headers: Record<string, string> = {}) => s.call('POST', `/channels/201/days/${date}/copy`, { body, headers });

    const copied = await copy('2026-12-14', { toDates: ['2026-12-15', '2026-12-16'] });
    expect(copied.statusCode, copied.body).toBe(201);
    const items = copied.json().data.items;
    expect(items.map((b: any) => [b.startTime, b.published, b.loopDaily, b.videoIds])).toEqual([
      ['2026-12-15T10:00:00', true, false, [5001]],
      ['2026-12-15T15:00:00', false, false, [5002]],
      ['2026-12-16T10:00:00', true, false, [5001]],
      ['2026-12-16T15:00:00', false, false, [5002]],
    ]);
    expect(new Set(items.map((b: any) => b.id)).size).toBe(4);
    expect(items.every((b: any) => ![s1.id, s2.id, loop.id].includes(b.id))).toBe(true);

    const before = await s.call('GET', SCHEDULES);
    const again = await copy('2026-12-14', { toDates: ['2026-12-17', '2026-12-15'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('schedule_conflict');
    expect(again.json().error.message).toContain(
      `The copy of the 'Morning news' block to 2026-12-15 (2026-12-15T10:00:00-05:00 to 2026-12-15T10:10:00-05:00) overlaps the 'Morning news' block (2026-12-15T10:00:00-05:00 `,
    );
    expect((await s.call('GET', SCHEDULES)).headers.etag).toBe(before.headers.etag);

    const replaced = await copy('2026-12-14', { toDates: ['2026-12-15'], replace: true }, { 'if-match': before.headers.etag as string });
    expect(replaced.statusCode, replaced.body).toBe(201);
    const onFifteenth = await ids('?from=2026-12-15&to=2026-12-15');
    expect(onFifteenth).toEqual([9002, loop.id, ...replaced.json().data.items.map((b: any) => b.id)]);
    const stale = await copy('2026-12-14', { toDates: ['2026-12-18'] }, { 'if-match': before.headers.etag as string });
    expect(stale.statusCode).toBe(412);
    expect((await copy('2026-12-14', { toDates: ['2026-12-16'], allowOverlap: true })).statusCode).toBe(201);
    expect(await ids('?from=2026-12-16&to=2026-12-16')).toHaveLength(6);

    // Copies are checked against each other: a block crossing midnight reaches the next copy's day.
    await created({ startTime: '2026-12-20T23:30:00', videoIds: [5003] });
    await created({ startTime: '2026-12-20T00:10:00', videoIds: [5001] });
    const crossing = await copy('2026-12-20', { toDates: ['2026-12-22', '2026-12-23'] });
    expect(crossing.statusCode).toBe(409);
    expect(crossing.json().error.message).toMatch(
      /^The copy of the 'Morning news' block to 2026-12-23 \(.*\) overlaps the copy of the 'Concert' block to 2026-12-22 \(2026-12-22T23:30:00-05:00 to 2026-12-23T00:30:00-05:00\)/,
    );

    const invalid = async (date: string, body: object, details: object[]) => {
      const response = await copy(date, body);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.details).toEqual(details);
    };
    await invalid('2026-12-14', { toDates: ['2026-12-18', '2026-12-14', '2026-12-18'] }, [
      { path: 'toDates[1]', message: '2026-12-14 is the day copied from' },
      { path: 'toDates[2]', message: 'duplicate date 2026-12-18' },
    ]);
    await invalid('2026-12-14', { toDates: [] }, [{ path: 'toDates', message: 'must not be empty' }]);
    await invalid('2026-12-14', { toDates: Array.from({ length: 32 }, (_, i) => `2027-01-${String((i % 28) + 1).padStart(2, '0')}`) }, [
      { path: 'toDates', message: 'must have at most 31 items' },
    ]);
    await invalid('2026-12-14', { toDates: ['2026-12-32'] }, [{ path: 'toDates[0]', message: 'must be a real date in the form yyyy-MM-dd' }]);
    await invalid('2026-12-13', { toDates: ['2026-12-18'] }, [{ path: 'date', message: 'no one-off block starts on 2026-12-13; nothing to copy' }]);
  });

  it("two editors of one block: the second write with the first's ETag is refused with 412", async () => {
    const block = await created({ startTime: '2026-12-04T09:00:00', videoIds: [5001] });
    const first = await s.call('GET', `${SCHEDULES}/${block.id}`);
    const second = await s.call('GET', `${SCHEDULES}/${block.id}`);
    expect(second.headers.etag).toBe(first.headers.etag);
    const one = await s.call('PATCH', `${SCHEDULES}/${block.id}`, { body: { startTime: '2026-12-04T10:00:00' }, headers: { 'if-match': first.headers.etag as string } });
    expect(one.statusCode).toBe(200);
    const other = await s.call('PATCH', `${SCHEDULES}/${block.id}`, { body: { startTime: '2026-12-04T11:00:00' }, headers: { 'if-match': second.headers.etag as string } });
    expect(other.statusCode).toBe(412);
    expect(other.json().error.code).toBe('precondition_failed');
    expect((await s.call('DELETE', `${SCHEDULES}/${block.id}`, { headers: { 'if-match': second.headers.etag as string } })).statusCode).toBe(412);
    expect((await s.call('GET', `${SCHEDULES}/${block.id}`)).json().data.startTime).toBe('2026-12-04T10:00:00');
    const staleList = await create({ startTime: '2026-12-04T12:00:00', videoIds: [5001] }, { 'if-match': '"stale"' });
    expect(staleList.statusCode).toBe(412);
  });

  it("another owner's channel answers 404 exactly as a missing one on every route, changing nothing", async () => {
    const before = await s.call('GET', SCHEDULES);
    const block = { startTime: '2026-12-05T09:00:00', videoIds: [6001] };
    const routes: Array<[string, (channel: number) => string, object | undefined]> = [
      ['GET', (c) => `/channels/${c}/schedules`, undefined],
      ['GET', (c) => `/channels/${c}/schedules?from=2026-11-21`, undefined],
      ['POST', (c) => `/channels/${c}/schedules`, block],
      ['GET', (c) => `/channels/${c}/schedules/9001`, undefined],
      ['PATCH', (c) => `/channels/${c}/schedules/9001`, { published: false }],
      ['DELETE', (c) => `/channels/${c}/schedules/9001`, undefined],
      ['GET', (c) => `/channels/${c}/days/2026-11-21`, undefined],
      ['POST', (c) => `/channels/${c}/days/2026-11-21/copy`, { toDates: ['2026-12-06'] }],
    ];
    for (const [method, url, body] of routes) {
      const hers = await s.call(method, url(201), { body, token: s.tokens.olga });
      const none = await s.call(method, url(999999), { body, token: s.tokens.olga });
      expect(hers.statusCode, `${method} ${url(201)}`).toBe(404);
      expect(hers.body).toBe(none.body);
      expect(hers.headers.etag).toBeUndefined();
    }
    // And alice on olga's channel and block.
    const mine = await s.call('GET', '/channels/601/schedules/9601');
    expect(mine.statusCode).toBe(404);
    expect(mine.body).toBe((await s.call('GET', '/channels/999999/schedules/9601')).body);
    expect((await s.call('GET', SCHEDULES)).headers.etag).toBe(before.headers.etag);
    expect((await s.call('GET', '/channels/601/schedules', { token: s.tokens.olga })).json().data.items.map((b: any) => b.id)).toEqual([9601]);
  });

  it('a new block is visible at once in REST schedules and the Custom guide', async () => {
    const date = '2026-11-25';
    // Read first, so that the caches hold the day without the block.
    expect((await rest(date)).json().data.schedules.map((b: any) => b.channelScheduleId)).toEqual([9002]);
    expect((await guide(date)).json().data.map((r: any) => r.customId)).toEqual(['201-5002-1']);
    const block = await created({ startTime: `${date}T09:00:00`, videoIds: [5001] });
    // The change notice reaches this instance's caches when the write commits (PostgreSQL delivers it asynchronously).
    await expect.poll(async () => (await rest(date)).json().data.schedules.map((b: any) => b.channelScheduleId), { timeout: 5_000, interval: 20 }).toEqual([block.id, 9002]);
    await expect
      .poll(async () => (await guide(date)).json().data.map((r: any) => [r.customId, r.startDate]), { timeout: 5_000, interval: 20 })
      .toEqual([
        ['201-5001-1', `${date} 09:00:00`],
        ['201-5002-1', `${date} 22:00:00`],
      ]);
    // Unpublished, it leaves the guide and stays in the owner's REST day.
    expect((await s.call('PATCH', `${SCHEDULES}/${block.id}`, { body: { published: false } })).statusCode).toBe(200);
    await expect.poll(async () => (await guide(date)).json().data.map((r: any) => r.customId), { timeout: 5_000, interval: 20 }).toEqual(['201-5002-1']);
    expect((await rest(date)).json().data.schedules.map((b: any) => [b.channelScheduleId, b.published])).toEqual([
      [block.id, false],
      [9002, true],
    ]);
  });
});
