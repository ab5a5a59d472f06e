// HLS VODs made by ffmpeg at test time (never downloaded), shared by every linear-output test:
// lavfi testsrc2 (or another pattern) and a sine tone, H.264 + AAC, cut into 2 s (or chosen)
// segments, one media playlist per ladder rung and a multivariant playlist over them. Every rung
// is encoded in the same ffmpeg run from the same frames, with a key frame at every segment
// boundary, so the variants are cut alike (as ingest requires). Made once per process per set of
// options, into a temporary folder removed at exit. Serve them with test/support/media-origin.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Rung {
  width: number;
  height: number;
  /** Video bitrate in kb/s. */
  kbps: number;
  /** H.264 profile (default baseline for rungs under 720 lines, main otherwise). */
  profile?: 'baseline' | 'main';
}

export interface HlsFixtureOptions {
  /** Seconds of media (default 6: keep fixtures small). */
  durationSeconds?: number;
  /** -hls_time (default 2). */
  segmentSeconds?: number;
  /** Default: 640x360@800k and 1280x720@2500k. */
  rungs?: Rung[];
  /** fMP4 segments with an EXT-X-MAP init section instead of MPEG-TS. */
  fmp4?: boolean;
  /** The lavfi video source (to tell programmes apart by picture). Default testsrc2. */
  pattern?: 'testsrc2' | 'smptebars' | 'rgbtestsrc' | 'testsrc';
  /** The tone's frequency in Hz (to tell programmes apart by sound). Default 440. */
  frequency?: number;
  /** Frames per second (default 25). */
  fps?: number;
}

export interface HlsFixture {
  /** The folder holding master.m3u8 and v0/, v1/, ... */
  dir: string;
  /** The multivariant playlist, relative to dir. */
  master: 'master.m3u8';
  /** Each rung's media playlist, relative to dir (v0/index.m3u8, ...). */
  variants: string[];
  options: Required<HlsFixtureOptions>;
}

export const DEFAULT_RUNGS: readonly Rung[] = [
  { width: 640, height: 360, kbps: 800 },
  { width: 1280, height: 720, kbps: 2500 },
];

let root: string | undefined;
const made = new Map<string, Promise<HlsFixture>>();

function rootDir(): string {
  if (!root) {
    root = mkdtempSync(join(tmpdir(), 'channelnet-hls-'));
    const made = root;
    process.on('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return root;
}

function withDefaults(options: HlsFixtureOptions): Required<HlsFixtureOptions> {
  return {
    durationSeconds: options.durationSeconds ?? 6,
    segmentSeconds: options.segmentSeconds ?? 2,
    rungs: options.rungs ?? [...DEFAULT_RUNGS],
    fmp4: options.fmp4 ?? false,
    pattern: options.pattern ?? 'testsrc2',
    frequency: options.frequency ?? 440,
    fps: options.fps ?? 25,
  };
}

/** An HLS VOD of these options, made on first use in this process. */
export function makeHlsFixture(options: HlsFixtureOptions = {}): Promise<HlsFixture> {
  const full = withDefaults(options);
  const key = JSON.stringify(full);
  let fixture = made.get(key);
  if (!fixture) {
    fixture = encode(full, join(rootDir(), `f${made.size}`));
    made.set(key, fixture);
  }
  return fixture;
}

async function encode(o: Required<HlsFixtureOptions>, dir: string): Promise<HlsFixture> {
  await mkdir(dir, { recursive: true });
  const top = o.rungs.reduce((best, r) => (r.height > best.height ? r : best), o.rungs[0]!);
  const n = o.rungs.length;
  const split = n === 1 ? '[0:v]null[s0]' : `[0:v]split=${n}${o.rungs.map((_, i) => `[s${i}]`).join('')}`;
  const scales = o.rungs.map((r, i) => `[s${i}]scale=${r.width}:${r.height}[o${i}]`).join(';');
  const perRung = o.rungs.flatMap((r, i) => [
    `-profile:v:${i}`,
    r.profile ?? (r.height < 720 ? 'baseline' : 'main'),
    `-b:v:${i}`,
    `${r.kbps}k`,
    `-maxrate:v:${i}`,
    `${r.kbps}k`,
    `-bufsize:v:${i}`,
    `${r.kbps * 2}k`,
  ]);
  const gop = String(o.fps * o.segmentSeconds);
  const ext = o.fmp4 ? 'm4s' : 'ts';
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${o.pattern}=size=${top.width}x${top.height}:rate=${o.fps}:duration=${o.durationSeconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${o.frequency}:sample_rate=48000:duration=${o.durationSeconds}`,
    '-filter_complex',
    `${split};${scales}`,
    ...o.rungs.flatMap((_, i) => ['-map', `[o${i}]`, '-map', '1:a']),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    ...perRung,
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:gte(t,n_forced*${o.segmentSeconds})`,
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ac',
    '2',
    '-f',
    'hls',
    '-hls_time',
    String(o.segmentSeconds),
    '-hls_playlist_type',
    'vod',
    ...(o.fmp4 ? ['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4'] : ['-hls_segment_type', 'mpegts']),
    '-hls_segment_filename',
    join(dir, 'v%v', `seg%03d.${ext}`),
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    o.rungs.map((_, i) => `v:${i},a:${i}`).join(' '),
    join(dir, 'v%v', 'index.m3u8'),
  ];
  await run('ffmpeg', args, { timeout: 120_000 });
  // ffmpeg's multivariant playlist has no FRAME-RATE; players and ingest read it when present.
  const master = join(dir, 'master.m3u8');
  writeFileSync(master, readFileSync(master, 'utf8').replace(/^(#EXT-X-STREAM-INF:.*)$/gm, `$1,FRAME-RATE=${o.fps.toFixed(3)}`));
  return { dir, master: 'master.m3u8', variants: o.rungs.map((_, i) => `v${i}/index.m3u8`), options: o };
}
