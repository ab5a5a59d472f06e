// The HDHomeRun tuner's streams (docs/linear.md: The tuner): a channel as one continuous MPEG-TS,
// made by ffmpeg in copy mode (no transcoding) from the channel's own live HLS playlist.
//
// - Timestamps stay continuous across programmes: each programme's segments start their own
//   clock after an EXT-X-DISCONTINUITY, and ffmpeg's HLS reader is one that may jump. With
//   `-dts_delta_threshold 1` any jump of more than a second (forward or back) is folded into a
//   running offset (the default, 10 s, let a forward jump of a few seconds through as a gap),
//   `+genpts+igndts` rebuild what a cut leaves missing, and `-muxdelay 0` with
//   `-avoid_negative_ts make_zero` start the output at zero. Checked with ffprobe
//   -show_packets on ffmpeg 5.1 (test/live-tuner.test.ts).
// - At most `tunerCount` streams per tuner (per live key) at once in this process: the device's
//   TunerCount, which is what media servers plan with. One more is refused ('all_tuners_busy').
// - A stream's ffmpeg is stopped when its client leaves (stop(): SIGTERM, SIGKILL two seconds
//   later), when ffmpeg ends on its own, and when the app closes (stopAll). Every child is waited
//   for (its 'exit'), so none is left a zombie, and its tuner is free again only then.
// - Whether ffmpeg can run is asked once (`ffmpeg -version`); without it every tune is refused
//   ('no_ffmpeg') and nothing else in the service depends on it.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface TunerOptions {
  ffmpegPath: string;
  tunerCount: number;
}

export type TuneRefusal = 'no_ffmpeg' | 'all_tuners_busy';

export interface TunerStream {
  /** The MPEG-TS bytes. */
  output: Readable;
  /** Stops ffmpeg (idempotent). */
  stop(): void;
  /** Settles once ffmpeg has exited and its tuner is free. */
  exited: Promise<void>;
  pid: number | undefined;
}

const KILL_AFTER_MS = 2_000;
/** What is kept of ffmpeg's own words, for the log when it fails. */
const STDERR_KEEP = 4_096;

/** ffmpeg's arguments for one stream: the live playlist in, MPEG-TS on stdout. */
export function ffmpegArguments(sourceUrl: string): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-fflags',
    '+genpts+igndts+discardcorrupt',
    '-dts_delta_threshold',
    '1',
    // Only http(s): the source is a URL this service chose, and ffmpeg must not follow a playlist to a file.
    '-protocol_whitelist',
    'http,https,tcp,tls,crypto',
    '-i',
    sourceUrl,
    // The first variant's video and audio (a master playlist names every rung).
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    '-muxdelay',
    '0',
    '-avoid_negative_ts',
    'make_zero',
    '-f',
    'mpegts',
    'pipe:1',
  ];
}

export class Tuners {
  private readonly inUse = new Map<string, number>();
  private readonly running = new Set<TunerStream>();
  private ffmpeg: Promise<boolean> | undefined;

  constructor(private readonly options: TunerOptions) {}

  get tunerCount(): number {
    return this.options.tunerCount;
  }

  /** Streams running now for this tuner (0 when none). */
  busy(tuner: string): number {
    return this.inUse.get(tuner) ?? 0;
  }

  /** Whether ffmpeg runs here (asked once per process). */
  ffmpegAvailable(): Promise<boolean> {
    this.ffmpeg ??= new Promise((resolve) => {
      const child = spawn(this.options.ffmpegPath, ['-hide_banner', '-version'], { stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('exit', (code) => resolve(code === 0));
    });
    return this.ffmpeg;
  }

  /** A stream of `sourceUrl` on one of `tuner`'s tuners, or why not. */
  async tune(tuner: string, sourceUrl: string, onFailure: (words: string) => void = () => undefined): Promise<TunerStream | TuneRefusal> {
    if (!(await this.ffmpegAvailable())) return 'no_ffmpeg';
    if (this.busy(tuner) >= this.options.tunerCount) return 'all_tuners_busy';
    this.inUse.set(tuner, this.busy(tuner) + 1);
    const child = spawn(this.options.ffmpegPath, ffmpegArguments(sourceUrl), { stdio: ['ignore', 'pipe', 'pipe'] });
    const stream = this.watch(tuner, child, onFailure);
    this.running.add(stream);
    return stream;
  }

  /** Stops every stream (the app is closing) and waits for their ffmpeg to exit. */
  async stopAll(): Promise<void> {
    const streams = [...this.running];
    for (const s of streams) s.stop();
    await Promise.all(streams.map((s) => s.exited));
  }

  private watch(tuner: string, child: ChildProcessByStdio<null, Readable, Readable>, onFailure: (words: string) => void): TunerStream {
    let words = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (words.length < STDERR_KEEP) words += chunk.toString('utf8').slice(0, STDERR_KEEP - words.length);
    });
    let killer: NodeJS.Timeout | undefined;
    let stopped = false;
    const exited = new Promise<void>((resolve) => {
      let finished = false;
      const done = (code: number | null) => {
        if (finished) return;
        finished = true;
        clearTimeout(killer);
        this.inUse.set(tuner, this.busy(tuner) - 1);
        if (this.busy(tuner) <= 0) this.inUse.delete(tuner);
        this.running.delete(stream);
        if (!stopped && code !== 0) onFailure(words.trim() || `ffmpeg exited with ${code}`);
        resolve();
      };
      // 'error' without 'exit' when the spawn itself failed; 'close' after exit once its pipes are drained.
      child.once('error', () => done(child.exitCode ?? -1));
      child.once('close', (code) => done(code));
    });
    let settled = false;
    void exited.then(() => (settled = true));
    const stream: TunerStream = {
      output: child.stdout,
      pid: child.pid,
      exited,
      stop: () => {
        if (stopped || settled) return;
        stopped = true;
        child.kill('SIGTERM');
        killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        killer.unref();
      },
    };
    return stream;
  }
}
