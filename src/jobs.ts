// Every background job of a process starts here, with one scheduler: the session sweep and
// programme crediting, the store notification inbox's poll, the store reconciliation and the
// warming of XMLTV guides, HLS ingest's queue, and on embedded PGlite the planner's statistics. Each job
// runs at most once at a time (a tick while it runs is skipped), never keeps the process alive,
// logs its failures, and is counted in /metrics (channelnet_job_*). Stopping waits for runs
// under way, so nothing a job started is cut off at shutdown.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { keepTableStatistics } from './data/table-statistics.ts';
import type { DatabaseHandle } from './db/connect.ts';
import type { StoreNotifications } from './entitlements/notifications/service.ts';
import type { Guides } from './guides/guides.ts';
import { INGEST_EVERY_MS, type HlsIngests } from './linear/ingest-worker.ts';
import { WARM_EVERY_MS } from './guides/warmer.ts';
import { jobDuration, jobLastSuccess, jobRuns, programmeCredits } from './observability/metrics.ts';
import type { ScheduleTimelines } from './schedules/timelines.ts';
import { creditClosedSessions } from './sessions/programme-crediter.ts';
import { sweepSessions } from './sessions/sweeper.ts';

export interface Job {
  name: string;
  everyMs: number;
  /** One run; `now` is the scheduler's clock at its start. */
  run(now: Date): Promise<unknown>;
}

export class Jobs {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly clock: Clock,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  add(job: Job): void {
    const timer = setInterval(() => void this.runOnce(job), job.everyMs);
    timer.unref();
    this.timers.push(timer);
  }

  /** Runs `job` now unless a run of it is under way; resolves when the run (or the one under way) ends. */
  runOnce(job: Job): Promise<void> {
    const current = this.running.get(job.name);
    if (current) return current;
    const started = process.hrtime.bigint();
    const run = job
      .run(this.clock())
      .then(
        () => {
          jobRuns.inc({ job: job.name, result: 'ok' });
          jobLastSuccess.set({ job: job.name }, Date.now() / 1000);
        },
        (error: unknown) => {
          jobRuns.inc({ job: job.name, result: 'failed' });
          this.log.error({ err: error, job: job.name }, 'background job failed');
        },
      )
      .finally(() => {
        jobDuration.observe({ job: job.name }, Number(process.hrtime.bigint() - started) / 1e9);
        this.running.delete(job.name);
      });
    this.running.set(job.name, run);
    return run;
  }

  /** Stops every timer and waits for the runs under way. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
    await Promise.all(this.running.values());
  }
}

const SWEEP_EVERY_MS = 60_000;
/** How often embedded PGlite's tables are looked at (a read of pg_stat_user_tables; work only past the thresholds). */
const TABLE_UPKEEP_EVERY_MS = 60_000;

export interface JobSources {
  database: DatabaseHandle;
  config: Config;
  timelines: ScheduleTimelines;
  notifications: StoreNotifications;
  /** XMLTV guides; absent: no guide warming. */
  guides?: Guides;
  /** HLS ingest's queue; absent: no ingest job. */
  ingests?: HlsIngests;
  log: Pick<FastifyBaseLogger, 'info'>;
}

/** The jobs a serving process runs, as its configuration asks. */
export function serviceJobs({ database, config, timelines, notifications, guides, ingests, log }: JobSources): Job[] {
  const { db } = database;
  const jobs: Job[] = [];
  // Sessions close by their own clock; under the test clock the tests sweep when they choose.
  if (!config.CHANNELNET_TEST_CLOCK) {
    jobs.push({
      name: 'session_sweep',
      everyMs: SWEEP_EVERY_MS,
      // What the sweep closed is credited to the programmes on air in the same pass.
      run: async (now) => {
        await sweepSessions(db, now);
        programmeCredits.inc(await creditClosedSessions(db, timelines));
      },
    });
  }
  if (config.STORE_NOTIFICATION_POLL_MS > 0) {
    // Retries, and notifications a process that died had claimed.
    jobs.push({ name: 'store_inbox', everyMs: config.STORE_NOTIFICATION_POLL_MS, run: () => notifications.inbox.drainSoon() });
  }
  if (config.STORE_RECONCILE_MINUTES > 0) {
    jobs.push({
      name: 'store_reconcile',
      everyMs: config.STORE_RECONCILE_MINUTES * 60_000,
      run: async (now) => log.info({ lines: await notifications.reconcile(now) }, 'store reconciliation done'),
    });
  }
  if (database.kind === 'pglite') {
    // PGlite runs no autovacuum: without this its planner never learns the data's size.
    jobs.push({
      name: 'table_upkeep',
      everyMs: TABLE_UPKEEP_EVERY_MS,
      run: async () => {
        const upkeep = await keepTableStatistics(db);
        if (upkeep.analyzed.length > 0) log.info(upkeep, 'table statistics refreshed');
      },
    });
  }
  if (guides && config.GUIDE_WARM_DAYS > 0) {
    // Keyed apps' guides warm ahead of their players, and past each zone's midnight.
    jobs.push({ name: 'guide_warm', everyMs: WARM_EVERY_MS, run: () => guides.warmer.warmInTurn() });
  }
  if (ingests) {
    // Ingests queued by imports, other instances or a process that stopped mid-read.
    jobs.push({ name: 'hls_ingest', everyMs: INGEST_EVERY_MS, run: () => ingests.drainSoon() });
  }
  return jobs;
}
