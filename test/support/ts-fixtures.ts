// MPEG-TS HLS fixtures made by ffmpeg at test time (lavfi test pattern and tone; nothing is
// downloaded), and a tiny loopback server that plays them as one live channel: a sliding window
// over the real clock of programmes A, B, A, B... of SEGMENTS one-second segments each, with
// EXT-X-DISCONTINUITY before each programme's first segment (never the window's first) and the
// media and discontinuity sequences it implies. B's clock starts 8 s later than A's (a forward
// jump at A->B, a backward one at B->A), as separately encoded videos do.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const SEGMENTS = 4;
const WINDOW = 5;

/** Makes programme `name` (SEGMENTS segments of 1 s) in `dir`, its clock starting at `offset` s. */
async function makeProgramme(dir: string, name: string, frequency: number, offset: number): Promise<void> {
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x90:rate=25',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:sample_rate=48000`,
    '-t',
    String(SEGMENTS),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '25',
    '-keyint_min',
    '25',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-output_ts_offset',
    String(offset),
    '-f',
    'hls',
    '-hls_time',
    '1',
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    path.join(dir, `${name}%02d.ts`),
    path.join(dir, `${name}.m3u8`),
  ]);
}

export interface LiveFixture {
  url(pathname: string): string;
  /** Segment files requested so far, in order. */
  served: string[];
  close(): Promise<void>;
}

/** The playlist at `now` (ms since the channel started): the last WINDOW segments aired. */
export function livePlaylist(elapsedMs: number): string {
  const head = Math.max(WINDOW - 1, Math.floor(elapsedMs / 1000));
  const first = head - WINDOW + 1;
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`, `#EXT-X-DISCONTINUITY-SEQUENCE:${Math.floor(first / SEGMENTS)}`];
  for (let n = first; n <= head; n += 1) {
    const programme = Math.floor(n / SEGMENTS);
    if (n % SEGMENTS === 0 && n !== first) lines.push('#EXT-X-DISCONTINUITY');
    lines.push('#EXTINF:1.000,', `/${programme % 2 === 0 ? 'a' : 'b'}${String(n % SEGMENTS).padStart(2, '0')}.ts`);
  }
  return `${lines.join('\n')}\n`;
}

/** The fixtures, made in a temporary directory, served live from 127.0.0.1 (any path ending .m3u8 is the playlist). */
export async function liveFixture(): Promise<LiveFixture> {
  const dir = await mkdtemp(path.join(tmpdir(), 'channelnet-ts-'));
  await Promise.all([makeProgramme(dir, 'a', 440, 0), makeProgramme(dir, 'b', 880, 8)]);
  const started = Date.now();
  const served: string[] = [];
  const server: Server = createServer((request, response) => {
    const name = (request.url ?? '').split('?')[0]!;
    if (name.endsWith('.m3u8')) {
      response.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(livePlaylist(Date.now() - started));
      return;
    }
    if (!/^\/[ab]\d\d\.ts$/.test(name)) {
      response.writeHead(404).end();
      return;
    }
    served.push(name.slice(1));
    readFile(path.join(dir, name)).then(
      (bytes) => response.writeHead(200, { 'content-type': 'video/mp2t' }).end(bytes),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname) => `http://127.0.0.1:${port}${pathname}`,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface PacketRead {
  stream: number;
  dts: number;
}

/** Every packet's stream and DTS (90 kHz) as ffprobe -show_packets reads the file. */
export async function probePackets(file: string): Promise<PacketRead[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'packet=stream_index,dts', '-of', 'csv=p=0', file], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => /^\d+,-?\d+/.test(line))
    .map((line) => {
      const [stream, dts] = line.split(',');
      return { stream: Number(stream), dts: Number(dts) };
    });
}
