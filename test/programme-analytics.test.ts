// Programme analytics (docs/activity.md: Programme analytics): heartbeats through the real ingestion on the
// test clock, the sweep and the crediter run by hand, the figures read through the REST routes.
// Channel 205 plays, every day from 10:00 UTC: 5001 (10:00-10:10), 5002 (10:10-10:12), 5003
// (10:12-11:12); on 2026-11-20 a live stream of 5002 from 11:00 to 11:30 cuts 5003 at 11:00.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/access/tokens.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { creditClosedSessions } from '../src/sessions/programme-crediter.ts';
import { sweepSessions } from '../src/sessions/sweeper.ts';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const REST = '/api/v1/rest';
const NOW = '2026-11-20T11:20:30.000Z';
const RANGE = 'from=2026-11-20&to=2026-11-21';
const at = (hhmm: string) => `2026-11-20T${hhmm}:00Z`;
const minutes = (from: string, to: string) => {
  const list: string[] = [];
  for (let ms = Date.parse(at(from)); ms <= Date.parse(at(to)); ms += 60_000) list.push(new Date(ms).toISOString());
  return list;
};

function programmeCatalog() {
  const catalog: any = smallCatalog();
  catalog.accounts.push({ id: 16, username: 'other', email: 'other@example.com', password: 'pw-other', publicUrl: 'other' });
  catalog.channels.push(
    {
      id: 205,
      ownerId: 11,
      name: 'Alice Daily',
      url: 'alice-daily',
      categoryId: 1,
      timezone: 'UTC',
      videoIds: [5001, 5002, 5003],
      schedules: [{ id: 9501, startTime: '2026-11-01T10:00:00', loopDaily: true, videoIds: [5001, 5002, 5003] }],
      liveStreams: [{ videoId: 5002, start: '2026-11-20T11:00:00Z', end: '2026-11-20T11:30:00Z', uri: 'https://live.example/205' }],
      createdAt: '2026-01-01T00:00:00Z',
    },
    { id: 401, ownerId: 16, name: 'Other channel', url: 'other', categoryId: 1, createdAt: '2026-01-01T00:00:00Z' },
  );
  return catalog;
}

/** Sessions A to E: [device body, heartbeat instants]. */
const SESSIONS: [object, string[]][] = [
  [{ source: 'roku_app', client_id: 1 }, minutes('10:05', '10:15')], // A: 5001 300 s, 5002 120 s, 5003 180 s
  [{ source: 'fire_tv', client_id: 2 }, minutes('10:08', '10:11')], // B: 5001 120 s, 5002 60 s
  [{ source: 'roku_app', client_id: 1 }, minutes('10:50', '10:58')], // C: same device as A, 5003 480 s
  [{ source: 'apple_tv', client_id: 3 }, [at('11:10')]], // D: one heartbeat during the live 5002: 0 s
  [{ source: 'roku_app', client_id: 4 }, minutes('11:15', '11:20')], // E: still open at NOW, live 5002 300 s so far
];

describe.each(BACKENDS)('programme analytics on %s', (backend) => {
  let t: TestApp;
  let token: string;
  let otherToken: string;
  const timelines = new ScheduleTimelines();
  const credit = () => creditClosedSessions(t.database.db, timelines);

  beforeAll(async () => {
    // No schedule cache: the test edits the schedule in SQL, which no cache would hear of.
    t = await testApp(backend, programmeCatalog(), { SCHEDULE_CACHE_ENTRIES: 0 });
    for (const [body, instants] of SESSIONS) {
      for (const now of instants) {
        const response = await t.request({ method: 'POST', url: '/api/v1/activity', now, payload: { action: 'play_channel', channel_id: 205, ...body } });
        expect(response.statusCode).toBe(200);
      }
    }
    token = await issueToken(t.database.db, OWNER.id, { kind: 'sliding', seconds: 86_400 }, new Date(NOW));
    otherToken = await issueToken(t.database.db, 16, { kind: 'sliding', seconds: 86_400 }, new Date(NOW));
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = {}, bearer = token) =>
    t.request({ url: `${REST}/analytics/${path}`, headers: { authorization: `Bearer ${bearer}`, ...headers }, now: NOW });
  const data = async (path: string) => {
    const response = await get(path);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const figures = (items: any[]) => items.map((i) => [i.videoId, i.watchSeconds, i.sessions, i.uniqueViewers, i.peakConcurrentViewers]);

  const EXPECTED = [
    [5003, 660, 2, 1, 1],
    [5002, 480, 4, 4, 2],
    [5001, 420, 2, 2, 2],
  ];

  it('answers whole figures before any credit: closed sessions and the open one are split on the fly', async () => {
    const page = await data(`programmes?${RANGE}`);
    expect(figures(page.items)).toEqual(EXPECTED);
    expect(page.totals).toEqual({ watchSeconds: 1560, sessions: 5, uniqueViewers: 4, averageSessionMinutes: 5.2, peakConcurrentViewers: 2 });
  });

  it('credits each closed session once, and the figures do not change', async () => {
    // A was closed by C's first heartbeat (same device, after the gap); the sweep closes B, C and D.
    expect(await sweepSessions(t.database.db, new Date(NOW))).toBe(3);
    expect(await credit()).toBe(4);
    expect(await credit()).toBe(0);
    const rows = await t.database.db.execute(sql`select count(*)::int as n from programme_watch`);
    expect((rows as any).rows[0].n).toBe(7);
    const page = await data(`programmes?${RANGE}`);
    expect(figures(page.items)).toEqual(EXPECTED);
    expect(page.items[2]).toMatchObject({ videoId: 5001, title: 'Morning news', averageSessionMinutes: 3.5, channelId: null, source: null, day: null });
  });

  it('groups by channel, source and day, and sorts by another figure', async () => {
    const bySource = await data(`programmes?${RANGE}&groupBy=source&sort=sessions&perPage=3`);
    expect(bySource.items.map((i: any) => [i.videoId, i.source, i.watchSeconds, i.sessions, i.peakConcurrentViewers])).toEqual([
      [5002, 'roku_app', 420, 2, 1],
      [5003, 'roku_app', 660, 2, 1],
      [5001, 'fire_tv', 120, 1, 1],
    ]);
    expect([bySource.total, bySource.totalPages]).toEqual([6, 2]);
    // A page past the last is empty and still says how many there are.
    const past = await get(`programmes?${RANGE}&groupBy=source&perPage=3&page=9`);
    expect([past.json().data.items, past.json().data.total, past.json().data.totalPages, past.headers['x-total-count']]).toEqual([[], 6, 2, '6']);
    const byChannel = await data(`programmes?${RANGE}&groupBy=channel&channelId=205`);
    expect(byChannel.items.map((i: any) => [i.videoId, i.channelId, i.channelName])).toEqual([
      [5003, 205, 'Alice Daily'],
      [5002, 205, 'Alice Daily'],
      [5001, 205, 'Alice Daily'],
    ]);
    const byDay = await data(`programmes?from=2026-11-19&to=2026-11-22&groupBy=day`);
    expect(byDay.items.map((i: any) => [i.videoId, i.day])).toEqual([
      [5003, '2026-11-20'],
      [5002, '2026-11-20'],
      [5001, '2026-11-20'],
    ]);
  });

  it('keeps credited history when the schedule changes; the open session follows the schedule now', async () => {
    await t.database.db.execute(sql`delete from live_streams where channel_id = 205`);
    const page = await data(`programmes?${RANGE}`);
    // D stays credited to the live 5002; E (open) now watches nothing (5003 stopped at 11:12): the channel's dead air, 11:15 to 11:20.
    expect(figures(page.items)).toEqual([
      [5003, 660, 2, 1, 1],
      [5001, 420, 2, 2, 2],
      [null, 300, 1, 1, 1],
      [5002, 180, 3, 3, 2],
    ]);
    expect(page.items[2]).toMatchObject({ deadAir: true, title: null, channelId: 205, channelName: 'Alice Daily' });
    await t.database.db.execute(sql`
      insert into live_streams (channel_id, video_id, start_at, end_at, uri) values (205, 5002, '2026-11-20T11:00:00Z', '2026-11-20T11:30:00Z', 'https://live.example/205')`);
  });

  it('lists the top programmes and channels', async () => {
    const top = await data(`top?${RANGE}&metric=viewers&limit=2`);
    expect(top.programmes.map((p: any) => [p.videoId, p.uniqueViewers])).toEqual([
      [5002, 4],
      [5001, 2],
    ]);
    expect(top.channels).toEqual([
      { channelId: 205, channelName: 'Alice Daily', watchSeconds: 1560, sessions: 5, uniqueViewers: 4, averageSessionMinutes: 5.2, peakConcurrentViewers: 2 },
    ]);
  });

  it('draws the channel-day curve with the programme on air at each minute', async () => {
    const curve = await data('channels/205/curve?date=2026-11-20');
    expect([curve.timezone, curve.minutes.length]).toEqual(['UTC', 1440]);
    const minute = (hhmm: string) => curve.minutes.find((m: any) => m.start === `${at(hhmm).slice(0, -1)}.000Z`);
    expect(minute('09:59')).toMatchObject({ viewers: 0, videoId: null, title: null, deadAir: true });
    expect(minute('10:05')).toMatchObject({ deadAir: false });
    expect(minute('10:05')).toMatchObject({ viewers: 1, videoId: 5001, title: 'Morning news', isLive: false });
    expect(minute('10:08').viewers).toBe(2);
    expect(minute('10:10')).toMatchObject({ viewers: 2, videoId: 5002 });
    expect(minute('10:11').viewers).toBe(1);
    expect(minute('11:10')).toMatchObject({ viewers: 1, videoId: 5002, isLive: true });
    expect(minute('11:17')).toMatchObject({ viewers: 1, videoId: 5002, isLive: true });
    expect(minute('11:31')).toMatchObject({ viewers: 0, videoId: null });
    const csv = await get('channels/205/curve?date=2026-11-20', { accept: 'text/csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n')[0]).toBe('start,viewers,videoId,title,isLive,deadAir');
    expect(csv.body).toContain('2026-11-20T10:08:00.000Z,2,5001,Morning news,false,false\r\n');
  });

  it('answers CSV for programmes and top lists', async () => {
    const csv = await get(`programmes?${RANGE}`, { accept: 'text/csv' });
    expect(csv.body.split('\r\n').slice(0, 2)).toEqual([
      'videoId,title,channelId,channelName,source,day,watchSeconds,sessions,uniqueViewers,averageSessionMinutes,peakConcurrentViewers,deadAir',
      '5003,Concert,,,,,660,2,1,5.5,1,false',
    ]);
    const top = await get(`top?${RANGE}`, { accept: 'text/csv' });
    expect(top.body.split('\r\n')[4]).toBe('channel,1,205,Alice Daily,1560,5,4,5.2,2');
  });

  it('refuses bad input with 400 invalid_request and changes nothing', async () => {
    for (const path of [
      'programmes?from=2026-13-01',
      'programmes?from=2026-01-01&to=2026-06-01',
      'programmes?groupBy=week',
      'programmes?sort=title',
      'programmes?perPage=501',
      'programmes?channelid=205',
      'top?limit=101',
      'top?metric=x',
      'channels/205/curve',
      'channels/205/curve?date=2026-02-30',
      'channels/205/curve?date=20261120',
      'channels/205/curve?date=0000-01-01',
      'channels/abc/curve?date=2026-11-20',
    ]) {
      const response = await get(path);
      expect([path, response.statusCode, response.json().error.code]).toEqual([path, 400, 'invalid_request']);
    }
  });

  it('never shows another owner anything: their channel is not found, their figures are empty', async () => {
    const curve = await get('channels/205/curve?date=2026-11-20', {}, otherToken);
    expect([curve.statusCode, curve.json().error.code]).toEqual([404, 'channel_not_found']);
    expect((await get('programmes?channelId=205', {}, otherToken)).statusCode).toBe(404);
    const theirs = (await get(`programmes?${RANGE}`, {}, otherToken)).json().data;
    expect([theirs.items, theirs.totals.sessions]).toEqual([[], 0]);
    expect((await get(`top?${RANGE}`, {}, otherToken)).json().data.channels).toEqual([]);
    expect((await get(`programmes?${RANGE}`, {}, 'not-a-token')).statusCode).toBe(401);
  });

  it('counts viewers during dead air in the curve, as dead air (issue 36 item 3), not as a silent gap', async () => {
    // A closed session of a new device from 12:00 to 12:05, when nothing is on air (the day's programmes end at 11:30).
    await t.database.db.execute(sql`
      insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open, ended_at, credited_seconds)
      values ('roku_app', 'dark-1', '', 205, 11, '2026-11-20T12:00:00Z', '2026-11-20T12:05:00Z', 6, false, '2026-11-20T12:05:00Z', 300)`);
    const curve = await data('channels/205/curve?date=2026-11-20');
    const minute = (hhmm: string) => curve.minutes.find((m: any) => m.start === `${at(hhmm).slice(0, -1)}.000Z`);
    expect(minute('12:02')).toMatchObject({ viewers: 1, videoId: null, title: null, deadAir: true });
    expect(minute('12:06')).toMatchObject({ viewers: 0, deadAir: true });
    expect(minute('10:05')).toMatchObject({ viewers: 1, videoId: 5001, deadAir: false });
  });
});

describe.each(BACKENDS.filter((b) => b === 'postgres'))('two crediters at once on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, programmeCatalog(), { SCHEDULE_CACHE_ENTRIES: 0 });
  });
  afterAll(() => t.close());

  it('credit every session once, and each airing counts the rows of both', async () => {
    // 1,200 closed sessions of 400 devices starting over the hour of channel 205 from 10:00, when something is always on air.
    await t.database.db.execute(sql`
      insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open, ended_at, credited_seconds)
      select 'roku_app', 'd' || (i % 400), '', 205, 11, '2026-11-20T10:00:00Z'::timestamptz + (i * 3) * interval '1 second',
             '2026-11-20T10:00:00Z'::timestamptz + (i * 3 + 300 + i % 900) * interval '1 second', 5, false,
             '2026-11-20T10:00:00Z'::timestamptz + (i * 3 + 300 + i % 900) * interval '1 second', 300 + i % 900
        from generate_series(1, 1200) as i`);
    const timelines = [new ScheduleTimelines(), new ScheduleTimelines()];
    let credited = 0;
    for (;;) {
      const passes = await Promise.all(timelines.map((tl) => creditClosedSessions(t.database.db, tl, 25)));
      credited += passes[0]! + passes[1]!;
      if (passes[0] === 0 && passes[1] === 0) break;
    }
    expect(credited).toBe(1200);
    const rows = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as any).rows;
    expect(await rows(sql`select count(*)::int as n from watch_sessions where not programmes_credited`)).toEqual([{ n: 0 }]);
    // Each airing's stored figures are those of all of its rows, whichever crediter wrote them.
    const mismatches = await rows(sql`
      select pa.channel_id, pa.airing_start from programme_airings pa
        join (select channel_id, airing_start, count(distinct session_id)::int as sessions, sum(watch_seconds)::float8 as watch, count(distinct viewer)::int as viewers
                from programme_watch group by channel_id, airing_start) w using (channel_id, airing_start)
       where pa.source = '' and (pa.sessions <> w.sessions or pa.watch_seconds <> w.watch or pa.viewers <> w.viewers)`);
    expect(mismatches).toEqual([]);
    const [{ sessions }] = await rows(sql`select count(distinct session_id)::int as sessions from programme_watch`);
    expect(sessions).toBe(1200);
  });
});

describe.each(BACKENDS)('a crediter that fails on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, programmeCatalog(), { SCHEDULE_CACHE_ENTRIES: 0 });
    for (const now of minutes('10:05', '10:07')) {
      await t.request({ method: 'POST', url: '/api/v1/activity', now, payload: { action: 'play_channel', channel_id: 205, source: 'roku_app', client_id: 1 } });
    }
    await sweepSessions(t.database.db, new Date(NOW));
  });
  afterAll(() => t.close());

  it('writes nothing and leaves the session to the next pass', async () => {
    const failing = new ScheduleTimelines();
    // The schedule read of programmesOnAir (the on-air timeline's occurrences since issue 28; slices before).
    failing.occurrences = async () => {
      throw new Error('schedule unreadable');
    };
    const count = async (query: ReturnType<typeof sql>) => ((await t.database.db.execute(query)) as any).rows[0].n;
    // A failure inside a pass (here the schedule read) rolls its transaction back: the claim too.
    await expect(creditClosedSessions(t.database.db, failing)).rejects.toThrow('schedule unreadable');
    expect(await count(sql`select count(*)::int as n from programme_watch`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from watch_sessions where not programmes_credited`)).toBe(1);
    expect(await creditClosedSessions(t.database.db, new ScheduleTimelines())).toBe(1);
    expect(await count(sql`select count(*)::int as n from programme_watch`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from programme_airings`)).toBe(2);
  });
});

describe.each(BACKENDS)('dead air in the programme list on %s (issue 36 item 3)', (backend) => {
  // 2026-11-21 on channel 205: 5001 10:00-10:10, 5002 10:10-10:12, 5003 10:12-11:12, then nothing until the next day's 10:00.
  const NOW21 = '2026-11-21T12:30:00.000Z';
  const at21 = (hhmm: string) => `2026-11-21T${hhmm}:00Z`;
  const every = (from: string, to: string) => {
    const list: string[] = [];
    for (let ms = Date.parse(at21(from)); ms <= Date.parse(at21(to)); ms += 60_000) list.push(new Date(ms).toISOString());
    return list;
  };
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApp(backend, programmeCatalog(), { SCHEDULE_CACHE_ENTRIES: 0 });
    const sessions: [object, string[]][] = [
      [{ source: 'roku_app', client_id: 21 }, every('11:05', '11:20')], // X: 5003 11:05-11:12 (420 s), then dead air 11:12-11:20 (480 s)
      [{ source: 'fire_tv', client_id: 22 }, every('10:02', '10:06')], // Y: 5001 240 s, no dead air
      [{ source: 'apple_tv', client_id: 23 }, [at21('12:00')]], // Z: one heartbeat in dead air: 0 s
    ];
    for (const [body, instants] of sessions) {
      for (const now of instants) {
        const response = await t.request({ method: 'POST', url: '/api/v1/activity', now, payload: { action: 'play_channel', channel_id: 205, ...body } });
        expect(response.statusCode).toBe(200);
      }
    }
    token = await issueToken(t.database.db, OWNER.id, { kind: 'sliding', seconds: 86_400 }, new Date(NOW21));
  });
  afterAll(() => t.close());

  const data = async (path: string) => {
    const response = await t.request({ url: `${REST}/analytics/${path}`, headers: { authorization: `Bearer ${token}` }, now: NOW21 });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const rows = (items: any[]) => items.map((i) => [i.videoId, i.deadAir, i.watchSeconds, i.sessions, i.uniqueViewers, i.peakConcurrentViewers]);
  const DAY = 'from=2026-11-21&to=2026-11-22';
  const EXPECTED = [
    [null, true, 480, 2, 2, 1],
    [5003, false, 420, 1, 1, 1],
    [5001, false, 240, 1, 1, 1],
  ];
  const TOTALS = { watchSeconds: 1140, sessions: 3, uniqueViewers: 3, averageSessionMinutes: 6.3, peakConcurrentViewers: 1 };

  it('gives the programme only its part of a session and the channel one dead-air row with the gap, before any credit', async () => {
    const page = await data(`programmes?${DAY}`);
    expect(rows(page.items)).toEqual(EXPECTED);
    expect(page.items[0]).toEqual({
      videoId: null,
      title: null,
      channelId: 205,
      channelName: 'Alice Daily',
      source: null,
      day: null,
      watchSeconds: 480,
      sessions: 2,
      uniqueViewers: 2,
      averageSessionMinutes: 4,
      peakConcurrentViewers: 1,
      deadAir: true,
    });
    expect(page.totals).toEqual(TOTALS);
    expect(page.total).toBe(3);
  });

  it('answers the same once the sessions are credited (the stored rows tell the gaps)', async () => {
    expect(await sweepSessions(t.database.db, new Date(NOW21))).toBe(3);
    expect(await creditClosedSessions(t.database.db, new ScheduleTimelines())).toBe(3);
    const page = await data(`programmes?${DAY}`);
    expect(rows(page.items)).toEqual(EXPECTED);
    expect(page.totals).toEqual(TOTALS);
    // Ranked and paged among the programmes by the figure asked.
    const bySessions = await data(`programmes?${DAY}&sort=sessions&perPage=1`);
    expect([rows(bySessions.items), bySessions.total]).toEqual([[EXPECTED[0]], 3]);
  });

  it("stores each credited session's dead air, and the migration gives sessions credited before it the same rows", async () => {
    const db = t.database.db;
    const stored = async () =>
      (
        (await db.execute(
          sql`select session_id::int as s, watch_start, owner_id, channel_id, source, viewer::text as viewer, watch_seconds from programme_dead_air order by 1, 2`,
        )) as any
      ).rows;
    const credited = await stored();
    // X's 480 s after 5003, Z's one heartbeat; nothing of Y.
    expect(credited.map((r: any) => [new Date(r.watch_start).toISOString(), r.source, r.watch_seconds])).toEqual([
      ['2026-11-21T11:12:00.000Z', 'roku_app', 480],
      ['2026-11-21T12:00:00.000Z', 'apple_tv', 0],
    ]);
    // The backfill of drizzle/0022_programme_dead_air.sql (its last statement), from the stored programme rows, hashing the device in SQL.
    await db.execute(sql`delete from programme_dead_air`);
    const migration = readFileSync(new URL('../drizzle/0022_programme_dead_air.sql', import.meta.url), 'utf8')
      .split('--> statement-breakpoint')
      .at(-1)!;
    await db.execute(sql.raw(migration));
    expect(await stored()).toEqual(credited);
  });

  it('keeps one dead-air row per channel and source or day when grouped so', async () => {
    const byChannel = await data(`programmes?${DAY}&groupBy=channel&channelId=205`);
    expect(byChannel.items.map((i: any) => [i.videoId, i.channelId, i.deadAir, i.watchSeconds])).toEqual([
      [null, 205, true, 480],
      [5003, 205, false, 420],
      [5001, 205, false, 240],
    ]);
    const bySource = await data(`programmes?${DAY}&groupBy=source`);
    expect(bySource.items.filter((i: any) => i.deadAir).map((i: any) => [i.channelId, i.source, i.watchSeconds, i.sessions])).toEqual([
      [205, 'roku_app', 480, 1],
      [205, 'apple_tv', 0, 1],
    ]);
    const byDay = await data(`programmes?from=2026-11-20&to=2026-11-23&groupBy=day`);
    expect(byDay.items.filter((i: any) => i.deadAir).map((i: any) => [i.channelId, i.day, i.watchSeconds])).toEqual([[205, '2026-11-21', 480]]);
  });

  it("adds up: for any sessions of a day, the programmes' and the dead air's seconds are the seconds watched, credited or not", async () => {
    // 2026-11-19: 5001 10:00-10:10, 5002 10:10-10:12, 5003 10:12-11:12, dead air around them; sessions of up to two hours,
    // at any millisecond from 00:00 to 22:00, so every airing they watch starts that day and none runs past it.
    const DAY0 = Date.parse('2026-11-19T00:00:00Z');
    const session = fc.record({ device: fc.integer({ min: 1, max: 4 }), start: fc.integer({ min: 0, max: 22 * 3_600_000 }), length: fc.integer({ min: 0, max: 2 * 3_600_000 }) });
    const db = t.database.db;
    const figuresOf = async () => {
      const page = await data('programmes?from=2026-11-19&to=2026-11-20&perPage=500');
      return { items: rows(page.items), totals: page.totals, sum: page.items.reduce((n: number, i: any) => n + i.watchSeconds, 0) };
    };
    await fc.assert(
      fc.asyncProperty(fc.array(session, { minLength: 1, maxLength: 6 }), async (sessions) => {
        await db.execute(sql`delete from programme_watch where airing_start >= '2026-11-18' and airing_start < '2026-11-20'`);
        await db.execute(sql`delete from programme_airings where airing_start >= '2026-11-18' and airing_start < '2026-11-20'`);
        await db.execute(sql`delete from programme_dead_air where watch_start >= '2026-11-18' and watch_start < '2026-11-20'`);
        await db.execute(sql`delete from watch_sessions where started_at >= '2026-11-18' and started_at < '2026-11-20'`);
        for (const s of sessions) {
          const [from, to] = [new Date(DAY0 + s.start).toISOString(), new Date(DAY0 + s.start + s.length).toISOString()];
          await db.execute(sql`
            insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open, ended_at, credited_seconds)
            values ('roku_app', ${`p${s.device}`}, '', 205, 11, ${from}::timestamptz, ${to}::timestamptz, 2, false, ${to}::timestamptz, 60)`);
        }
        const watched = sessions.reduce((n, s) => n + Math.floor((DAY0 + s.start + s.length) / 1000) - Math.floor((DAY0 + s.start) / 1000), 0);
        const live = await figuresOf();
        expect([live.sum, live.totals.watchSeconds]).toEqual([watched, watched]);
        expect(live.items.filter((i) => i[1]).length).toBeLessThanOrEqual(1);
        await creditClosedSessions(db, new ScheduleTimelines());
        expect(await figuresOf()).toEqual(live);
      }),
      { numRuns: 8, seed: 20261121 },
    );
  });

  it('counts only the dead air inside the range, and has no dead-air row when none was watched', async () => {
    // 11:15 to 12:00: 300 s of X's dead air, and Z's instant is at the range's end (not in it).
    const part = await data(`programmes?from=2026-11-21T11:15:00Z&to=2026-11-21T12:00:00Z`);
    expect(rows(part.items)).toEqual([[null, true, 300, 1, 1, 1]]);
    // 10:00 to 11:00: X watched 5003 (which started at 10:12) and nothing of the dead air after 11:12.
    const morning = await data(`programmes?from=2026-11-21T10:00:00Z&to=2026-11-21T11:00:00Z`);
    expect(rows(morning.items)).toEqual([
      [5003, false, 420, 1, 1, 1],
      [5001, false, 240, 1, 1, 1],
    ]);
    const csv = await t.request({ url: `${REST}/analytics/programmes?${DAY}`, headers: { authorization: `Bearer ${token}`, accept: 'text/csv' }, now: NOW21 });
    expect(csv.body.split('\r\n')[1]).toBe(',,205,Alice Daily,,,480,2,2,4,1,true');
  });
});
