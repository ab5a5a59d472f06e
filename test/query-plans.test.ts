// Every statement the hot routes send has an index to use on the large tables: the routes
// are exercised once on PostgreSQL with every statement recorded, then each is EXPLAINed
// with sequential scans disabled. A plan that still scans a large table sequentially has no
// usable index (at this catalog size the planner would pick a scan anyway, so it is forced).
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { creditClosedSessions } from '../src/sessions/programme-crediter.ts';
import { customCatalog } from './support/custom.ts';
import { testApp, type TestApp } from './support/app.ts';

const LARGE_TABLES = [
  'videos',
  'channels',
  'channel_videos',
  'channel_vod_videos',
  'schedule_blocks',
  'schedule_block_videos',
  'live_streams',
  'favorites',
  'auth_tokens',
  'apps',
  'app_channels',
  'app_images',
  'app_store_products',
  'subscriptions',
  'ppv_unlocks',
  'channel_unlocks',
  'activity_events',
  'watch_sessions',
  'accounts',
  'video_renditions',
  'programme_watch',
  'programme_airings',
  'programme_dead_air',
];

interface Recorded {
  text: string;
  values: unknown[];
}

describe.runIf(process.env.TEST_DATABASE_URL)('query plans on PostgreSQL', () => {
  let t: TestApp;
  const recorded: Recorded[] = [];
  const original = pg.Client.prototype.query;

  beforeAll(async () => {
    t = await testApp('postgres', customCatalog());
    pg.Client.prototype.query = function record(this: pg.Client, ...args: unknown[]) {
      const [first, second] = args as [unknown, unknown];
      const config = typeof first === 'object' && first !== null ? (first as { text?: string; values?: unknown[] }) : undefined;
      const text = typeof first === 'string' ? first : config?.text;
      const values = (Array.isArray(second) ? second : config?.values) ?? [];
      if (text && /^\s*(select|update|delete|insert|with)/i.test(text)) recorded.push({ text, values });
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
  });
  afterAll(async () => {
    pg.Client.prototype.query = original;
    await t?.close();
  });

  it('sends no statement that needs a sequential scan of a large table', async () => {
    const login = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'alice', password: 'correct horse' } });
    const bearer = { authorization: `Bearer ${login.json().data.authToken}` };
    const custom = { 'platform-id': 'ios', 'device-id': 'device-plans' };
    const routes = [
      { url: '/api/v1/rest/channels', headers: bearer },
      { url: '/api/v1/rest/channels/201/schedules?date=2026-11-21', headers: bearer },
      { url: '/api/v1/rest/favorites', headers: bearer },
      { url: '/api/v1/rest/apps/mobile', headers: bearer },
      { url: '/api/v1/services/custom/users/11/channels', headers: custom },
      { url: '/api/v1/services/custom/users/11/channels/video?channels_ids=201,202&dates=2026-11-21', headers: custom },
      { url: '/api/v1/services/custom/users/11/channels/vod?channels_ids=201,202', headers: custom },
      { url: '/api/v1/services/custom/users/11/app_settings', headers: custom },
      { url: '/api/v1/services/custom/users/alice-tv/channels/201/live?date=2026-11-21', headers: custom },
      { url: '/api/v1/services/custom/token_by_video/5003', headers: custom },
      { url: '/api/v1/services/custom/users/11/apps/subscription/status', headers: custom },
      { url: '/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=11&platform=android-tv&skipImages=true' },
      { url: '/WebServices/MobileAppGeneratorService.asmx/GetChannelMobileApp?userId=11&channelId=201' },
    ];
    for (const route of routes) expect((await t.request(route)).statusCode, route.url).toBeLessThan(500);
    const heartbeat = { source: 'roku_app', action: 'play_channel', client_id: 11, user_id: 'viewer-plans', channel_id: 201 };
    expect((await t.request({ method: 'POST', url: '/api/v1/activity', payload: heartbeat })).statusCode).toBe(200);
    // A closed session credited to its programmes, then the programme analytics routes.
    const database = t.database;
    const setup = recorded.length;
    await database.db.execute(sql`update watch_sessions set open = false, ended_at = last_heartbeat_at, credited_seconds = 60`);
    recorded.splice(setup);
    await creditClosedSessions(database.db, new ScheduleTimelines());
    for (const url of ['programmes?from=2026-11-01&to=2026-12-01', 'programmes?groupBy=day&channelId=201', 'top', 'channels/201/curve?date=2026-11-21']) {
      expect((await t.request({ url: `/api/v1/rest/analytics/${url}`, headers: bearer })).statusCode, url).toBe(200);
    }
    expect(recorded.length).toBeGreaterThan(20);

    const explain = new pg.Client({ connectionString: t.database.url! });
    await explain.connect();
    try {
      await explain.query('set enable_seqscan = off');
      const offenders: string[] = [];
      for (const statement of uniqueStatements(recorded)) {
        if (/^\s*insert/i.test(statement.text) && !/\bselect\b/i.test(statement.text)) continue;
        const run = original as unknown as (this: pg.Client, config: pg.QueryConfig) => Promise<pg.QueryResult<{ 'QUERY PLAN': string }>>;
        const plan = await run.call(explain, { text: `explain ${statement.text}`, values: statement.values });
        const lines = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        for (const table of LARGE_TABLES) {
          if (new RegExp(`Seq Scan on ${table}\\b`).test(lines)) offenders.push(`${table}: ${statement.text.slice(0, 200)}`);
        }
      }
      expect(offenders).toEqual([]);
    } finally {
      await explain.end();
    }
  });
});

function uniqueStatements(statements: Recorded[]): Recorded[] {
  const seen = new Map<string, Recorded>();
  for (const s of statements) if (!seen.has(s.text)) seen.set(s.text, s);
  return [...seen.values()];
}
