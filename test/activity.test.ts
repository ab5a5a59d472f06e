// Activity ingestion over HTTP (app.inject) on every backend, with the test clock moving time.
import { asc, sql } from 'drizzle-orm';
import { queryRows } from '../src/data/activity.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityEvents, watchSessions } from '../src/db/schema.ts';
import { recordActivityBatch } from '../src/sessions/record.ts';
import { createActivityRecorder } from '../src/sessions/recorder.ts';
import { sweepSessions } from '../src/sessions/sweeper.ts';
import { loadConfig } from '../src/config.ts';
import { Jobs, serviceJobs } from '../src/jobs.ts';
import { registry } from '../src/observability/metrics.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS, freshDatabase } from './support/db.ts';

const CUSTOM = '/api/v1/services/custom/activity';
const LEGACY = '/api/v1/activity';
const T0 = Date.parse('2026-11-21T10:00:00Z');
/** T0 plus m minutes and s seconds, as an X-Test-Now value. */
const at = (m: number, s = 0) => new Date(T0 + (m * 60 + s) * 1000).toISOString();
const date = (m: number, s = 0) => new Date(at(m, s));

/** The fixture plus a channel of owner 13, who has no service plan. */
function activityCatalog() {
  const catalog: any = smallCatalog();
  catalog.channels.push({ id: 204, ownerId: 13, name: 'Bob TV', url: 'bob-tv', categoryId: 1, createdAt: '2026-01-01T00:00:00Z' });
  return catalog;
}

describe.each(BACKENDS)('activity ingestion on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, activityCatalog());
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(activityEvents);
    await t.database.db.delete(watchSessions);
  });

  const heartbeat = { source: 'roku_app', action: 'play_channel', client_id: 11, user_id: 'viewer-1', channel_id: 201 };
  const post = (payload: unknown, now = at(0), url = CUSTOM) => t.request({ method: 'POST', url, payload: payload as object, now });
  const beat = async (now: string, extra: object = {}) => {
    const response = await post({ ...heartbeat, ...extra }, now);
    expect([response.statusCode, response.json()]).toEqual([200, { message: 'Success' }]);
  };
  const sessions = () => t.database.db.select().from(watchSessions).orderBy(asc(watchSessions.id));
  const events = () => t.database.db.select().from(activityEvents).orderBy(asc(activityEvents.id));
  const payloadTexts = async () => (await queryRows<{ p: string | null }>(t.database.db, sql`select payload::text as p from activity_events order by id`)).map((r) => r.p);
  const counts = async () => ({ events: (await events()).length, sessions: (await sessions()).length });

  describe('watch sessions', () => {
    it('opens a session on the first heartbeat', async () => {
      await beat(at(0));
      expect(await sessions()).toMatchObject([
        {
          source: 'roku_app',
          clientId: '11',
          userId: 'viewer-1',
          channelId: 201,
          ownerId: 11,
          startedAt: date(0),
          lastHeartbeatAt: date(0),
          heartbeats: 1,
          open: true,
          endedAt: null,
          creditedSeconds: null,
        },
      ]);
    });

    it('extends the session at 2:59 and at exactly 3:00 after the previous heartbeat', async () => {
      await beat(at(0));
      await beat(at(2, 59));
      await beat(at(5, 59));
      expect(await sessions()).toMatchObject([{ startedAt: date(0), lastHeartbeatAt: date(5, 59), heartbeats: 3, open: true }]);
    });

    it('closes the session at 3:01 and opens a new one', async () => {
      await beat(at(0));
      await beat(at(1));
      await beat(at(2));
      await beat(at(5, 1));
      expect(await sessions()).toMatchObject([
        { startedAt: date(0), lastHeartbeatAt: date(2), heartbeats: 3, open: false, endedAt: date(2), creditedSeconds: 120 },
        { startedAt: date(5, 1), lastHeartbeatAt: date(5, 1), heartbeats: 1, open: true, endedAt: null },
      ]);
    });

    it('credits a closed session at least 60 seconds', async () => {
      await beat(at(0));
      await beat(at(0, 20));
      await beat(at(10));
      expect((await sessions()).map((s) => s.creditedSeconds)).toEqual([60, null]);
    });

    it('never shrinks a session with an out-of-order heartbeat', async () => {
      await beat(at(10));
      await beat(at(12));
      await beat(at(11));
      expect(await sessions()).toMatchObject([{ startedAt: date(10), lastHeartbeatAt: date(12), heartbeats: 3 }]);
      // Late by up to the gap before the start: the session started earlier.
      await beat(at(8));
      // Older than that: it belongs to no session this row can stand for, and changes nothing.
      await beat(at(1));
      expect(await sessions()).toMatchObject([{ startedAt: date(8), lastHeartbeatAt: date(12), heartbeats: 4, open: true }]);
      expect((await events()).length).toBe(5);
    });

    it('keeps one session per source, client, viewer and channel', async () => {
      await beat(at(0));
      await beat(at(0), { client_id: '11' });
      await beat(at(0), { client_id: '011' });
      await beat(at(0), { source: 'fire_tv' });
      await beat(at(0), { user_id: 'viewer-2' });
      await beat(at(0), { channel_id: 202 });
      await beat(at(0), { client_id: null, user_id: null });
      expect((await sessions()).map((s) => [s.source, s.clientId, s.userId, s.channelId, s.heartbeats])).toEqual([
        ['roku_app', '11', 'viewer-1', 201, 3],
        ['fire_tv', '11', 'viewer-1', 201, 1],
        ['roku_app', '11', 'viewer-2', 201, 1],
        ['roku_app', '11', 'viewer-1', 202, 1],
        ['roku_app', '', '', 201, 1],
      ]);
    });

    it('applies heartbeats of one key written in one batch in time order', async () => {
      const event = { source: 'roku_app', action: 'play_channel', kind: 'heartbeat', clientId: '11', userId: 'viewer-1', channelId: 201, payload: null } as const;
      const times = [date(8), date(0), date(2), date(7), date(1)];
      const outcomes = await recordActivityBatch(
        t.database.db,
        times.map((d) => ({ event, at: d })),
      );
      expect(outcomes).toEqual(Array(5).fill('recorded'));
      expect(await sessions()).toMatchObject([
        { startedAt: date(0), lastHeartbeatAt: date(2), heartbeats: 3, open: false, creditedSeconds: 120 },
        { startedAt: date(7), lastHeartbeatAt: date(8), heartbeats: 2, open: true },
      ]);
    });

    it('sweeps stale sessions closed with their credited time, and only those', async () => {
      await beat(at(0));
      await beat(at(2));
      await beat(at(20), { user_id: 'viewer-2' });
      // The sweeper leaves a grace period past the 3-minute gap.
      expect(await sweepSessions(t.database.db, date(21))).toBe(1);
      expect((await sessions()).map((s) => [s.userId, s.open, s.endedAt, s.creditedSeconds])).toEqual([
        ['viewer-1', false, date(2), 120],
        ['viewer-2', true, null, null],
      ]);
      // The next heartbeat of the swept key opens a new session.
      await beat(at(30));
      expect((await sessions()).filter((s) => s.open)).toHaveLength(2);
    });
  });

  describe('events', () => {
    it('stores every accepted event with its payload as given, on both paths', async () => {
      await beat(at(0), { payload: { position: 12.5, tags: ['a', 'b'], nested: { ok: true } } });
      expect((await post({ ...heartbeat, payload: 'plain text' }, at(1), LEGACY)).statusCode).toBe(200);
      await beat(at(2), { payload: null });
      await beat(at(3), { payload: 7 });
      expect(await payloadTexts()).toEqual(['{"tags": ["a", "b"], "nested": {"ok": true}, "position": 12.5}', '"plain text"', null, '7']);
      expect(await sessions()).toMatchObject([{ heartbeats: 4 }]);
    });

    it('records login and logout per viewer', async () => {
      for (const action of ['login', 'logout']) {
        const response = await post({ source: 'apple_tv', action, user_id: 'viewer-9', client_id: '11' }, at(1));
        expect([response.statusCode, response.json()]).toEqual([200, { message: 'Success' }]);
      }
      expect((await events()).map((e) => [e.action, e.userId, e.clientId, e.channelId, e.processed, e.receivedAt])).toEqual([
        ['login', 'viewer-9', '11', null, true, date(1)],
        ['logout', 'viewer-9', '11', null, true, date(1)],
      ]);
      expect(await sessions()).toEqual([]);
    });

    it('stores legacy actions without processing them', async () => {
      const response = await post({ source: 'fire_tv', action: 'app_open', channel_id: '201', payload: { v: 1 } });
      expect([response.statusCode, response.json()]).toEqual([200, { message: 'Success' }]);
      expect(await events()).toMatchObject([{ action: 'app_open', processed: false, channelId: 201, payload: { v: 1 } }]);
      expect(await sessions()).toEqual([]);
    });

    it('reads form bodies like JSON ones, a repeated key keeping its last value', async () => {
      const form = 'source=mobile_app_on_android&action=play_channel&client_id=11&user_id=dev%201&channel_id=999&channel_id=202&payload=%7B%22a%22%3A1%7D';
      const response = await t.request({ method: 'POST', url: LEGACY, payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect([response.statusCode, response.json()]).toEqual([200, { message: 'Success' }]);
      const json = '{"source":"roku_app","action":"play_channel","channel_id":"abc","channel_id":201,"user_id":"dev 1"}';
      const second = await t.request({ method: 'POST', url: CUSTOM, payload: json, headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(second.statusCode).toBe(200);
      expect((await events()).map((e) => [e.source, e.userId, e.channelId])).toEqual([
        ['mobile_app_on_android', 'dev 1', 202],
        ['roku_app', 'dev 1', 201],
      ]);
      // A form's payload is the text given, stored as a JSON string (Drizzle would parse it on read).
      expect(await payloadTexts()).toEqual(['"{\\"a\\":1}"', null]);
    });
  });

  describe('refusals', () => {
    const expectInvalid = async (payload: unknown, field: string) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ message: 'The given data was invalid.', errors: expect.objectContaining({ [field]: [expect.any(String)] }) });
    };

    it('refuses each required field missing in turn', async () => {
      for (const field of ['source', 'action', 'channel_id']) {
        const { [field as keyof typeof heartbeat]: _, ...rest } = heartbeat;
        await expectInvalid(rest, field);
        await expectInvalid({ ...rest, [field]: '' }, field);
      }
      for (const action of ['login', 'logout']) await expectInvalid({ source: 'roku_app', action }, 'user_id');
      expect(await counts()).toEqual({ events: 0, sessions: 0 });
    });

    it('refuses wrong types and unknown values', async () => {
      const cases: [object, string][] = [
        [{ channel_id: 'abc' }, 'channel_id'],
        [{ channel_id: 201.5 }, 'channel_id'],
        [{ channel_id: -201 }, 'channel_id'],
        [{ channel_id: 99999999999 }, 'channel_id'],
        [{ channel_id: [201] }, 'channel_id'],
        [{ user_id: { id: 1 } }, 'user_id'],
        [{ user_id: 'x'.repeat(256) }, 'user_id'],
        [{ client_id: 'eleven' }, 'client_id'],
        [{ client_id: true }, 'client_id'],
        [{ source: 'smart_fridge' }, 'source'],
        [{ source: 7 }, 'source'],
        [{ action: 'drop table; --' }, 'action'],
        [{ action: ['play_channel'] }, 'action'],
        [{ user_id: 'nul\u0000' }, 'user_id'],
        [{ payload: { text: 'nul\u0000' } }, 'payload'],
        [{ payload: { ['key\u0000']: 1 } }, 'payload'],
        [{ payload: ['\ud800'] }, 'payload'],
        [{ payload: JSON.parse('['.repeat(40) + ']'.repeat(40)) }, 'payload'],
      ];
      for (const [change, field] of cases) await expectInvalid({ ...heartbeat, ...change }, field);
      expect(await counts()).toEqual({ events: 0, sessions: 0 });
    });

    it('refuses a channel that does not exist or is deleted, and one whose owner has no plan', async () => {
      await expectInvalid({ ...heartbeat, channel_id: 999 }, 'channel_id');
      await expectInvalid({ ...heartbeat, channel_id: 203 }, 'channel_id');
      await expectInvalid({ source: 'roku_app', action: 'login', user_id: 'v', channel_id: 999 }, 'channel_id');
      const response = await post({ ...heartbeat, channel_id: 204 });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: expect.any(String), error: 'invalid_user' });
      expect(await counts()).toEqual({ events: 0, sessions: 0 });
    });

    it('refuses bodies that are not a JSON object or a form', async () => {
      const bodies: [string | undefined, string][] = [
        ['application/json', '{"source": "roku_app",'],
        ['application/json', '[1, 2]'],
        ['application/json', '"text"'],
        ['application/json', ''],
        ['text/plain', JSON.stringify(heartbeat)],
        ['multipart/form-data; boundary=x', '--x--'],
        ['application/xml', '<activity/>'],
        ['not a media type', 'x'],
        [undefined, JSON.stringify(heartbeat)],
      ];
      for (const [type, payload] of bodies) {
        const headers = type === undefined ? {} : { 'content-type': type };
        const response = await t.request({ method: 'POST', url: LEGACY, payload, headers });
        expect([type, response.statusCode]).toEqual([type, 422]);
        expect(response.json()).toEqual({ message: 'The given data was invalid.', errors: { body: [expect.any(String)] } });
      }
      const empty = await t.request({ method: 'POST', url: LEGACY });
      expect(empty.statusCode).toBe(422);
      expect(await counts()).toEqual({ events: 0, sessions: 0 });
    });

    it('refuses a body over 64 KiB with 413, in JSON and in a form', async () => {
      const big = await post({ ...heartbeat, payload: 'x'.repeat(1024 * 1024) });
      expect([big.statusCode, big.json()]).toEqual([413, { message: expect.stringContaining('64 KiB') }]);
      const form = `source=roku_app&action=play_channel&channel_id=201&payload=${'y'.repeat(65 * 1024)}`;
      const bigForm = await t.request({ method: 'POST', url: CUSTOM, payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(bigForm.statusCode).toBe(413);
      expect(await counts()).toEqual({ events: 0, sessions: 0 });
      // Just under the limit is fine.
      await beat(at(0), { payload: 'z'.repeat(60 * 1024) });
    });

    it('answers other methods and paths with a bare message', async () => {
      const get = await t.request({ method: 'GET', url: LEGACY });
      expect([get.statusCode, get.headers.allow, get.json()]).toEqual([405, 'POST', { message: expect.stringContaining('GET') }]);
      const put = await t.request({ method: 'PUT', url: `${CUSTOM}/`, payload: heartbeat });
      expect(put.statusCode).toBe(405);
      const unknown = await t.request({ method: 'POST', url: `${CUSTOM}/extra`, payload: heartbeat });
      expect([unknown.statusCode, unknown.json()]).toEqual([404, { message: 'Not Found' }]);
    });
  });
});

describe('activity ingestion when writing fails', () => {
  const login = { source: 'roku_app', action: 'login', user_id: 'v' };

  it('answers 503 with a bare message while the database is unreachable', async () => {
    const t = await testApp('pglite', activityCatalog());
    await t.database.close();
    const response = await t.request({ method: 'POST', url: LEGACY, payload: login });
    expect([response.statusCode, response.headers['retry-after'], response.json()]).toEqual([503, '5', { message: expect.any(String) }]);
    await t.close();
  });

  it('answers 500 with a bare message and no details on a fault', async () => {
    const t = await testApp('pglite', activityCatalog());
    await t.database.db.execute(sql`drop table activity_events`);
    const response = await t.request({ method: 'POST', url: LEGACY, payload: login });
    expect([response.statusCode, response.json()]).toEqual([500, { message: 'Server Error' }]);
    await t.close();
  });

  it('sweeps and credits as a background job on its clock: one run at a time, counted in /metrics', async () => {
    const t = await testApp('pglite', activityCatalog());
    await t.request({ method: 'POST', url: LEGACY, payload: { source: 'roku_app', action: 'play_channel', channel_id: 201 }, now: at(0) });
    const jobs = new Jobs(() => date(10), { error: ({ err }: { err: unknown }) => expect.fail(String(err)) });
    const config = { ...loadConfig({}), STORE_NOTIFICATION_POLL_MS: 0 };
    const sources = { database: t.database, config, timelines: new ScheduleTimelines(100), notifications: t.app.storeNotifications, log: { info: () => undefined } };
    const sweep = serviceJobs(sources).find((job) => job.name === 'session_sweep')!;
    // Under the test clock the tests sweep when they choose: the job is not made at all (PGlite's table upkeep is).
    expect(serviceJobs({ ...sources, config: { ...config, CHANNELNET_TEST_CLOCK: true } }).map((job) => job.name)).toEqual(['table_upkeep']);
    const runs = async () =>
      (await registry.getSingleMetric('channelnet_job_runs_total')!.get()).values.find((v) => v.labels.job === 'session_sweep' && v.labels.result === 'ok')?.value ?? 0;
    const before = await runs();
    const first = jobs.runOnce(sweep);
    expect(jobs.runOnce(sweep)).toBe(first);
    await jobs.stop();
    expect(await t.database.db.select().from(watchSessions)).toMatchObject([{ open: false, creditedSeconds: 60 }]);
    expect(await runs()).toBe(before + 1);
    await t.close();
  });

  it('fails only the record that cannot be written, not the rest of its batch', async () => {
    const database = await freshDatabase('pglite');
    const recorder = createActivityRecorder(database);
    const event = (payload: unknown) => ({ source: 'roku_app', action: 'login', kind: 'login', clientId: null, userId: 'v', channelId: null, payload }) as const;
    // Submitted in one turn of the event loop, so they share a batch; NUL cannot be stored in jsonb.
    const results = await Promise.allSettled([1, '\u0000', 3].map((p) => recorder.record({ event: event(p), at: date(0) })));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await queryRows<{ p: string }>(database.db, sql`select payload::text as p from activity_events order by id`);
    expect(stored.map((r) => r.p)).toEqual(['1', '3']);
    await database.close();
  });
});
