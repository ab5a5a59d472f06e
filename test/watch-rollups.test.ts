// Issue 37: the rollup-based trends and summary equal the raw-session answers, on both backends,
// with identified devices counted from the kept device figures and from the device-days.
// Generated sessions (fast-check) around several midnights and a clock change, some crossing
// midnight, identified and anonymous, some still open or stale and not swept, are closed by the
// sweeper in small chunks (on PostgreSQL by two sweepers at once, as two instances would); every
// read then gives the same answer from the rollups as from the raw sessions (rawPlan), in zones
// whose midnight is at a whole hour, at :45 and moving with DST, and for summaries of unaligned
// instants. A retention cut (closed raw sessions deleted) leaves the rollup answers as they were.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeStaleSessions, queryRows, sweepStaleSessions } from '../src/data/activity.ts';
import { rollupSizes } from '../src/data/watch-rollups.ts';
import { summary } from '../src/sessions/analytics.ts';
import { rawPlan, rollupPlan } from '../src/sessions/rollup-plan.ts';
import { resolveTrendRange } from '../src/sessions/trend-range.ts';
import { watchTrends } from '../src/sessions/trends.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from './support/db.ts';

const NOW = new Date('2026-11-03T12:00:00Z');
const FIRST = Date.parse('2026-10-22T00:00:00Z');
const SPAN_MS = NOW.getTime() - FIRST;
const OWNER = 7;
const CHANNELS = [71, 72, 73];
const SOURCES = ['roku_app', 'fire_tv', 'web'];
const USERS = ['', '', 'u1', 'u2', 'u3', 'u4'];
const ZONES = ['UTC', 'America/New_York', 'Asia/Kathmandu', 'Europe/Berlin'];
const DEVICE_TABLES = ['watch_pair_devices', 'watch_pair_counts', 'watch_device_spans'];
const ROLLUP_TABLES = ['watch_day_rollups', 'watch_day_devices', ...DEVICE_TABLES];
const SWEEP_CUTOFF = new Date(NOW.getTime() - 300_000);

interface GeneratedSession {
  start: number;
  lengthSeconds: number;
  channel: number;
  source: number;
  user: number;
  owner: number;
}

const sessionArb = fc.record({
  // Starts cluster near midnights and quarter-hours: the edges a rollup could get wrong.
  start: fc.oneof(
    fc.integer({ min: 0, max: SPAN_MS - 1 }),
    fc.integer({ min: 1, max: 12 }).chain((d) => fc.integer({ min: -1_800_000, max: 1_800_000 }).map((o) => d * 86_400_000 + o)),
    fc.integer({ min: 0, max: SPAN_MS / 900_000 - 1 }).map((q) => q * 900_000),
  ),
  lengthSeconds: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 5 * 3600 })),
  channel: fc.nat({ max: CHANNELS.length - 1 }),
  source: fc.nat({ max: SOURCES.length - 1 }),
  user: fc.nat({ max: USERS.length - 1 }),
  owner: fc.constantFrom(OWNER, OWNER, OWNER, OWNER + 1),
});

async function load(db: TestDatabase['db'], sessions: GeneratedSession[]) {
  for (const table of ['watch_sessions', ...ROLLUP_TABLES]) await db.execute(sql`delete from ${sql.identifier(table)}`);
  const starts = sessions.map((s) => FIRST + Math.min(Math.max(s.start, 0), SPAN_MS - 1));
  const lasts = sessions.map((s, i) => Math.min(starts[i]! + s.lengthSeconds * 1000, NOW.getTime()));
  await db.execute(sql`
    insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats)
    select source, 'c' || n, user_id, channel_id, owner_id, started_at, last_at, 2
      from unnest(${sql.param(sessions.map((s) => SOURCES[s.source]!))}::text[], ${sql.param(sessions.map((s) => USERS[s.user]!))}::text[],
                  ${sql.param(sessions.map((s) => CHANNELS[s.channel]!))}::integer[], ${sql.param(sessions.map((s) => s.owner))}::integer[],
                  ${sql.param(starts.map((t) => new Date(t).toISOString()))}::timestamptz[], ${sql.param(lasts.map((t) => new Date(t).toISOString()))}::timestamptz[])
           with ordinality as g(source, user_id, channel_id, owner_id, started_at, last_at, n)`);
}

/** The INSERT statements of the migration that made the device figures: its backfill. */
function backfillStatements(): string[] {
  return readFileSync(new URL('../drizzle/0023_h37-devices.sql', import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^--.*$/gm, '').trim())
    .filter((s) => s.startsWith('INSERT'));
}

/** The kept device figures, every row (pair rows without was_*: the closing statement's scratch). */
async function deviceFigures(db: TestDatabase['db']) {
  return {
    pairs: await queryRows(db, sql`select owner_id, day::text, channel_id, source, user_id, max_a, min_b from watch_pair_devices order by 1, 2, 3, 4, 5`),
    counts: await queryRows(db, sql`select owner_id, day::text, channel_id, source, members from watch_pair_counts order by 1, 2, 3, 4`),
    spans: await queryRows(db, sql`select owner_id, channel_id, source, user_id, first_day::text, last_day::text, days::text from watch_device_spans order by 1, 2, 3, 4`),
  };
}

/** Closes every stale session in chunks of 3, with `sweepers` sweeping at once. */
async function sweep(db: TestDatabase['db'], sweepers: number) {
  const one = async () => {
    while ((await sweepStaleSessions(db, SWEEP_CUTOFF, 3)) > 0);
  };
  await Promise.all(Array.from({ length: sweepers }, one));
}

function trendRange(zone: string, from: string, to: string) {
  const range = resolveTrendRange(from, to, zone, NOW);
  if (!range.ok) throw new Error(range.message);
  return range.value;
}

/** Every read compared, rollups against raw. */
async function expectSameAnswers(db: TestDatabase['db'], instants: [number, number], label: string) {
  for (const zone of ZONES) {
    for (const filter of [{}, { channelId: 72 }, { source: 'fire_tv' }, { channelId: 71, source: 'roku_app' }]) {
      const range = trendRange(zone, '2026-10-28', '2026-11-03');
      const base = { ownerId: OWNER, now: NOW, ...filter };
      const fromRaw = await watchTrends(db, range, { ...base, plan: rawPlan });
      for (const devices of ['kept', 'device-days'] as const) {
        const fromRollups = await watchTrends(db, range, { ...base, plan: rollupPlan, devices });
        expect(fromRollups, `${label}: trends in ${zone} ${JSON.stringify(filter)}, devices from ${devices}`).toEqual(fromRaw);
      }
    }
  }
  const [a, b] = instants;
  for (const [from, to] of [
    [a, b],
    [Date.parse('2026-10-25T00:00:00Z'), Date.parse('2026-11-03T00:00:00Z')],
    [FIRST, NOW.getTime()],
  ] as const) {
    for (const groupBy of ['channel', 'source', 'day'] as const) {
      const filter = { ownerId: OWNER, from: new Date(from), to: new Date(to), now: NOW };
      expect(await summary(db, filter, groupBy, rollupPlan), `${label}: summary by ${groupBy} ${new Date(from).toISOString()}..${new Date(to).toISOString()}`).toEqual(
        await summary(db, filter, groupBy, rawPlan),
      );
    }
  }
}

describe.each(BACKENDS)('watch rollups on %s', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase(backend);
  });
  afterAll(() => database?.close());

  it('answer trends and summaries exactly as the raw sessions do (property)', async () => {
    const instant = fc.integer({ min: 0, max: SPAN_MS - 1 }).map((o) => FIRST + o);
    await fc.assert(
      fc.asyncProperty(fc.array(sessionArb, { minLength: 1, maxLength: 60 }), instant, instant, async (sessions, x, y) => {
        await load(database.db, sessions);
        await sweep(database.db, backend === 'postgres' ? 2 : 1);
        await expectSameAnswers(database.db, [Math.min(x, y), Math.max(x, y) + 1], 'generated');
      }),
      { numRuns: backend === 'postgres' ? 8 : 12 },
    );
  }, 600_000);

  it('rolls each session up once (closed by a late heartbeat or the sweeper), keeps the open ones raw, and outlives a retention cut of the raw rows', async () => {
    const sessions = fc.sample(fc.array(sessionArb, { minLength: 150, maxLength: 150 }), { numRuns: 1, seed: 37 })[0]!;
    await load(database.db, sessions);
    // A third are closed the other way: a heartbeat of their key arriving after the gap.
    const keys = await queryRows<{ source: string; clientId: string; userId: string; channelId: number; ownerId: number }>(
      database.db,
      sql`
      select source, client_id as "clientId", user_id as "userId", channel_id as "channelId", owner_id as "ownerId"
        from watch_sessions where id % 3 = 0 order by id`,
    );
    await closeStaleSessions(
      database.db,
      keys.map((k) => ({ ...k, at: NOW })),
    );
    const [byHeartbeat] = await queryRows<{ n: number }>(database.db, sql`select count(*)::integer as n from watch_sessions where not open`);
    expect(byHeartbeat!.n).toBeGreaterThan(0);
    await sweep(database.db, backend === 'postgres' ? 2 : 1);
    const [counts] = await queryRows<{ closed: number; open: number }>(
      database.db,
      sql`
      select count(*) filter (where not open)::integer as closed, count(*) filter (where open)::integer as open from watch_sessions where owner_id = ${OWNER}`,
    );
    const [rolled] = await queryRows<{ n: number }>(database.db, sql`select coalesce(sum(sessions[96]), 0)::integer as n from watch_day_rollups where owner_id = ${OWNER}`);
    expect(rolled!.n).toBe(counts!.closed);
    expect(counts!.open).toBeGreaterThan(0);
    expect((await rollupSizes(database.db, OWNER)).devices).toBeGreaterThan(0);
    // Sweeping again rolls nothing up twice.
    await sweep(database.db, 1);
    const [again] = await queryRows<{ n: number }>(database.db, sql`select coalesce(sum(sessions[96]), 0)::integer as n from watch_day_rollups where owner_id = ${OWNER}`);
    expect(again!.n).toBe(rolled!.n);

    // The migration's backfill (drizzle/0023_h37-devices.sql) keeps the device figures as the closing statement does.
    const kept = await deviceFigures(database.db);
    expect(kept.pairs.length).toBeGreaterThan(0);
    for (const table of DEVICE_TABLES) await database.db.execute(sql`delete from ${sql.identifier(table)}`);
    for (const statement of backfillStatements()) await database.db.execute(sql.raw(statement));
    expect(await deviceFigures(database.db)).toEqual(kept);

    // Aligned reads (whole quarter-hours) need no raw closed session: delete those before 2026-11-01.
    const range = trendRange('Asia/Kathmandu', '2026-10-28', '2026-11-03');
    const daySummary = { ownerId: OWNER, from: new Date('2026-10-25T00:00:00Z'), to: new Date('2026-11-03T00:00:00Z'), now: NOW };
    const before = { trends: await watchTrends(database.db, range, { ownerId: OWNER, now: NOW, plan: rawPlan }), summary: await summary(database.db, daySummary, 'day', rawPlan) };
    expect(before.trends.totals.current.sessions).toBeGreaterThan(0);
    await database.db.execute(sql`delete from watch_sessions where not open and started_at < '2026-11-01T00:00:00Z'`);
    expect(await watchTrends(database.db, range, { ownerId: OWNER, now: NOW })).toEqual(before.trends);
    expect(await summary(database.db, daySummary, 'day')).toEqual(before.summary);
    expect(await watchTrends(database.db, range, { ownerId: OWNER, now: NOW, plan: rawPlan })).not.toEqual(before.trends);
  }, 300_000);
});
