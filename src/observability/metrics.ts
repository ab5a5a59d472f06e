// Prometheus metrics of the process, in one registry. Domain modules import the counters
// they feed (heartbeats, store verifications); HTTP and database metrics are fed by plugins.
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'channelnet_' });

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new client.Counter({
  name: 'channelnet_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new client.Histogram({
  name: 'channelnet_http_request_duration_seconds',
  help: 'Time from request to response, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const dbQueryDuration = new client.Histogram({
  name: 'channelnet_db_query_duration_seconds',
  help: 'Database query latency, by outcome (ok or error).',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const heartbeats = new client.Counter({
  name: 'channelnet_heartbeats_total',
  help: 'play_channel heartbeats, by result (accepted or rejected).',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const activityBatchSize = new client.Histogram({
  name: 'channelnet_activity_batch_events',
  help: 'Activity events per group-commit batch (one transaction, one multi-row statement for the first round of heartbeats).',
  buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
  registers: [registry],
});

export const storeVerifications = new client.Counter({
  name: 'channelnet_store_verifications_total',
  help: 'Purchase verifications against the stores, by store and outcome.',
  labelNames: ['store', 'outcome'] as const,
  registers: [registry],
});

export const storeNotifications = new client.Counter({
  name: 'channelnet_store_notifications_total',
  help: 'Store server notifications, by store, type and result (received: accepted, duplicate, refused; worker: applied, ignored, refused, retry, failed).',
  labelNames: ['store', 'type', 'result'] as const,
  registers: [registry],
});

export const rokuApiKeySent = new client.Counter({
  name: 'channelnet_roku_api_key_sent_total',
  help: 'Roku Pay acknowledgements that carried the API key, by app (once per confirmed, fresh event; docs/entitlements.md: Store notifications).',
  labelNames: ['app'] as const,
  registers: [registry],
});

export const jobRuns = new client.Counter({
  name: 'channelnet_job_runs_total',
  help: 'Runs of each background job (src/jobs.ts) by result (ok, failed); a tick while a run is under way is skipped.',
  labelNames: ['job', 'result'] as const,
  registers: [registry],
});

export const jobDuration = new client.Histogram({
  name: 'channelnet_job_duration_seconds',
  help: 'Wall time of each background job run.',
  labelNames: ['job'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
  registers: [registry],
});

export const jobLastSuccess = new client.Gauge({
  name: 'channelnet_job_last_success_timestamp_seconds',
  help: 'When each background job last ran to its end without an error (Unix seconds).',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const programmeCredits = new client.Counter({
  name: 'channelnet_programme_sessions_credited_total',
  help: 'Closed watch sessions this process split over the programmes on air (programme analytics).',
  registers: [registry],
});

/** Times a database call for dbQueryDuration. */
export function observeQuery(seconds: number, ok: boolean): void {
  dbQueryDuration.observe({ outcome: ok ? 'ok' : 'error' }, seconds);
}

type Source<T> = () => T | undefined;
let poolSource: Source<{ size: number; total: number; idle: number; waiting: number }> = () => undefined;
let openSessionsSource: () => Promise<number | undefined> = async () => undefined;
let creditBacklogSource: () => Promise<number | undefined> = async () => undefined;
let activityQueueSource: Source<{ items: number; weight: number }> = () => undefined;

/** The process's database pool, read at each scrape. */
export function observePool(source: typeof poolSource): void {
  poolSource = source;
}

/** How to count closed sessions waiting for the programme crediter, read at each scrape. */
export function observeCreditBacklog(source: typeof creditBacklogSource): void {
  creditBacklogSource = source;
}

/** The activity recorder's waiting line (events and their bytes), read at each scrape. */
export function observeActivityQueue(source: typeof activityQueueSource): void {
  activityQueueSource = source;
}

/** How to count open watch sessions, read at each scrape. */
export function observeOpenSessions(source: typeof openSessionsSource): void {
  openSessionsSource = source;
}

new client.Gauge({
  name: 'channelnet_db_pool_connections',
  help: 'Database pool connections by state (size, total, idle, waiting requests); absent on the embedded database.',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    const stats = poolSource();
    if (stats) for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
  },
});

new client.Gauge({
  name: 'channelnet_watch_sessions_open',
  help: 'Watch sessions whose last heartbeat is at most 3 minutes old.',
  registers: [registry],
  async collect() {
    const open = await openSessionsSource().catch(() => undefined);
    if (open !== undefined) this.set(open);
  },
});

new client.Gauge({
  name: 'channelnet_programme_credit_backlog',
  help: 'Closed watch sessions not yet split over the programmes on air (the crediter runs after each sweep).',
  registers: [registry],
  async collect() {
    const waiting = await creditBacklogSource().catch(() => undefined);
    if (waiting !== undefined) this.set(waiting);
  },
});

/** A cache's figures at a scrape: bytes held (counted against its bound), entries, and its counts since start. */
export interface CacheFigures {
  bytes: number;
  /** Absent where the cache keeps no count of them. */
  entries?: number;
  /** Absent where the cache does not count them (schedules). */
  hits?: number;
  misses?: number;
  evictions?: number;
  /** Answers not kept on a first ask while full (the read model's admission). */
  refused?: number;
}

const cacheSources = new Map<string, () => CacheFigures>();

/** A per-process cache shown in /metrics under `cache="<name>"` (the latest registration of a name wins). */
export function observeCache(name: string, source: () => CacheFigures): void {
  cacheSources.set(name, source);
}

function cacheGauge(name: string, help: string, figure: keyof CacheFigures) {
  return new client.Gauge({
    name,
    help,
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [cache, source] of cacheSources) {
        const value = source()[figure];
        if (value !== undefined) this.set({ cache }, value);
      }
    },
  });
}

cacheGauge(
  'channelnet_cache_bytes',
  'Bytes a per-process cache holds, as counted against its bound (answers: encoded answers; catalog: catalog reads; guides: rendered XMLTV days; schedules: compiled entries, about 70 bytes each).',
  'bytes',
);
cacheGauge('channelnet_cache_entries', 'Entries a per-process cache holds.', 'entries');
// Counts since the process started, read from the caches at each scrape (so gauges, named as counters are).
cacheGauge('channelnet_cache_hits_total', 'Lookups a per-process cache answered.', 'hits');
cacheGauge('channelnet_cache_misses_total', 'Lookups a per-process cache could not answer.', 'misses');
cacheGauge('channelnet_cache_evictions_total', 'Entries a per-process cache dropped to stay within its bound (not those a change dropped).', 'evictions');
cacheGauge(
  'channelnet_cache_refused_total',
  'Answers the read model did not keep on their first ask because keeping them would have pushed another out (admission: a key asked twice is kept).',
  'refused',
);

new client.Gauge({
  name: 'channelnet_activity_queue',
  help: 'Activity events waiting for a group-commit batch (unit="events") and their request bytes (unit="bytes"); past ACTIVITY_QUEUE_MAX or ACTIVITY_QUEUE_BYTES an event is refused with 503.',
  labelNames: ['unit'] as const,
  registers: [registry],
  collect() {
    this.reset();
    const queued = activityQueueSource();
    if (queued) {
      this.set({ unit: 'events' }, queued.items);
      this.set({ unit: 'bytes' }, queued.weight);
    }
  },
});
