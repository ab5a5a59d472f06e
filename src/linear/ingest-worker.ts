// The process's HLS ingest queue: pending rows of video_hls are read a few at a time, oldest
// request first. The Studio kicks it after a write that queued an ingest; the `hls_ingest` job
// (src/jobs.ts) drains it on a timer too, so rows queued by an import, another instance or a
// process that stopped mid-read are read. Safe with several instances: a result is stored only for
// the request still pending (src/linear/ingest.ts), so two reads of one video store it once.
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connect.ts';
import { pendingIngests } from '../data/video-hls.ts';
import type { TextFetcher } from '../media/safe-fetch.ts';
import { ingestRequest } from './ingest.ts';

/** Videos read at once: each holds a few bounded fetches (safe-fetch.ts), so a few keep a slow origin from holding the queue. */
export const INGEST_BATCH = 3;
/** How often the job looks for pending ingests nobody kicked (an import's, another instance's). */
export const INGEST_EVERY_MS = 10_000;

/** Where a failed run is told (the app's logger). */
export interface IngestLog {
  error(details: object, message: string): void;
}

export class HlsIngests {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly fetcher: TextFetcher,
    private readonly clock: Clock,
    private readonly log: IngestLog,
  ) {}

  /** Starts a drain, or asks the one under way for one more pass. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // A failed pass (the database gone, a shutdown) is logged; the job's next run tries again.
    this.running = this.drain()
      .catch((error: unknown) => this.log.error({ err: error }, 'HLS ingest queue failed'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Starts nothing more and resolves when the drain under way has ended (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.again = false;
    await this.idle();
  }

  /** Resolves when no drain is under way (tests await it; shutdown waits for it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** A drain now (or the one under way, once more), resolved when the queue is idle: the job's run. */
  drainSoon(): Promise<void> {
    this.kick();
    return this.idle();
  }

  /** Every pending row, each read once per drain (a row asked again meanwhile waits for the next). */
  private async drain(): Promise<void> {
    const done: number[] = [];
    while (!this.stopped) {
      const batch = await pendingIngests(this.db, INGEST_BATCH, done);
      if (batch.length === 0) return;
      await Promise.all(
        batch.map((request) =>
          ingestRequest(this.db, this.fetcher, request, this.clock()).catch((error: unknown) => {
            this.log.error({ err: error, videoId: request.videoId }, 'HLS ingest failed');
          }),
        ),
      );
      done.push(...batch.map((r) => r.videoId));
    }
  }
}
