// npm run bench:fairness -- [--url postgres://postgres@127.0.0.1:5432/] [--seconds 10] [--connections 64] [--rate 2000] [--rounds 2]
// Fairness between tenants (issue 35 item 6): one owner's heaviest programming writes must not
// make another owner's reads wait or shed. The service runs as in production (its own process,
// load shedding on) over PostgreSQL. The reader is the 20-channel network's creator; its apps'
// warm reads (channel list, guide, app settings) are sent at a steady rate (2,000 a second over
// up to 64 connections: a fleet's polling, not a flood, whose latency is the length of its own
// queue whatever the writer does), first alone, then
// while a second creator applies the largest programming write an owner may make (48 slots on
// every day over 31 days: 1,488 blocks of 5 programmes with filler, the PROGRAMMING_LIMITS
// bound), undoes it and applies it again, with a second apply of the same owner sent during
// each (it must be refused at once with 409, not queued behind the first). Alone and during,
// interleaved `rounds` times. Prints the reads' p50/p99 and 503s and the writes' times, and
// writes the table to bench/results/{date}-fairness.md.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_PASSWORD } from './catalog.ts';
import http from 'node:http';
import { settle, type Measurement } from './drive.ts';
import { createBenchDatabase, dropBenchDatabase, loadCatalog } from './load.ts';
import { networkCatalog, NETWORK_OWNER } from './network.ts';
import { halfHourSlots, programmingVideos } from './programming-plan.ts';
import { startService, type Child } from './processes.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '2' },
    rate: { type: 'string', default: '2000' },
  },
});
const TARGET_P99_MS = 25;
const now = new Date();
const { catalog } = networkCatalog(20, now);

// The writer: a second creator with a channel of its own, programmes and filler (as bench:programming).
const writer = { ...catalog.accounts[0]!, id: NETWORK_OWNER.id + 1, username: 'writer', email: 'writer@bench.invalid', publicUrl: 'writer', appTokens: [], favorites: [] };
catalog.accounts.push(writer);
const { programmes, filler } = programmingVideos(catalog.videos[0]!, writer.id);
catalog.videos.push(...programmes, ...filler);
const writerChannel = 800_000;
catalog.channels.push({
  ...catalog.channels[0]!,
  id: writerChannel,
  ownerId: writer.id,
  name: 'Programmed channel',
  url: 'programmed',
  timezone: 'America/New_York',
  schedules: [],
  liveStreams: [],
});

const o = { seconds: Number(args.seconds), connections: Number(args.connections), rate: Number(args.rate) };
const CUSTOM = `/api/v1/services/custom/users/${NETWORK_OWNER.id}`;
const ROKU = { 'platform-id': 'roku', 'device-id': 'bench-roku-1' };
const today = now.toISOString().slice(0, 10);
const channelIds = catalog.channels
  .filter((c) => c.ownerId === NETWORK_OWNER.id)
  .slice(0, 10)
  .map((c) => c.id)
  .join(',');
const readPaths = [
  `${CUSTOM}/channels?timezone=America/New_York`,
  `${CUSTOM}/channels/video?channels_ids=${channelIds}&dates=${today}&per_page=100&timezone=UTC`,
  `${CUSTOM}/app_settings`,
];

/**
 * The reader's requests for `seconds` at `o.rate` a second, paced evenly (a request every 1/rate s,
 * whatever the answers: autocannon's rate sends each second's quota at once, a burst that is a
 * queue of its own), over at most `o.connections` kept-alive connections. A request's latency
 * counts from when it was due, so a stall delays and counts every request due during it.
 */
async function reads(base: string, seconds: number): Promise<Measurement> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const url = new URL(base);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const one = (path: string, due: number) =>
    new Promise<void>((resolve) => {
      const request = http.get({ agent, host: url.hostname, port: url.port, path, headers: ROKU }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - due);
          if (response.statusCode! >= 200 && response.statusCode! < 300) ok++;
          else non2xx++;
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
    });
  const started = performance.now();
  const interval = 1000 / o.rate;
  const inFlight: Promise<void>[] = [];
  let n = 0;
  while (performance.now() - started < seconds * 1000) {
    // Every request due by now is sent now; then wait for the next one's time (timers are ~1 ms coarse).
    const now = performance.now();
    for (; started + n * interval <= now; n++) inFlight.push(one(readPaths[n % readPaths.length]!, started + n * interval));
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + n * interval - performance.now())));
  }
  await Promise.all(inFlight);
  const duration = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { rps: ok / duration, p50: at(0.5), p99: at(0.99), total: n, ok, non2xx, errors, timeouts: 0 };
}

/**
 * The service's own event-loop delay since the last call (prom-client's monitor, reset on each
 * scrape of /metrics): max and p99 in ms. What the reads' latency holds that the service's loop
 * caused, apart from the client's and the machine's own noise.
 */
async function loopDelay(base: string): Promise<{ max: number; p99: number }> {
  const text = await (await fetch(new URL('/metrics', base))).text();
  const value = (name: string) => 1000 * Number(new RegExp(`^channelnet_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { max: value('max'), p99: value('p99') };
}

async function call(base: string, token: string, method: string, url: string, body?: object): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(new URL(`/api/v1/studio/channels/${writerChannel}${url}`, base), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, text };
}

interface Writes {
  applies: number[];
  undos: number[];
  /** Statuses of the second apply sent while the first ran (409 expected). */
  second: number[];
  blocks: number;
}

/** Applies, with a second apply of the same owner meanwhile, then undoes, until `stop` says so. */
async function writeLoop(base: string, token: string, range: object, stop: () => boolean, writes: Writes): Promise<void> {
  while (!stop()) {
    const first = call(base, token, 'POST', '/programming/apply', range);
    // Sent once the first is under way (its request is on the wire and being worked on).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await call(base, token, 'POST', '/programming/apply', range);
    writes.second.push(second.status);
    if (second.status === 201) await call(base, token, 'POST', '/programming/undo', {});
    const applied = await first;
    if (applied.status !== 201) throw new Error(`apply: ${applied.status} ${applied.text.slice(0, 300)}`);
    writes.applies.push(applied.ms);
    writes.blocks = (JSON.parse(applied.text) as { data: { items: unknown[] } }).data.items.length;
    const undone = await call(base, token, 'POST', '/programming/undo', {});
    if (undone.status !== 200) throw new Error(`undo: ${undone.status} ${undone.text.slice(0, 300)}`);
    writes.undos.push(undone.ms);
  }
}

const work = await mkdtemp(path.join(os.tmpdir(), 'cn-fairness-'));
const databaseUrl = await createBenchDatabase(args.url);
let service: Child | undefined;
try {
  await loadCatalog({ databaseUrl }, catalog, now);
  service = await startService({ databaseUrl, shed: true, logFile: path.join(work, 'service.log') });
  const base = service.url;
  const login = await fetch(new URL('/api/v1/rest/auth/login', base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'writer', password: BENCH_PASSWORD }),
  });
  const token = ((await login.json()) as { data?: { authToken?: string } }).data?.authToken;
  if (!token) throw new Error(`writer login failed: ${login.status}`);

  for (const [url, body] of [
    ['/programming/slots', { slots: halfHourSlots(programmes) }],
    ['/programming/filler', { videoIds: filler.map((v) => v.id) }],
  ] as const) {
    const put = await call(base, token, 'PUT', url, body);
    if (put.status !== 200) throw new Error(`PUT ${url}: ${put.status} ${put.text.slice(0, 300)}`);
  }
  // 31 days (PROGRAMMING_LIMITS.generateDays) from a fortnight ahead: an empty range to write.
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const range = { from: day(14), to: day(44), fill: true };

  await reads(base, 2);
  const alone: Measurement[] = [];
  const during: Measurement[] = [];
  const lag = new Map<Measurement, { max: number; p99: number }>();
  const writes: Writes = { applies: [], undos: [], second: [], blocks: 0 };
  for (let round = 0; round < Number(args.rounds); round++) {
    await settle(base);
    await loopDelay(base);
    const quiet = await reads(base, o.seconds);
    lag.set(quiet, await loopDelay(base));
    alone.push(quiet);
    await settle(base);
    await loopDelay(base);
    let stopped = false;
    const loop = writeLoop(base, token, range, () => stopped, writes);
    const m = await reads(base, o.seconds);
    lag.set(m, await loopDelay(base));
    stopped = true;
    await loop;
    during.push(m);
  }

  const f0 = (x: number) => Math.round(x).toLocaleString('en-US');
  const f1 = (x: number) => x.toFixed(1);
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN;
  const row = (name: string, m: Measurement) =>
    `| ${name} | ${f0(m.rps)} | ${f1(m.p50)} | ${f1(m.p99)} | ${m.non2xx} | ${m.errors + m.timeouts} | ${f1(lag.get(m)!.p99)} / ${f1(lag.get(m)!.max)} | ${m.p99 < TARGET_P99_MS && m.non2xx === 0 ? 'PASS' : 'MISS'} |`;
  const refused = writes.second.filter((s) => s === 409).length;
  const lines = [
    `# Fairness between tenants: ${now.toISOString()}`,
    '',
    `Command: \`npm run bench:fairness -- --seconds ${args.seconds} --connections ${args.connections} --rate ${args.rate} --rounds ${args.rounds}\` (PostgreSQL, service in its own process, load shedding on, ${os.cpus().length} cores: ${os.cpus()[0]?.model ?? ''})`,
    '',
    `Reader: creator ${NETWORK_OWNER.id}'s warm reads (channel list, a 10-channel guide page, app settings, in turn) evenly at ${f0(o.rate)} a second over up to ${o.connections} connections (latency from when each was due), ${o.seconds} s a round. Writer: creator ${writer.id} applying ${writes.blocks.toLocaleString('en-US')} blocks (48 slots a day over 31 days, filler on), undoing, again, all through the reader's "during" rounds.`,
    '',
    `| reads | req/s | p50 ms | p99 ms | non-2xx | errors | service loop delay p99 / max ms | target (p99 < ${TARGET_P99_MS} ms, no 503) |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...alone.map((m, i) => row(`alone, round ${i + 1}`, m)),
    ...during.map((m, i) => row(`during the writes, round ${i + 1}`, m)),
    '',
    `Writes during the reads: ${writes.applies.length} applies (median ${f0(median(writes.applies))} ms, max ${f0(Math.max(...writes.applies))} ms), ${writes.undos.length} undos (median ${f0(median(writes.undos))} ms); a second apply of the same owner sent during each: ${refused} of ${writes.second.length} refused with 409${writes.second.length > refused ? ` (others: ${writes.second.filter((s) => s !== 409).join(', ')})` : ''}.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  const results = path.join(path.dirname(new URL(import.meta.url).pathname), 'results');
  await mkdir(results, { recursive: true });
  const file = path.join(results, `${now.toISOString().slice(0, 10)}-fairness.md`);
  await writeFile(file, lines.join('\n'));
  process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
} finally {
  await service?.stop();
  await dropBenchDatabase(args.url).catch(() => undefined);
}
