// npm run bench:attack -- [--url postgres://postgres@127.0.0.1:5432/]
// Replays issue 26's findings as an outsider (and as a hostile owner) against a real `channelnet
// serve` process on the demo catalog, and prints what each request got and what it cost the server:
// CPU (utime + stime of the server process, from /proc, 10 ms resolution) and resident memory.
// It is the independent check of the hardening: every row should be a 4xx (or an expected 2xx)
// at a small cost. Requests are sent one at a time; nothing else runs in the server meanwhile.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const BIN = fileURLToPath(new URL('../bin/channelnet.mjs', import.meta.url));
const { values: args } = parseArgs({ options: { url: { type: 'string' } } });
const TICK_MS = 1000 / 100;

async function freshDatabase(adminUrl: string): Promise<string> {
  const name = `channelnet_attack_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  DEMO_ON_EMPTY: 'true',
  RATE_LIMIT_MAX: '100000',
  RATE_LIMIT_LOGIN_MAX: '100000',
  RATE_LIMIT_ACTIVITY_ADDRESS_MAX: '100000',
};
delete env.DATABASE_URL;
if (args.url) env.DATABASE_URL = await freshDatabase(args.url);
else env.DATA_DIR = await mkdtemp(path.join(os.tmpdir(), 'cn-attack-'));

const server = spawn(process.execPath, [BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
server.stderr!.on('data', (d) => (log += d));
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout!.on('data', (d) => {
    out += d;
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  server.once('exit', (code) => reject(new Error(`server exited ${code}\n${out}\n${log}`)));
});

async function serverCpuMs(): Promise<number> {
  const stat = (await readFile(`/proc/${server.pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(stat[11]) + Number(stat[12])) * TICK_MS;
}
async function serverRssMb(): Promise<number> {
  const status = await readFile(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

interface Row {
  finding: string;
  request: string;
  status: number;
  expected: string;
  cpuMs: number;
  rssMb: number;
  note: string;
}
const rows: Row[] = [];

type Send = { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer | object };
async function send(s: Send): Promise<{ status: number; text: string; headers: Headers }> {
  const body = s.body === undefined ? undefined : typeof s.body === 'string' || Buffer.isBuffer(s.body) ? s.body : JSON.stringify(s.body);
  const headers: Record<string, string> = { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...s.headers };
  try {
    const r = await fetch(base + s.path, { method: s.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    return { status: r.status, text: await r.text(), headers: r.headers };
  } catch (error) {
    return { status: 0, text: String((error as Error).cause ?? error), headers: new Headers() };
  }
}

/** Sends and records the server's CPU and memory for it. `ok` says whether the status is the expected one. */
async function attack(
  finding: string,
  s: Send,
  expected: (status: number, text: string) => boolean,
  expectedText: string,
  note = (t: string) => t.slice(0, 90),
): Promise<{ status: number; text: string; headers: Headers }> {
  const cpu = await serverCpuMs();
  const rss = await serverRssMb();
  const answer = await send(s);
  const used = (await serverCpuMs()) - cpu;
  rows.push({
    finding,
    request: `${s.method ?? (s.body === undefined ? 'GET' : 'POST')} ${s.path.length > 60 ? `${s.path.slice(0, 57)}...` : s.path}`,
    status: answer.status,
    expected: `${expected(answer.status, answer.text) ? 'ok' : 'FAIL'} (${expectedText})`,
    cpuMs: used,
    rssMb: (await serverRssMb()) - rss,
    note: note(answer.text).replace(/\|/g, '/').replace(/\s+/g, ' '),
  });
  return answer;
}

const is4xx = (s: number) => s >= 400 && s < 500;
const json = (o: unknown) => JSON.stringify(o);

async function login(username: string, password: string): Promise<Record<string, string>> {
  const r = await send({ path: '/api/v1/rest/auth/login', body: { username, password } });
  const token = (JSON.parse(r.text) as { data: { authToken: string } }).data.authToken;
  return { authorization: `Bearer ${token}` };
}

try {
  const demo = await login('demo', 'demo1234');
  const harbor = await login('harbor', 'harbor1234');

  // Critical: bodies before identity.
  const millionChannels = `{"channels":[${'{},'.repeat(999_999)}{}]}`;
  await attack('anonymous 3 MB import', { path: '/api/v1/studio/import', body: millionChannels }, (s) => s === 401 || s === 413, '401/413');
  await attack(
    'bad token 3 MB import',
    { path: '/api/v1/studio/import', body: millionChannels, headers: { authorization: 'Bearer nope' } },
    (s) => s === 401 || s === 413,
    '401/413',
  );
  const nested = Buffer.alloc(32 * 1024 * 1024, '[');
  await attack('anonymous 32 MiB [[[[', { path: '/api/v1/studio/videos', body: nested }, (s) => s === 401 || s === 413, '401/413');
  await attack('owner 32 MiB [[[[', { path: '/api/v1/studio/videos', body: nested, headers: demo }, (s) => is4xx(s), '4xx');
  await attack('owner 1 MiB [[[[ import', { path: '/api/v1/studio/import', body: Buffer.alloc(1024 * 1024, '['), headers: demo }, (s) => is4xx(s), '4xx');
  await attack(
    'owner 3 MB import of a million channels',
    { path: '/api/v1/studio/import', body: millionChannels, headers: demo },
    (s) => is4xx(s),
    '4xx',
    (t) => `${t.length} bytes: ${t.slice(0, 70)}`,
  );

  // High: ids.
  const video = { title: 'x', durationSeconds: 60, providerName: 'YouTube', providerVideoId: 'abcdefghijk' };
  await attack(
    'owner chooses id 2147483647',
    { path: '/api/v1/studio/videos', body: { ...video, id: 2147483647 }, headers: harbor },
    (s) => is4xx(s) || s === 201 || s === 200,
    '4xx or 2xx',
  );
  await attack('then another owner creates', { path: '/api/v1/studio/videos', body: video, headers: demo }, (s) => s === 201 || s === 200, '2xx');
  for (const id of [2147483648, 0, -1, 1.5, 1e308]) {
    await attack(
      `owner chooses id ${id}`,
      { path: '/api/v1/studio/videos', body: `{"title":"x","durationSeconds":60,"providerName":"YouTube","providerVideoId":"abcdefghijk","id":${id}}`, headers: harbor },
      is4xx,
      '4xx',
    );
  }
  await attack('channel id 2147483647 in a path', { path: '/api/v1/studio/channels/2147483647', headers: demo }, (s) => s === 404, '404');
  await attack('channel id 99999999999999999999 in a path', { path: '/api/v1/studio/channels/99999999999999999999', headers: demo }, is4xx, '4xx');

  // High: unbounded channel-days, from the owner's side (the writes) and the outsider's (the reads).
  const created = await send({ path: '/api/v1/studio/videos', body: { ...video, durationSeconds: 1, title: 'one second' }, headers: harbor });
  const oneSecond = created.status < 300 ? (JSON.parse(created.text) as { data: { id: number } }).data.id : undefined;
  const zero = await send({ path: '/api/v1/studio/videos', body: { ...video, durationSeconds: 0, title: 'zero' }, headers: harbor });
  rows.push({
    finding: 'owner creates a 0-second video',
    request: 'POST /api/v1/studio/videos',
    status: zero.status,
    expected: `${is4xx(zero.status) ? 'ok' : 'note'} (4xx or allowed)`,
    cpuMs: 0,
    rssMb: 0,
    note: zero.text.slice(0, 90),
  });
  const channels = { data: (JSON.parse((await send({ path: '/api/v1/studio/channels', headers: harbor })).text) as { data: { items: { id: number }[] } }).data.items };
  const channelId = channels.data[0]!.id;
  if (oneSecond !== undefined) {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await attack(
      'owner block of 86,400 one-second videos',
      {
        path: `/api/v1/studio/channels/${channelId}/schedules`,
        body: { startTime: `${tomorrow}T00:00:00`, loopDaily: true, allowOverlap: true, videoIds: Array(86_400).fill(oneSecond) },
        headers: harbor,
      },
      is4xx,
      '4xx',
    );
    await attack(
      'owner block of 5,000 one-second videos',
      {
        path: `/api/v1/studio/channels/${channelId}/schedules`,
        body: { startTime: `${tomorrow}T00:00:00`, loopDaily: true, allowOverlap: true, videoIds: Array(5_000).fill(oneSecond) },
        headers: harbor,
      },
      (s) => s < 500,
      '< 500',
    );
  }
  await attack('owner 30 KB title', { method: 'PATCH', path: `/api/v1/studio/channels/${channelId}`, body: { name: 'x'.repeat(30_000) }, headers: harbor }, is4xx, '4xx');

  // Medium and low.
  await attack('owner NUL in a title', { path: '/api/v1/studio/videos', body: { ...video, title: 'a\u0000b' }, headers: demo }, is4xx, '4xx');
  await attack('anonymous NUL in login', { path: '/api/v1/rest/auth/login', body: { username: 'a\u0000b', password: 'x' } }, is4xx, '4xx');
  await attack('anonymous NUL in a Custom query', { path: '/api/v1/services/custom/users/102/channels?search=a%00b' }, (s) => s < 500, '< 500');
  const png5mb = 'A'.repeat(5 * 1024 * 1024);
  await attack('anonymous 5 MB base64 image', { method: 'PUT', path: '/api/v1/studio/branding', body: { logoHeader: png5mb } }, (s) => s === 401 || s === 413, '401/413');
  await attack('owner 5 MB base64 image', { method: 'PUT', path: '/api/v1/studio/branding', body: { logoHeader: png5mb }, headers: demo }, is4xx, '4xx');
  await attack(
    'owner javascript: URL',
    { method: 'PATCH', path: `/api/v1/studio/channels/${channelId}`, body: { pictureUrl: 'javascript:alert(1)' }, headers: harbor },
    is4xx,
    '4xx',
  );
  await attack('owner sets isVerified', { method: 'PATCH', path: `/api/v1/studio/channels/${channelId}`, body: { isVerified: true }, headers: harbor }, is4xx, '4xx');
  await attack('owner sets subscriberCount', { method: 'PATCH', path: `/api/v1/studio/channels/${channelId}`, body: { subscriberCount: 99999999 }, headers: harbor }, is4xx, '4xx');
  const cats: number[] = [];
  for (let i = 0; i < 60; i++) cats.push((await send({ path: '/api/v1/studio/categories', body: { name: `spam ${i}` }, headers: harbor })).status);
  rows.push({
    finding: 'owner creates 60 categories',
    request: 'POST /api/v1/studio/categories x60',
    status: cats.at(-1)!,
    expected: `${cats.some(is4xx) ? 'ok' : 'FAIL'} (some 4xx)`,
    cpuMs: 0,
    rssMb: 0,
    note: `${cats.filter((s) => s < 300).length} created`,
  });
  const leak = (name: string) =>
    send({ path: '/api/v1/studio/import', body: { accounts: [{ id: 999999, username: name, email: `${name}@x.example`, password: 'password1234' }] }, headers: harbor });
  const [taken, free] = [await leak('demo'), await leak('nobody-has-this-name')];
  rows.push({
    finding: 'import names another account',
    request: 'POST /api/v1/studio/import',
    status: taken.status,
    expected: `${taken.status === free.status && taken.text.replaceAll('demo', 'N').replace(/999999/g, 'I') === free.text.replaceAll('nobody-has-this-name', 'N').replace(/999999/g, 'I') ? 'ok' : 'FAIL'} (same as a free name)`,
    cpuMs: 0,
    rssMb: 0,
    note: `${taken.text.slice(0, 45)} / ${free.text.slice(0, 40)}`,
  });
  for (const p of ['/studio/', '/docs']) {
    const r = await send({ path: p });
    const csp = r.headers.get('content-security-policy');
    rows.push({
      finding: `CSP on ${p}`,
      request: `GET ${p}`,
      status: r.status,
      expected: `${csp && /frame-ancestors/.test(csp) ? 'ok' : 'FAIL'} (CSP, frame-ancestors)`,
      cpuMs: 0,
      rssMb: 0,
      note: `${csp ?? 'none'} / XFO ${r.headers.get('x-frame-options') ?? 'none'}`.slice(0, 90),
    });
  }

  // Failed logins in front of a good one: the good login's wall time, then its place in line.
  const bad = Array.from({ length: 40 }, (_, i) => send({ path: '/api/v1/rest/auth/login', body: { username: `nobody${i}`, password: 'wrong-password' } }));
  const started = performance.now();
  const good = await send({ path: '/api/v1/rest/auth/login', body: { username: 'ana', password: 'ana12345' } });
  const goodMs = performance.now() - started;
  const badStatuses = await Promise.all(bad);
  rows.push({
    finding: '40 failed logins, then a good one',
    request: 'POST /api/v1/rest/auth/login',
    status: good.status,
    expected: `${good.status === 200 ? 'ok' : 'note'} (200)`,
    cpuMs: 0,
    rssMb: 0,
    note: `good login ${goodMs.toFixed(0)} ms wall; bad: ${[...new Set(badStatuses.map((b) => b.status))].join(',')}`,
  });

  // Anonymous reads of the demo network: what each costs.
  const reads = [
    '/api/v1/services/custom/users/102/channels',
    `/api/v1/services/custom/users/102/channels/video?channels_ids=${channels.data.map((c) => c.id).join(',')}&dates=${new Date().toISOString().slice(0, 10)}`,
    '/api/v1/services/custom/users/102/vod',
  ];
  for (const r of reads) await attack('anonymous read', { path: r }, (s) => s < 500, '< 500');

  // A large network (issue 26, lists): 500 channels of one owner looping a whole day, 50 of them
  // full (720 entries a day), then the cold channel list of its Custom API (no day compiled: the
  // blocks' starts and spans decide availability), and the owner's programme analytics over 92 days.
  const clip = async (n: number, seconds: number) => {
    const r = await send({
      path: '/api/v1/studio/videos',
      body: { ...video, title: `net ${n}`, durationSeconds: seconds, providerVideoId: `net${String(n).padStart(8, '0')}` },
      headers: harbor,
    });
    return r.status < 300 ? (JSON.parse(r.text) as { data: { id: number } }).data.id : undefined;
  };
  const shorts = (await Promise.all(Array.from({ length: 720 }, (_, i) => clip(i, 120)))).filter((id) => id !== undefined);
  const shows = shorts.slice(0, 48);
  let built = 0;
  for (let i = 0; i < 500; i++) {
    const full = i < 50;
    const r = await send({
      path: '/api/v1/studio/channels',
      headers: harbor,
      body: {
        name: `Network ${i}`,
        url: `network-${i}-${Date.now().toString(36)}`,
        categoryId: 1,
        timezone: ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'UTC'][i % 4],
        schedules: [{ startTime: '2026-01-01T00:00:00', loopDaily: true, videoIds: full ? shorts : shows }],
      },
    });
    if (r.status < 300) built++;
    else if (built === 0) console.error(`channel ${i}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  const owner = 102; // harbor in the demo catalog (src/demo/catalog.ts), as the reads above
  // Cold: the first list of this owner since its channels changed (each write dropped its cached days and lists).
  await attack(
    `cold Custom list of ${built} channels, 50 full`,
    { path: `/api/v1/services/custom/users/${owner}/channels` },
    (s) => s === 200,
    '200',
    (t) => `${(JSON.parse(t) as { data: unknown[] }).data?.length ?? 0} channels listed`,
  );
  await attack(
    'the same list, warm',
    { path: `/api/v1/services/custom/users/${owner}/channels` },
    (s) => s === 200,
    '200',
    (t) => `${t.length} bytes`,
  );
  const today = new Date();
  const before = new Date(today.getTime() - 91 * 86_400_000);
  await attack(
    'owner programme analytics, 92 days of the network',
    { path: `/api/v1/rest/analytics/programmes?from=${before.toISOString().slice(0, 10)}&to=${today.toISOString().slice(0, 10)}`, headers: harbor },
    (s) => s === 200,
    '200',
    (t) => t.slice(0, 90),
  );
} finally {
  server.kill('SIGTERM');
}

console.log(`# Issue 26 findings replayed (${args.url ? 'PostgreSQL' : 'PGlite'}), ${new Date().toISOString()}, ${os.cpus()[0]?.model} x ${os.cpus().length}\n`);
console.log('| finding | request | status | verdict | server CPU ms | RSS delta MB | answer |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.finding} | ${r.request} | ${r.status} | ${r.expected} | ${r.cpuMs.toFixed(0)} | ${r.rssMb.toFixed(0)} | ${r.note} |`);
const failed = rows.filter((r) => r.expected.startsWith('FAIL'));
console.log(`\n${failed.length} of ${rows.length} rows failed`);
if (log.includes('"level":50') || /Internal server error/.test(log)) console.log(`server logged errors:\n${log.slice(0, 3000)}`);
process.exitCode = failed.length > 0 ? 1 : 0;
