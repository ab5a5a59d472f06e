// Linear output's costs (issue 34, docs/linear.md): a channel's variant playlist answered warm,
// against the same bytes from memory (interleaved rounds: the ratio is what our code costs), and a
// fleet of N linear channels polled every 2 s by 3 players each, each from its own phase (no 503,
// p99; bench/players.ts), beside the same pace against the same bytes.
//
//   npm run bench:linear -- [--channels 1000] [--seconds 10] [--rounds 3] [--warmup 60] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//
// The network is bench/network.ts's (a daily loop of 144 ten-minute entries a channel, a third of
// its videos Custom HLS); each Custom video gets a synthetic ready ingest (two rungs of 150 four-
// second segments), each channel linear output on with the default 60 s window, and the Roku app
// a guide key. Playlists name segments on media.invalid: nothing is fetched, as in production.
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/connect.ts';
import { hashEpgKey, newEpgKey } from '../src/access/epg-keys.ts';
import { insertEpgKey } from '../src/data/epg-keys.ts';
import { insertChannelLinear } from '../src/data/channel-linear.ts';
import { storeReadyIngest } from '../src/linear/ingested.ts';
import type { IngestedVideo } from '../src/linear/types.ts';
import { createBenchDatabase, dropBenchDatabase, loadCatalog } from './load.ts';
import { networkCatalog } from './network.ts';
import { players } from './players.ts';
import { startSameBytes, startService, type Child } from './processes.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const CHANNELS = Number(args.get('channels') ?? 1000);
const SECONDS = Number(args.get('seconds') ?? 10);
const ROUNDS = Number(args.get('rounds') ?? 3);
const SERVER = args.get('database-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 32;
const WARMUP = Number(args.get('warmup') ?? 60);

const log = (line: string) => process.stdout.write(`${line}\n`);

function syntheticIngest(id: number): IngestedVideo {
  const segments = 150; // 600 s of 4-second segments: the video's catalog duration
  const rung = (name: string, bandwidth: number, width: number, height: number) => ({
    bandwidth,
    resolution: { width, height },
    codecs: 'avc1.4d401f,mp4a.40.2',
    playlistUri: `https://media.invalid/net-${id}/${name}/index.m3u8`,
    segmentUris: Array.from({ length: segments }, (_, i) => `https://media.invalid/net-${id}/${name}/seg_${String(i).padStart(5, '0')}.ts`),
  });
  return {
    container: 'ts',
    version: 3,
    targetDurationSeconds: 4,
    durationsMs: Array(segments).fill(4000),
    variants: [rung('360p', 800_000, 640, 360), rung('720p', 2_500_000, 1280, 720)],
  };
}

async function prepare(databaseUrl: string, now: Date): Promise<{ key: string; channelIds: number[] }> {
  const network = networkCatalog(CHANNELS, now);
  await loadCatalog({ databaseUrl }, network.catalog, now, log);
  const handle = await openDatabase({ databaseUrl, poolSize: 4 });
  try {
    const custom = network.catalog.videos.filter((v) => v.providerName === 'Custom');
    for (const v of custom) await storeReadyIngest(handle.db, v.id, v.streamUrl!, syntheticIngest(v.id), now);
    const ladder = { container: 'ts', variants: syntheticIngest(0).variants.map(({ bandwidth, resolution, codecs }) => ({ bandwidth, resolution, codecs })) };
    const epoch = new Date(now.getTime() - 3_600_000);
    for (const c of network.channels) await insertChannelLinear(handle.db, { channelId: c.id, enabled: true, targetDurationSeconds: 4, windowSeconds: 60, ladder, epoch });
    const key = newEpgKey();
    await insertEpgKey(handle.db, { appId: network.rokuAppId, keyHash: hashEpgKey(key), createdAt: now });
    log(`prepared: ${network.channels.length} linear channels, ${custom.length} ingested videos`);
    return { key, channelIds: network.channels.map((c) => c.id) };
  } finally {
    await handle.close();
  }
}

async function cannon(url: string, paths: string[], options: { seconds: number; connections: number; overallRate?: number }) {
  let n = 0;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    requests: [{ setupRequest: (request) => ({ ...request, path: paths[n++ % paths.length]! }) }],
  });
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
    bytesPerSecond: result.throughput.average,
  };
}

async function main() {
  const now = new Date();
  const databaseUrl = await createBenchDatabase(SERVER);
  let service: Child | undefined;
  let same: Child | undefined;
  try {
    const { key, channelIds } = await prepare(databaseUrl, now);
    service = await startService({ databaseUrl, shed: true, logFile: '/tmp/bench-linear-service.log' });
    same = await startSameBytes('/tmp/bench-linear-same.log');
    const variant = (id: number) => `/api/v1/live/${key}/${id}/0.m3u8`;
    // Every channel asked once (its window built and its ledger row written), then the one measured.
    for (const id of channelIds) await fetch(new URL(variant(id), service.url));
    const one = variant(channelIds[0]!);
    const playlist = await (await fetch(new URL(one, service.url))).arrayBuffer();
    await fetch(new URL('/bytes/playlist', same.url), { method: 'PUT', headers: { 'content-type': 'application/vnd.apple.mpegurl' }, body: playlist });
    log(`playlist: ${playlist.byteLength} bytes`);
    const rows: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const route = await cannon(service.url, [one], { seconds: SECONDS, connections: CONNECTIONS });
      const bytes = await cannon(same.url, ['/bytes/playlist'], { seconds: SECONDS, connections: CONNECTIONS });
      rows.push(
        `| ${round} | ${route.rps.toFixed(0)} | ${bytes.rps.toFixed(0)} | ${(route.rps / bytes.rps).toFixed(2)} | ${route.p99} / ${bytes.p99} | ${route.non2xx} | ${(bytes.bytesPerSecond / 1e6).toFixed(1)} MB/s |`,
      );
    }
    log('\n| round | variant playlist req/s | same bytes req/s | ratio | p99 ms (route / bytes) | non-2xx | same bytes' + ' |\n|---|---|---|---|---|---|---|');
    for (const row of rows) log(row);
    // The fleet: every channel's variant playlist, 3 players each polling every 2 s, each from its
    // own phase (bench/players.ts: autocannon's pacing is a burst at every second's start).
    const fleetPaths = channelIds.flatMap((id) => [variant(id), variant(id), variant(id)]);
    const fleetOptions = { players: fleetPaths.length, intervalMs: 2000, connections: 64 };
    const rate = Math.round(fleetPaths.length / 2);
    // A fresh process also warms the key's XMLTV guide in the background (the warmer) and compiles
    // every channel's days: a first minute of the fleet is the warm-up, not counted.
    const warm = await players({ url: service.url, paths: fleetPaths, seconds: WARMUP, ...fleetOptions });
    log(`\nfleet warm-up (${WARMUP} s, not counted): ${warm.rps.toFixed(0)}/s 2xx, p99 ${warm.p99.toFixed(1)} ms, non-2xx ${warm.non2xx}; slowest seconds: ${warm.worst}`);
    // Interleaved: the fleet, then the same pace against the same bytes from memory (what the
    // client and the machine add to a latency), per round.
    log(
      `\n| round | fleet answered/s of ${rate} | p50 ms | p99 ms | max ms | non-2xx | errors | same bytes at that pace: p50 / p99 / max ms | slowest seconds (fleet) |\n|---|---|---|---|---|---|---|---|---|`,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      const fleet = await players({ url: service.url, paths: fleetPaths, seconds: Math.max(20, SECONDS * 2), ...fleetOptions });
      const paced = await players({ url: same.url, paths: ['/bytes/playlist'], seconds: Math.max(20, SECONDS * 2), ...fleetOptions });
      log(
        `| ${round} | ${fleet.rps.toFixed(0)} | ${fleet.p50.toFixed(1)} | ${fleet.p99.toFixed(1)} | ${fleet.max.toFixed(0)} | ${fleet.non2xx} | ${fleet.errors} | ${paced.p50.toFixed(1)} / ${paced.p99.toFixed(1)} / ${paced.max.toFixed(0)} | ${fleet.worst} |`,
      );
    }
  } finally {
    await service?.stop();
    await same?.stop();
    await dropBenchDatabase(SERVER).catch(() => undefined);
  }
}

await main();
