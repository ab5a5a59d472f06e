// npm run bench:programmes -- [--url postgres://postgres@127.0.0.1:5432/ | --pglite] [--sessions 1000000]
//                              [--channels 200] [--days 92] [--runs 5] [--open 2000] [--devices 100000] [--keep] [--out FILE]
//
// Programme analytics (issue 19) at scale, in-process (Fastify inject, no socket):
// 1. one owner's network of `--channels` channels (a 24-hour loopDaily block of ~45 programmes of
//    5 to 60 minutes each, one live stream a week, four zones), imported with importCatalog;
// 2. `--sessions` closed watch sessions over the `--days` days before NOW, written straight with
//    SQL (Zipf-like channel popularity, an evening peak in each channel's zone, ~100k devices,
//    log-normal lengths), plus `--open` sessions open at NOW;
// 3. the real crediter (creditClosedSessions) run until it has nothing left: sessions/s, the rows
//    it wrote and their size on disk;
// 4. the REST reads (programmes, top, curve) timed through inject with the owner's Bearer token,
//    a warm-up then `--runs` times each, the SQL time of each answer, a same-bytes route for
//    comparison, where the time of the slow ones goes (the service's parts called directly) and
//    EXPLAIN (ANALYZE, BUFFERS) of the 92-day figure query.
// The markdown goes to stdout and is appended to `--out` (default bench/results/<UTC date>-programmes.md).
// The database is its own (channelnet_bench_programmes), so that `npm run bench` running at the
// same time (channelnet_bench) and this one do not drop each other's; dropped at the end unless --keep.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import { issueToken } from '../src/access/tokens.ts';
import { buildApp } from '../src/app.ts';
import type { CatalogInput } from '../src/catalog/format.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { queryRows } from '../src/data/activity.ts';
import { channelWatchSpans, figureRows, uncreditedSessions, type LiveRows, type ProgrammeFilter } from '../src/data/programme-analytics.ts';
import { airingWatchRows } from '../src/data/programme-watch.ts';
import { openDatabase, type Database, type DatabaseHandle, type Queryable } from '../src/db/connect.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { cachedDayWindow } from '../src/schedules/zone-offsets.ts';
import { MAX_LIVE_SESSIONS, ownerChannelCurve, programmeFigures, topFigures } from '../src/sessions/programme-analytics.ts';
import { creditClosedSessions, figuresByAiring, programmeRows } from '../src/sessions/programme-crediter.ts';
import { BENCH_HASH } from './catalog.ts';
import { adminQuery, databaseUrl } from './load.ts';
import { mulberry32 } from '../src/random.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const OWNER_ID = 1;
const FIRST_CHANNEL = 1;
const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata'];
const PROGRAMMES_PER_CHANNEL = 40;
const BENCH_DATABASE = 'channelnet_bench_programmes';
const REST = '/api/v1/rest/analytics';
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));

interface Options {
  url: string | undefined;
  sessions: number;
  channels: number;
  days: number;
  runs: number;
  open: number;
  devices: number;
  keep: boolean;
  out: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      pglite: { type: 'boolean', default: false },
      sessions: { type: 'string', default: '1000000' },
      channels: { type: 'string', default: '200' },
      days: { type: 'string', default: '92' },
      runs: { type: 'string', default: '5' },
      open: { type: 'string', default: '2000' },
      devices: { type: 'string', default: '100000' },
      keep: { type: 'boolean', default: false },
      out: { type: 'string', default: path.join(RESULTS, `${new Date().toISOString().slice(0, 10)}-programmes.md`) },
    },
  });
  const o = {
    url: values.pglite ? undefined : (values.url ?? 'postgres://postgres@127.0.0.1:5432/'),
    sessions: Number(values.sessions),
    channels: Number(values.channels),
    days: Number(values.days),
    runs: Number(values.runs),
    open: Number(values.open),
    devices: Number(values.devices),
    keep: values.keep,
    out: values.out,
  };
  // The open sessions take distinct devices (one open session per device and channel is the rule).
  if (o.open > o.devices) throw new Error('--open must not exceed --devices');
  return o;
}

// ---------------------------------------------------------------------------------------------
// The network

/** Video ids of channel k: programmes 0..39, a station break filling the day (98), the live event (99). */
const videoId = (k: number, i: number) => 100_000 + k * 100 + i;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function video(k: number, i: number, title: string, seconds: number) {
  return { id: videoId(k, i), ownerId: OWNER_ID, title, durationSeconds: seconds, providerName: 'Custom', providerVideoId: `p-${k}-${i}`, categoryId: 1 };
}

/**
 * Channel k's day: its 40 programmes in turn until the next would pass 24 hours, then a station
 * break filling the day exactly, so the loop never leaves time with nothing on air.
 */
function channelDay(k: number) {
  const next = mulberry32(k + 1);
  const minutes = Array.from({ length: PROGRAMMES_PER_CHANNEL }, () => 5 + Math.floor(next() * 56));
  const entries: number[] = [];
  let used = 0;
  for (let i = 0; used + minutes[i % minutes.length]! * 60 <= 86_400; i++) {
    entries.push(i % minutes.length);
    used += minutes[i % minutes.length]! * 60;
  }
  return { minutes, entries, breakSeconds: 86_400 - used };
}

/** One live stream a week, on a weekday and evening hour of the channel's own, 60 to 120 minutes. */
function liveStreams(k: number, zone: string, days: number) {
  const today = DateTime.fromJSDate(NOW, { zone }).startOf('day');
  const streams = [];
  for (let back = 1 + (k % 7); back <= days + 1; back += 7) {
    const start = today.minus({ days: back }).set({ hour: 19 + (k % 3), minute: 30 });
    streams.push({ videoId: videoId(k, 99), start: iso(start.toMillis()), end: iso(start.toMillis() + (60 + (k % 3) * 30) * MINUTE_MS), uri: `https://live.invalid/${k}.m3u8` });
  }
  return streams;
}

function channel(k: number, days: number) {
  const zone = ZONES[k % ZONES.length]!;
  const day = channelDay(k);
  const firstDay = DateTime.fromJSDate(NOW, { zone })
    .minus({ days: days + 3 })
    .toFormat('yyyy-MM-dd');
  const library = [...day.minutes.map((_, i) => videoId(k, i)), videoId(k, 98), videoId(k, 99)];
  const videos = [
    ...day.minutes.map((m, i) => video(k, i, `Channel ${k + 1} programme ${i + 1} (${m} min)`, m * 60)),
    video(k, 98, `Channel ${k + 1} station break`, day.breakSeconds),
    video(k, 99, `Channel ${k + 1} live event`, 7_200),
  ];
  const entries = [...day.entries.map((i) => videoId(k, i)), ...(day.breakSeconds > 0 ? [videoId(k, 98)] : [])];
  return {
    videos,
    entriesPerDay: entries.length,
    channel: {
      id: FIRST_CHANNEL + k,
      ownerId: OWNER_ID,
      name: `Channel ${k + 1}`,
      url: `channel-${k + 1}`,
      categoryId: 1,
      timezone: zone,
      videoIds: library,
      createdAt: iso(NOW.getTime() - 400 * DAY_MS),
      // Blocks start at different minutes past midnight, so days do not all change programme together.
      schedules: [{ id: FIRST_CHANNEL + k, startTime: `${firstDay}T00:${String((k % 12) * 5).padStart(2, '0')}:00`, loopDaily: true, videoIds: entries }],
      liveStreams: liveStreams(k, zone, days),
    },
  };
}

function networkCatalog(o: Options): { catalog: CatalogInput; entriesPerDay: number; liveStreams: number; videos: number } {
  const channels = Array.from({ length: o.channels }, (_, k) => channel(k, o.days));
  const catalog: CatalogInput = {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [{ id: OWNER_ID, username: 'programmes', email: 'programmes@bench.invalid', passwordHash: BENCH_HASH, publicUrl: 'programmes' }],
    categories: [{ id: 1, name: 'General' }],
    videos: channels.flatMap((c) => c.videos),
    channels: channels.map((c) => c.channel),
  };
  return {
    catalog,
    entriesPerDay: channels.reduce((n, c) => n + c.entriesPerDay, 0) / channels.length,
    liveStreams: channels.reduce((n, c) => n + c.channel.liveStreams.length, 0),
    videos: catalog.videos!.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Sessions, written with SQL (the ingestion path is bench:activity's business)

/** The platform of a device, fixed per device: 30% Roku, 20% Fire TV, 10% Apple TV, 15% + 15% mobile, 10% web. */
const SOURCE_OF = (device: string) =>
  sql.raw(`case when ${device} % 100 < 30 then 'roku_app' when ${device} % 100 < 50 then 'fire_tv'
  when ${device} % 100 < 60 then 'apple_tv' when ${device} % 100 < 75 then 'mobile_app_on_ios'
  when ${device} % 100 < 90 then 'mobile_app_on_android' else 'website_embedded_player' end`);
/** A standard normal draw (Box-Muller), from two uniform columns; 1 - random() is never 0. */
const normal = (u: string, v: string) => `sqrt(-2 * ln(1 - ${u})) * cos(2 * pi() * ${v})`;
/** Log-normal session length in whole minutes: median 15 min, sigma 1 (2% over 2 h), at most 4 h. */
const LENGTH = sql.raw(`least(14400, round(900 * exp(${normal('u6', 'u7')}) / 60) * 60)::int`);

/**
 * Random draws for `count` sessions: a channel rank (P(rank r) ~ 1/(r+1): a few channels get
 * most), a device (power law: some devices watch much more than others), a second of the
 * channel's local day (60% around 21:00, sd 2 h; the rest through the day) and a length.
 */
function draws(o: Options, count: number): SQL {
  return sql`
    select g, least(${o.channels - 1}::int, floor(exp(u1 * ln(${o.channels + 1}::float8)))::int - 1) as rank,
           floor(power(u2, 1.6) * ${o.devices}::int)::int as device,
           case when u3 < 0.6 then 75600 + 7200 * ${sql.raw(normal('u4', 'u5'))} else 86400 * u4 end as local_second,
           ${LENGTH} as len
      from (select g, random() u1, random() u2, random() u3, random() u4, random() u5, random() u6, random() u7
              from generate_series(0, ${count - 1}::int) g) r`;
}

/** Closed sessions of the channels' local date `back` days before NOW's, in start order (ids follow time, as in production). */
async function seedDay(db: Database, o: Options, back: number, count: number): Promise<void> {
  const now = sql`${NOW.toISOString()}::timestamptz`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(${back / (o.days + 2)}::float8)`);
    await tx.execute(sql`
      insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open, ended_at, credited_seconds, programmes_credited)
      select ${SOURCE_OF('s.device')}, s.device::text, '', s.channel_id, ${OWNER_ID}::int, s.started_at, s.started_at + make_interval(secs => s.len),
             s.len / 60 + 1, false, s.started_at + make_interval(secs => s.len), greatest(60, s.len), false
        from (select d.device, d.len, c.id as channel_id,
                     (((${now} at time zone c.timezone)::date - ${back}::int) + make_interval(secs => d.local_second)) at time zone c.timezone as started_at
                from (${draws(o, count)}) d join channels c on c.id = ${FIRST_CHANNEL}::int + d.rank) s
       where s.started_at + make_interval(secs => s.len) < ${now}
       order by s.started_at`);
  });
}

/** Sessions open at NOW: distinct devices, last heartbeat within the last minute. */
async function seedOpen(db: Database, o: Options): Promise<void> {
  const now = sql`${NOW.toISOString()}::timestamptz`;
  const spacing = Math.floor(o.devices / Math.max(1, o.open));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.5)`);
    await tx.execute(sql`
      insert into watch_sessions (source, client_id, user_id, channel_id, owner_id, started_at, last_heartbeat_at, heartbeats, open, programmes_credited)
      select ${SOURCE_OF('d.dev')}, d.dev::text, '', ${FIRST_CHANNEL}::int + d.rank, ${OWNER_ID}::int,
             ${now} - make_interval(secs => d.len + d.lag), ${now} - make_interval(secs => d.lag), d.len / 60 + 1, true, false
        from (select g * ${spacing}::int as dev, greatest(60, len) as len, floor(random() * 55)::int as lag, rank
                from (${draws(o, o.open)}) dr) d`);
  });
}

interface Seeded {
  closed: number;
  open: number;
  devices: number;
  ms: number;
}

async function seedSessions(db: Database, o: Options, log: (line: string) => void): Promise<Seeded> {
  const started = performance.now();
  // Oldest day first: ids then grow with time and the crediter (oldest id first) meets the
  // sessions in the order it would in production, a few minutes after each closes.
  for (let back = o.days; back >= 1; back--) {
    const count = Math.floor(o.sessions / o.days) + (back <= o.sessions % o.days ? 1 : 0);
    await seedDay(db, o, back, count);
    if (back % 10 === 0) log(`  seeded day -${back}`);
  }
  await seedOpen(db, o);
  await db.execute(sql`analyze watch_sessions`);
  const ms = performance.now() - started;
  const [counts] = await queryRows<{ closed: number; open: number; devices: number }>(
    db,
    sql`
    select count(*) filter (where not open)::int as closed, count(*) filter (where open)::int as open, count(distinct client_id)::int as devices
      from watch_sessions`,
  );
  return { ...counts!, ms };
}

// ---------------------------------------------------------------------------------------------
// Crediting

interface Credited {
  sessions: number;
  ms: number;
  passes: { sessions: number; ms: number }[];
}

/** The crediter as the app runs it once its change listener is up: a trusted (caching) timeline. */
async function creditAll(db: Database, log: (line: string) => void): Promise<Credited> {
  const timelines = new ScheduleTimelines(1_000_000, true);
  const passes: Credited['passes'] = [];
  const started = performance.now();
  for (;;) {
    const t0 = performance.now();
    const sessions = await creditClosedSessions(db, timelines);
    passes.push({ sessions, ms: performance.now() - t0 });
    if (sessions === 0) break;
    const done = passes.reduce((n, p) => n + p.sessions, 0);
    if (passes.length % 5 === 0) log(`  credited ${done.toLocaleString('en-US')} (${Math.round(sessions / (passes.at(-1)!.ms / 1000))}/s this pass)`);
  }
  return { sessions: passes.reduce((n, p) => n + p.sessions, 0), ms: performance.now() - started, passes };
}

interface TableSize {
  table: string;
  rows: number;
  tableBytes: number;
  indexBytes: number;
  totalBytes: number;
}

async function tableSizes(db: Database): Promise<TableSize[]> {
  return queryRows<TableSize>(
    db,
    sql`
    select t.name as "table", t.rows, pg_relation_size(t.name::regclass)::float8 as "tableBytes", pg_indexes_size(t.name::regclass)::float8 as "indexBytes",
           pg_total_relation_size(t.name::regclass)::float8 as "totalBytes"
      from (select 'watch_sessions' as name, (select count(*)::int from watch_sessions) as rows
            union all select 'programme_watch', (select count(*)::int from programme_watch)
            union all select 'programme_airings', (select count(*)::int from programme_airings)) t`,
  );
}

async function airingCounts(db: Database): Promise<{ airings: number; live: number }> {
  const [row] = await queryRows<{ airings: number; live: number }>(
    db,
    sql`
    select count(*)::int as airings, count(*) filter (where is_live)::int as live from programme_airings where source = ''`,
  );
  return row!;
}

// ---------------------------------------------------------------------------------------------
// The reads

/** Statements the app ran and their time, counted by the database handle's query observer. */
const statements = { count: 0, seconds: 0 };

interface Picks {
  busy: { id: number; zone: string; date: string };
  quiet: { id: number; zone: string; date: string };
}

/** The busiest channel and its busiest local day; the quietest channel and its yesterday. */
async function picks(db: Database): Promise<Picks> {
  const ranked = await queryRows<{ id: number; zone: string }>(
    db,
    sql`
    select c.id, c.timezone as zone from channels c left join watch_sessions ws on ws.channel_id = c.id
     where c.owner_id = ${OWNER_ID} group by c.id order by count(ws.id) desc, c.id`,
  );
  const busy = ranked[0]!;
  const quiet = ranked.at(-1)!;
  const [day] = await queryRows<{ date: string }>(
    db,
    sql`
    select to_char(started_at at time zone ${busy.zone}, 'YYYY-MM-DD') as date from watch_sessions
     where channel_id = ${busy.id} and not open group by 1 order by count(*) desc, 1 limit 1`,
  );
  const yesterday = DateTime.fromJSDate(NOW, { zone: quiet.zone }).minus({ days: 1 }).toFormat('yyyy-MM-dd');
  return { busy: { ...busy, date: day!.date }, quiet: { ...quiet, date: yesterday } };
}

/** What liveRows (private to sessions/programme-analytics.ts) does, step for step, to time it alone. */
async function liveRowsLike(db: Queryable, timelines: ScheduleTimelines, f: ProgrammeFilter): Promise<LiveRows> {
  const sessions = await uncreditedSessions(db, f, MAX_LIVE_SESSIONS);
  const watch = (await programmeRows(db, timelines, sessions)).filter((r) => r.airingStart >= f.from.getTime() && r.airingStart < f.to.getTime());
  if (watch.length === 0) return { watch, airings: [] };
  const live = new Set(watch.map((r) => r.sessionId));
  const keys = new Map(watch.map((r) => [`${r.channelId}|${r.airingStart}`, { channelId: r.channelId, airingStart: r.airingStart }]));
  const stored = (await airingWatchRows(db, [...keys.values()])).filter((r) => !live.has(r.sessionId));
  return { watch, airings: figuresByAiring([...stored, ...watch]) };
}

type Part = [name: string, run: () => Promise<unknown>];

interface Case {
  name: string;
  url: string;
  /** The service's parts, called directly, to see where the time of a slow answer goes. */
  parts: () => Promise<Part[]>;
  /** Always broken down (else only when the answer takes over a second). */
  explain?: boolean;
}

const range = (days: number) => ({ from: new Date(NOW.getTime() - days * DAY_MS), to: NOW });
const query = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${encodeURIComponent(String(v))}`]))
    .join('&');

function programmesCase(db: Database, timelines: ScheduleTimelines, name: string, days: number, groupBy: 'programme' | 'channel' | 'source' | 'day', channelId?: number): Case {
  const f: ProgrammeFilter = { ownerId: OWNER_ID, ...range(days), channelId };
  const keys = { programme: ['video'], channel: ['video', 'channel'], source: ['video', 'source'], day: ['video', 'day'] } as const;
  return {
    name,
    url: `${REST}/programmes?${query({ from: f.from.toISOString(), to: f.to.toISOString(), groupBy, channelId })}`,
    explain: days === 92 && groupBy === 'programme' && channelId === undefined,
    parts: async () => {
      const live = await liveRowsLike(db, timelines, f);
      return [
        ['liveRows (uncredited sessions split on the fly)', () => liveRowsLike(db, timelines, f)],
        ['figureRows (the figure SQL)', () => figureRows(db, f, live, { keys: keys[groupBy], orderBy: 'watchSeconds', limit: 50, offset: 0, totals: true })],
        ['programmeFigures (the whole service call)', () => programmeFigures(db, timelines, f, { groupBy, orderBy: 'watchSeconds', page: 1, perPage: 50 })],
      ];
    },
  };
}

function topCase(db: Database, timelines: ScheduleTimelines, days: number, metric: 'watchSeconds' | 'viewers'): Case {
  const f: ProgrammeFilter = { ownerId: OWNER_ID, ...range(days) };
  return {
    name: `top ${days} days, ${metric}, limit 10`,
    url: `${REST}/top?${query({ from: f.from.toISOString(), to: f.to.toISOString(), metric, limit: 10 })}`,
    parts: async () => {
      const live = await liveRowsLike(db, timelines, f);
      return [
        ['liveRows', () => liveRowsLike(db, timelines, f)],
        ['figureRows by video', () => figureRows(db, f, live, { keys: ['video'], orderBy: metric, limit: 10, offset: 0, totals: false })],
        ['figureRows by channel', () => figureRows(db, f, live, { keys: ['channel'], orderBy: metric, limit: 10, offset: 0, totals: false })],
        ['topFigures (the whole service call)', () => topFigures(db, timelines, f, metric, 10)],
      ];
    },
  };
}

function curveCase(db: Database, timelines: ScheduleTimelines, name: string, c: Picks['busy']): Case {
  const { from, to } = cachedDayWindow(c.date, c.zone);
  const f: ProgrammeFilter = { ownerId: OWNER_ID, channelId: c.id, from: new Date(from - DAY_MS), to: new Date(to) };
  return {
    name: `${name} (channel ${c.id}, ${c.zone}, ${c.date})`,
    url: `${REST}/channels/${c.id}/curve?date=${c.date}`,
    parts: async () => [
      ['liveRows', () => liveRowsLike(db, timelines, f)],
      ['channelWatchSpans (the stored rows)', () => channelWatchSpans(db, c.id, from - DAY_MS, to, [])],
      ['ownerChannelCurve (the whole service call)', () => ownerChannelCurve(db, timelines, OWNER_ID, c.id, c.date)],
    ],
  };
}

function cases(db: Database, timelines: ScheduleTimelines, p: Picks): Case[] {
  return [
    programmesCase(db, timelines, 'programmes 7 days, by programme', 7, 'programme'),
    programmesCase(db, timelines, 'programmes 30 days, by programme', 30, 'programme'),
    programmesCase(db, timelines, 'programmes 92 days, by programme', 92, 'programme'),
    programmesCase(db, timelines, 'programmes 92 days, by channel', 92, 'channel'),
    programmesCase(db, timelines, 'programmes 92 days, by source', 92, 'source'),
    programmesCase(db, timelines, 'programmes 92 days, by day', 92, 'day'),
    programmesCase(db, timelines, `programmes 7 days, busiest channel (${p.busy.id})`, 7, 'programme', p.busy.id),
    topCase(db, timelines, 7, 'watchSeconds'),
    topCase(db, timelines, 7, 'viewers'),
    topCase(db, timelines, 92, 'watchSeconds'),
    topCase(db, timelines, 92, 'viewers'),
    curveCase(db, timelines, "curve, busiest channel's busiest day", p.busy),
    curveCase(db, timelines, 'curve, quiet channel, yesterday', p.quiet),
  ];
}

interface Timing {
  name: string;
  ms: number[];
  bytes: number;
  /** Median over the runs of the statements' summed time (statements run in parallel add up). */
  sqlMs: number;
  statements: number;
  body: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function timeRequest(app: FastifyInstance, url: string, token: string, runs: number, name: string): Promise<Timing> {
  const ms: number[] = [];
  const sqlMs: number[] = [];
  let body = '';
  let count = 0;
  for (let i = 0; i <= runs; i++) {
    statements.count = 0;
    statements.seconds = 0;
    const started = performance.now();
    const response = await app.inject({ url, headers: { authorization: `Bearer ${token}`, 'x-test-now': NOW.toISOString() } });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body.slice(0, 500)}`);
    if (i === 0) continue; // the warm-up
    ms.push(elapsed);
    sqlMs.push(statements.seconds * 1000);
    count = statements.count;
    body = response.body;
  }
  return { name, ms, bytes: Buffer.byteLength(body), sqlMs: median(sqlMs), statements: count, body };
}

async function timeParts(parts: Part[], runs: number): Promise<{ name: string; ms: number }[]> {
  const result = [];
  for (const [name, run] of parts) {
    const ms: number[] = [];
    await run(); // warm-up
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run();
      ms.push(performance.now() - started);
    }
    result.push({ name, ms: median(ms) });
  }
  return result;
}

/** The statements `work` sends (it runs for real), to EXPLAIN them with the same parameters. */
async function captured(db: Database, work: (db: Queryable) => Promise<unknown>): Promise<SQL[]> {
  const seen: SQL[] = [];
  const spy = new Proxy(db, {
    get: (target, key) => (key === 'execute' ? (q: SQL) => (seen.push(q), target.execute(q)) : Reflect.get(target, key)),
  });
  await work(spy as unknown as Queryable);
  return seen;
}

async function explain(db: Database, statement: SQL): Promise<string> {
  const rows = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain (analyze, buffers) ${statement}`);
  // The id lists of the live rows are parameters thousands of values long: their count is the news.
  const shorten = (line: string) => line.replace(/'\{([^}]{200,})\}'/g, (_all, list: string) => `'{${list.split(',').length} values}'`);
  return rows.map((r) => shorten(r['QUERY PLAN'])).join('\n');
}

/** EXPLAIN of the 92-day figure query and of the uncredited-sessions read that precedes it. */
async function explainFigures(db: Database, timelines: ScheduleTimelines): Promise<{ name: string; plan: string }[]> {
  const f: ProgrammeFilter = { ownerId: OWNER_ID, ...range(92) };
  const live = await liveRowsLike(db, timelines, f);
  // figureRows sends several statements (ranking, the page's viewers, the totals' parts): each is explained.
  const figures = await captured(db, (spy) => figureRows(spy, f, live, { keys: ['video'], orderBy: 'watchSeconds', limit: 50, offset: 0, totals: true }));
  const [uncredited] = await captured(db, (spy) => uncreditedSessions(spy, f, MAX_LIVE_SESSIONS));
  const plans: { name: string; plan: string }[] = [];
  for (const [i, statement] of figures.entries()) {
    plans.push({
      name: `figureRows, 92 days, by programme, statement ${i + 1} of ${figures.length} (live rows of the open sessions included)`,
      plan: await explain(db, statement),
    });
  }
  plans.push({ name: 'uncreditedSessions, 92 days', plan: await explain(db, uncredited!) });
  return plans;
}

// ---------------------------------------------------------------------------------------------
// Setup, report, main

/** A database of its own on the server, created empty (a leftover of a crashed run dropped first). */

function machine(): string {
  const cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  return `${nproc} CPUs (nproc), ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}`;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const f1 = (x: number) => x.toFixed(1);

interface Run {
  kind: string;
  serverInfo: string;
  o: Options;
  catalog: { videos: number; entriesPerDay: number; liveStreams: number; importMs: number };
  seeded: Seeded;
  credited: Credited;
  vacuumMs: number;
  sizes: TableSize[];
  airings: { airings: number; live: number };
  picks: Picks;
  timings: Timing[];
  sameBytes: Timing & { of: string };
  breakdowns: { name: string; inject: number; parts: { name: string; ms: number }[] }[];
  plans: { name: string; plan: string }[];
  startedAt: Date;
}

function creditLines(c: Credited): string {
  const full = c.passes.filter((p) => p.sessions > 0);
  const rate = (p: { sessions: number; ms: number }) => n(p.sessions / (p.ms / 1000));
  const slowest = full.reduce((a, b) => (b.ms / b.sessions > a.ms / a.sessions ? b : a), full[0] ?? { sessions: 0, ms: 1 });
  return (
    `${n(c.sessions)} sessions credited in ${f1(c.ms / 1000)} s: **${n(c.sessions / (c.ms / 1000))} sessions/s** over ${full.length} passes of up to 20,000 ` +
    `(first pass ${full[0] ? rate(full[0]) : '-'}/s, last ${full.at(-1) ? rate(full.at(-1)!) : '-'}/s, slowest ${rate(slowest)}/s).`
  );
}

function report(r: Run): string {
  const { o } = r;
  const rows = (t: Timing) => `| ${t.name} | ${f1(Math.min(...t.ms))} | ${f1(median(t.ms))} | ${f1(Math.max(...t.ms))} | ${n(t.bytes)} | ${f1(t.sqlMs)} | ${t.statements} |`;
  const command = `npm run bench:programmes --${process.argv
    .slice(2)
    .map((a) => ` ${a}`)
    .join('')}`.replace(/ --$/, '');
  return `
## Programme analytics, ${n(o.sessions)} sessions, ${r.kind} (${r.startedAt.toISOString().replace('T', ' ').slice(0, 16)} UTC)

- Machine: ${machine()}
- Database: ${r.serverInfo}
- Command: \`${command}\`
- Clock: the app's test clock at ${NOW.toISOString()} (\`x-test-now\`); runs: 1 warm-up + ${o.runs} per read

### Data

- ${o.channels} channels of one owner in ${ZONES.join(', ')} (in turn); each a 24-hour loopDaily block of
  ${f1(r.catalog.entriesPerDay)} entries a day (40 programmes of 5 to 60 min, then a station break filling the day),
  one live stream a week each (${n(r.catalog.liveStreams)} in all); ${n(r.catalog.videos)} videos. importCatalog: ${f1(r.catalog.importMs / 1000)} s.
- Sessions (SQL, \`insert ... select from generate_series\`, one statement per day): ${n(r.seeded.closed)} closed over the ${o.days} days before now,
  ${n(r.seeded.open)} open at now, ${n(r.seeded.devices)} distinct devices; seeded in **${f1(r.seeded.ms / 1000)} s**
  (${n((r.seeded.closed + r.seeded.open) / (r.seeded.ms / 1000))} rows/s, with analyze).
  Channel popularity: P(rank r) ~ 1/(r+1) (busiest channel ${r.picks.busy.id}, quietest ${r.picks.quiet.id}); 60% of starts around 21:00 local (sd 2 h);
  lengths log-normal, median 15 min, sigma 1, at most 4 h; sources per device: Roku 30%, Fire TV 20%, Apple TV 10%, iOS 15%, Android 15%, web player 10%.

### Crediting (creditClosedSessions, a trusted ScheduleTimelines)

${creditLines(r.credited)}

Programme airings: ${n(r.airings.airings)} (${n(r.airings.live)} of them live), one row per airing for all sources plus one per source.
Then \`VACUUM ANALYZE\` of the three tables: ${f1(r.vacuumMs / 1000)} s (autovacuum ${r.kind === 'PostgreSQL' ? 'is off on this server, so the visibility map a live system would have is made by hand' : 'does not run in PGlite'}).

| table | rows | table | indexes | total (pg_total_relation_size) |
|---|---:|---:|---:|---:|
${r.sizes.map((s) => `| ${s.table} | ${n(s.rows)} | ${mib(s.tableBytes)} | ${mib(s.indexBytes)} | ${mib(s.totalBytes)} |`).join('\n')}

### Reads (inject, owner Bearer token)

SQL ms: the summed time of the statements the request ran (parallel statements add up), median over the runs.

| read | min ms | median ms | max ms | bytes | SQL ms | statements |
|---|---:|---:|---:|---:|---:|---:|
${r.timings.map(rows).join('\n')}
${rows({ ...r.sameBytes, name: `same bytes as "${r.sameBytes.of}" from a trivial route` })}

### Where the time goes

The service's parts called directly with the same filter (median of ${o.runs} after a warm-up), for the 92-day by-programme
read and every read over 1 s:

${r.breakdowns.map((b) => `**${b.name}** (inject median ${f1(b.inject)} ms)\n\n| part | median ms |\n|---|---:|\n${b.parts.map((p) => `| ${p.name} | ${f1(p.ms)} |`).join('\n')}`).join('\n\n')}

${r.plans.map((p) => `<details><summary>EXPLAIN (ANALYZE, BUFFERS): ${p.name}</summary>\n\n\`\`\`\n${p.plan}\n\`\`\`\n\n</details>`).join('\n\n')}
`;
}

async function openTarget(o: Options): Promise<{ database: DatabaseHandle; serverInfo: string; cleanup: () => Promise<void> }> {
  const onQuery = (seconds: number) => {
    statements.count++;
    statements.seconds += seconds;
  };
  if (o.url) {
    const url = o.url;
    await adminQuery(url, `drop database if exists ${BENCH_DATABASE} with (force)`);
    await adminQuery(url, `create database ${BENCH_DATABASE}`);
    const database = await openDatabase({ databaseUrl: databaseUrl(url, BENCH_DATABASE), onQuery });
    const [info] = await queryRows<{ v: string; sb: string; wm: string; av: string; pw: string }>(
      database.db,
      sql`
      select version() as v, current_setting('shared_buffers') as sb, current_setting('work_mem') as wm,
             current_setting('autovacuum') as av, current_setting('max_parallel_workers_per_gather') as pw`,
    );
    const serverInfo = `${info!.v.split(' on ')[0]}, shared_buffers ${info!.sb}, work_mem ${info!.wm}, max_parallel_workers_per_gather ${info!.pw}, autovacuum ${info!.av}; database ${BENCH_DATABASE}${o.keep ? ' (kept)' : ' (dropped after)'}`;
    return { database, serverInfo, cleanup: async () => (o.keep ? undefined : adminQuery(url, `drop database if exists ${BENCH_DATABASE} with (force)`)) };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cn-programmes-'));
  const database = await openDatabase({ dataDir: path.join(dir, 'data'), onQuery });
  return {
    database,
    serverInfo: `PGlite, data directory ${dir}${o.keep ? ' (kept)' : ' (removed after)'}`,
    cleanup: async () => (o.keep ? undefined : rm(dir, { recursive: true, force: true })),
  };
}

async function main(): Promise<void> {
  const o = options();
  const startedAt = new Date();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { database, serverInfo, cleanup } = await openTarget(o);
  let app: FastifyInstance | undefined;
  try {
    const db = database.db;
    await database.migrate();
    const network = networkCatalog(o);
    let t0 = performance.now();
    const imported = await importCatalog(db, network.catalog, { replace: false, now: NOW });
    if (!imported.ok) throw new Error(imported.errors.slice(0, 20).join('\n'));
    const importMs = performance.now() - t0;
    log(`imported ${o.channels} channels in ${f1(importMs / 1000)} s; seeding ${n(o.sessions)} sessions`);
    const seeded = await seedSessions(db, o, log);
    log(`seeded in ${f1(seeded.ms / 1000)} s; crediting`);
    const credited = await creditAll(db, log);
    log(`credited ${n(credited.sessions)} in ${f1(credited.ms / 1000)} s`);
    t0 = performance.now();
    await db.execute(sql`vacuum (analyze) watch_sessions, programme_watch, programme_airings`);
    const vacuumMs = performance.now() - t0;
    const sizes = await tableSizes(db);
    const airings = await airingCounts(db);
    const p = await picks(db);

    // The same-bytes route answers whatever body is stored in `same` when it is asked.
    const same = { body: '' };
    app = await buildApp({
      database,
      config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, STORE_NOTIFICATION_POLL_MS: 0, CHANNELNET_TEST_CLOCK: true },
    });
    app.get('/bench/same-bytes', async (_request, reply) => reply.type('application/json; charset=utf-8').send(same.body));
    await app.ready();
    const token = await issueToken(db, OWNER_ID, { kind: 'sliding', seconds: 7 * 86_400 }, NOW);

    // The bench's own calls use a warm trusted timeline, as the app's is once its listener is up.
    const timelines = new ScheduleTimelines(1_000_000, true);
    const timings: Timing[] = [];
    const breakdowns: Run['breakdowns'] = [];
    for (const c of cases(db, timelines, p)) {
      const timing = await timeRequest(app, c.url, token, o.runs, c.name);
      timings.push(timing);
      log(`  ${c.name}: median ${f1(median(timing.ms))} ms, ${n(timing.bytes)} bytes`);
      if (c.explain || median(timing.ms) > 1000) breakdowns.push({ name: c.name, inject: median(timing.ms), parts: await timeParts(await c.parts(), o.runs) });
    }
    const largest = timings.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    same.body = largest.body;
    const sameBytes = { ...(await timeRequest(app, '/bench/same-bytes', token, o.runs, 'same bytes')), of: largest.name };
    const plans = await explainFigures(db, timelines);

    const markdown = report({
      kind: o.url ? 'PostgreSQL' : 'PGlite',
      serverInfo,
      o,
      catalog: { ...network, importMs },
      seeded,
      credited,
      vacuumMs,
      sizes,
      airings,
      picks: p,
      timings,
      sameBytes,
      breakdowns,
      plans,
      startedAt,
    });
    process.stdout.write(markdown);
    await mkdir(path.dirname(o.out), { recursive: true });
    if (!existsSync(o.out)) await appendFile(o.out, `# Programme analytics benchmark (bench/programmes.ts)\n`);
    await appendFile(o.out, markdown);
    log(`appended to ${o.out}`);
  } finally {
    await app?.close();
    await database.close();
    await cleanup();
  }
}

await main().catch((error: unknown) => {
  process.stderr.write(`bench:programmes: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
