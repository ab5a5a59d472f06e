// Real players for the linear output's tests (docs/linear.md): hls.js in Debian's Chromium and
// ffmpeg's HLS demuxer, each reading a live playlist for some seconds of wall time (a player plays
// in real time: this is the one place the tests wait on the clock), and ffprobe reading what they
// wrote. Nothing here knows channelnet: each takes a URL.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';

const require = createRequire(import.meta.url);
const HLS_JS = readFileSync(require.resolve('hls.js/dist/hls.min.js'));

/** What hls.js did while it played. */
export interface HlsJsReport {
  fatalErrors: string[];
  /** Non-fatal errors (details), in order. */
  errors: string[];
  /** Stalls after playback first started: 'waiting' to 'playing', in ms. */
  stallsMs: number[];
  /** The video element's currentTime at the end. */
  playedSeconds: number;
  /** hls.playingDate at the end (epoch ms), null when it had none. */
  playingDate: number | null;
  /** Date.now() in the page at the end, to compare playingDate with. */
  pageNow: number;
  /** Every fragment that started playing: its sequence number, discontinuity counter, URL and date. */
  fragments: { sn: number; cc: number; url: string; programDateTime: number | null }[];
}

/** A page of our own on loopback: an origin for the player, and hls.js from node_modules. */
async function playerPage(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/hls.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(HLS_JS);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>player</title><video id="v" muted playsinline width="320" height="180"></video><script src="/hls.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Plays `url` with hls.js for `seconds` of wall time and reports what happened. */
export async function playWithHlsJs(browser: Browser, url: string, seconds: number): Promise<HlsJsReport> {
  const { origin, server } = await playerPage();
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(origin);
    await page.evaluate((source) => {
      const w = globalThis as any;
      const video = w.document.getElementById('v');
      const report = { fatalErrors: [] as string[], errors: [] as string[], stallsMs: [] as number[], fragments: [] as any[], started: false, waitingSince: 0 };
      w.report = report;
      const hls = new w.Hls({ liveSyncDurationCount: 3 });
      w.hls = hls;
      hls.on(w.Hls.Events.ERROR, (_: unknown, data: any) => (data.fatal ? report.fatalErrors : report.errors).push(`${data.type}:${data.details}`));
      hls.on(w.Hls.Events.FRAG_CHANGED, (_: unknown, data: any) => {
        const f = data.frag;
        report.fragments.push({ sn: f.sn, cc: f.cc, url: f.url, programDateTime: f.programDateTime ?? null });
      });
      video.addEventListener('waiting', () => {
        if (report.started) report.waitingSince = performance.now();
      });
      video.addEventListener('playing', () => {
        if (report.started && report.waitingSince) report.stallsMs.push(performance.now() - report.waitingSince);
        report.started = true;
        report.waitingSince = 0;
      });
      hls.loadSource(source);
      hls.attachMedia(video);
      hls.on(w.Hls.Events.MANIFEST_PARSED, () => void video.play().catch((e: Error) => report.fatalErrors.push(`play:${e.message}`)));
    }, url);
    await page.waitForTimeout(seconds * 1000);
    return await page.evaluate(() => {
      const w = globalThis as any;
      const video = w.document.getElementById('v');
      const r = w.report;
      // A stall still under way at the end counts too.
      const stallsMs = r.waitingSince ? [...r.stallsMs, performance.now() - r.waitingSince] : r.stallsMs;
      const date = w.hls.playingDate as Date | null;
      return {
        fatalErrors: r.fatalErrors,
        errors: r.errors,
        stallsMs,
        playedSeconds: video.currentTime,
        playingDate: date ? date.getTime() : null,
        pageNow: Date.now(),
        fragments: r.fragments,
      };
    });
  } finally {
    await context.close();
    server.close();
  }
}

function run(command: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * ffmpeg reads the live playlist at `url` for `seconds` of wall time and copies what it read into
 * `outFile` (MPEG-TS): its HLS demuxer follows the live window as a set-top box's would.
 */
export async function recordWithFfmpeg(url: string, seconds: number, outFile: string): Promise<{ code: number | null; stderr: string }> {
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'warning', '-y', '-live_start_index', '-3', '-i', url, '-t', String(seconds), '-c', 'copy', '-f', 'mpegts', outFile];
  return run('ffmpeg', args, (seconds + 60) * 1000);
}

export interface Packet {
  streamIndex: number;
  codecType: string;
  pts: number | null;
  dts: number | null;
  /** Seconds. */
  ptsTime: number | null;
}

/** Every packet of a media file or URL as ffprobe reads it (timestamps in the stream's time base). */
export async function probePackets(input: string): Promise<Packet[]> {
  const { code, stdout, stderr } = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'packet=stream_index,pts,dts,pts_time:stream=index,codec_type', '-of', 'json', input],
    120_000,
  );
  if (code !== 0) throw new Error(`ffprobe ${input} failed: ${stderr}`);
  const parsed = JSON.parse(stdout) as { packets?: { stream_index: number; pts?: number; dts?: number; pts_time?: string }[]; streams?: { index: number; codec_type: string }[] };
  const types = new Map((parsed.streams ?? []).map((s) => [s.index, s.codec_type]));
  return (parsed.packets ?? []).map((p) => ({
    streamIndex: p.stream_index,
    codecType: types.get(p.stream_index) ?? 'unknown',
    pts: p.pts ?? null,
    dts: p.dts ?? null,
    ptsTime: p.pts_time === undefined ? null : Number(p.pts_time),
  }));
}

/** The packets of each stream whose DTS does not rise (empty when every stream's DTS rises). */
export function dtsSetbacks(packets: readonly Packet[]): { streamIndex: number; at: number; from: number; to: number }[] {
  const last = new Map<number, number>();
  const setbacks: { streamIndex: number; at: number; from: number; to: number }[] = [];
  packets.forEach((p, at) => {
    if (p.dts === null) return;
    const before = last.get(p.streamIndex);
    if (before !== undefined && p.dts <= before) setbacks.push({ streamIndex: p.streamIndex, at, from: before, to: p.dts });
    last.set(p.streamIndex, p.dts);
  });
  return setbacks;
}
