// Fault: PostgreSQL goes away for a few seconds under light load. The real server is shared
// with the other test files, so a TCP proxy in this test stands between the service and it:
// a cut closes every proxied connection and refuses new ones, as a stopped server would.
// Meanwhile every group answers 503 in its own envelope (never a 500, never a dropped
// connection) and /readyz says 503; once the proxy is back the service recovers by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalog } from '../../src/catalog/import.ts';
import { OWNER, smallCatalog } from '../fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from '../support/db.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { killHard, poll, PollAbort, sleep, sqlOnce, startTcpProxy, viaPort, type TcpProxy } from './support.ts';

const UNAVAILABLE = 'The service is temporarily unavailable; try again shortly.';
const OUTAGES = 2;
/** How long every group must keep answering 503 once the service has noticed an outage. */
const HOLD_MS = 2_500;
/** Requests sent together just before each cut. */
const BURST = 40;
/** The longest the service may take to answer 503 everywhere after the cut. */
const NOTICE_MS = 2_000;
const NOW = '2026-11-21T15:00:00.000Z';

interface Answer {
  status: number;
  /** The heartbeat's marker (payload.seq). */
  seq?: number;
  retryAfter: string | null;
  body: unknown;
}

type Probe = () => Promise<Answer>;
interface Group {
  name: string;
  probe: Probe;
  ok: (a: Answer) => boolean;
  unavailable: unknown;
}
interface Sent {
  name: string;
  answer?: Answer;
  error?: unknown;
}

describe.runIf(process.env.TEST_DATABASE_URL)('fault: the database goes away and comes back', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let token: string;
  let seq = 0;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const imported = await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    expect(imported.ok).toBe(true);
    const target = new URL(database.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    server = await startServerProcess({
      DATABASE_URL: viaPort(database.url!, proxy.port),
      DEMO_ON_EMPTY: 'false',
      RATE_LIMIT_ENABLED: 'false',
      CHANNELNET_TEST_CLOCK: '1',
    });
    const login = await fetch(`${server.url}/api/v1/rest/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
    });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { data: { authToken: string } }).data.authToken;
  });
  afterAll(async () => {
    if (server && server.child.exitCode !== null) console.error(`the server exited (${server.child.exitCode}):\n${server.output().slice(-5_000)}`);
    await killHard(server?.child);
    await proxy?.close();
    await database?.close();
  });

  const answer = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    let response: Response;
    try {
      response = await fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      const exit = server.child.exitCode === null ? '' : ` (the server exited with ${server.child.exitCode})`;
      throw new PollAbort(`${init.method ?? 'GET'} ${path}: no answer${exit}: ${String((error as Error).cause ?? error)}`);
    }
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json');
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: json ? JSON.parse(text) : text };
  };

  /** Each probe and what it answers while the database is away. */
  const groups: Group[] = [
    {
      name: 'REST channel list',
      probe: () => answer('/api/v1/rest/channels', { headers: { authorization: `Bearer ${token}`, 'x-test-now': NOW } }),
      ok: (a) => a.status === 200 && (a.body as { success?: unknown }).success === true,
      unavailable: { success: false, error: { code: 'service_unavailable', message: UNAVAILABLE } },
    },
    {
      name: 'Custom channel list',
      probe: () => answer('/api/v1/services/custom/users/11/channels', { headers: { 'x-test-now': NOW } }),
      ok: (a) => a.status === 200 && Array.isArray((a.body as { data?: unknown }).data),
      unavailable: { data: { message: UNAVAILABLE, status_code: 503 } },
    },
    {
      name: 'activity heartbeat',
      probe: async () => {
        const n = seq++;
        const a = await answer('/api/v1/activity', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-test-now': NOW },
          body: JSON.stringify({ source: 'roku_app', action: 'play_channel', client_id: 11, user_id: `viewer-${n % 20}`, channel_id: 201, payload: { seq: n } }),
        });
        return { ...a, seq: n };
      },
      ok: (a) => a.status === 200 && JSON.stringify(a.body) === JSON.stringify({ message: 'Success' }),
      unavailable: { message: UNAVAILABLE },
    },
    {
      name: 'legacy GetVastSettings',
      probe: () => answer('/WebServices/VastService.asmx/GetVastSettings?channelId=201'),
      ok: (a) => a.status === 200,
      unavailable: 'Server Too Busy\r\n',
    },
    {
      name: 'app image asset',
      probe: () => answer('/assets/apps/301/logo'),
      ok: (a) => a.status === 200,
      unavailable: { status: 'unavailable' },
    },
    {
      name: 'readiness',
      probe: () => answer('/readyz'),
      ok: (a) => a.status === 200,
      unavailable: { status: 'unavailable', database: 'postgres' },
    },
  ];

  /** Every answer of every probe, for the checks at the end. */
  const sent: Sent[] = [];
  const probeAll = () =>
    Promise.all(
      groups.map(async (group) => {
        const a = await group.probe();
        sent.push({ name: group.name, answer: a });
        return { group, answer: a };
      }),
    );

  /** Sends `probe` and records what came back (or that nothing did). */
  const record = async (into: Sent[], group: Group) => {
    try {
      into.push({ name: group.name, answer: await group.probe() });
    } catch (error) {
      into.push({ name: group.name, error });
    }
  };

  /** 'ok', 'unavailable' (503 in the group's envelope), or a PollAbort naming anything else. */
  const classify = (group: Group, a: Answer): 'ok' | 'unavailable' => {
    if (group.ok(a)) return 'ok';
    const envelope = a.status === 503 && JSON.stringify(a.body) === JSON.stringify(group.unavailable);
    if (envelope && (group.name === 'readiness' || a.retryAfter === '5')) return 'unavailable';
    throw new PollAbort(`${group.name} answered ${a.status} ${JSON.stringify(a.body)} (Retry-After ${a.retryAfter}); expected 200 or 503 ${JSON.stringify(group.unavailable)}`);
  };

  /**
   * Cuts the database off, then restores it and waits for recovery. Answers from the catalog read
   * cache may stay 200 until the service sees its LISTEN connection drop (src/cache/catalog-cache.ts),
   * so the cut must show as 503 from every group within NOTICE_MS (give or take a slow probe
   * round), and then hold for HOLD_MS.
   */
  async function outage(into: Sent[]): Promise<{ noticedMs: number; outageMs: number; rounds: number; recoveredMs: number; polls: number }> {
    // Requests in flight at the moment of the cut, some of them mid-transaction.
    const burst = Array.from({ length: BURST }, (_, i) => record(into, groups[i % groups.length]!));
    await sleep(5);
    const cutAt = performance.now();
    await proxy.cut();
    await poll('every group answering 503 after the cut', async () => (await probeAll()).every(({ group, answer: a }) => classify(group, a) === 'unavailable'), {
      attempts: NOTICE_MS / 50,
      intervalMs: 50,
    });
    const noticedAt = performance.now();
    const noticedMs = Math.round(noticedAt - cutAt);
    let rounds = 0;
    while (performance.now() - noticedAt < HOLD_MS) {
      rounds++;
      for (const { group, answer: a } of await probeAll()) {
        expect([a.status, a.body], `${group.name} during the outage`).toEqual([503, group.unavailable]);
        if (group.name !== 'readiness') expect(a.retryAfter, `${group.name} Retry-After`).toBe('5');
      }
      await sleep(100);
    }
    await Promise.all(burst);

    await proxy.restore();
    const restoredAt = performance.now();
    const outageMs = Math.round(restoredAt - cutAt);
    const recovery = await poll('every group answers 200 again', async () => (await probeAll()).every(({ group, answer: a }) => classify(group, a) === 'ok'), {
      attempts: 100,
      intervalMs: 100,
    });
    return { noticedMs, outageMs, rounds, recoveredMs: Math.round(performance.now() - restoredAt), polls: recovery.attempts };
  }

  it("answers 503 in each group's envelope during outages and recovers by itself", { timeout: 60_000 }, async () => {
    const pid = server.child.pid;
    for (const { group, answer: a } of await probeAll()) expect(group.ok(a), `${group.name} before the outage: ${JSON.stringify(a)}`).toBe(true);

    // Light background load across the whole episode: every answer is a 200 or a 503 in the
    // group's envelope, and no request is left without an answer.
    let running = true;
    const loop = async (offset: number) => {
      for (let i = offset; running; i++) {
        await record(sent, groups[i % groups.length]!);
        await sleep(20);
      }
    };
    const loops = [loop(0), loop(2)];
    await sleep(300);
    const outages = [];
    for (let n = 0; n < OUTAGES; n++) {
      outages.push(await outage(sent));
      await sleep(300);
    }
    running = false;
    await Promise.all(loops);

    // Recovered without a restart: the same process, still running.
    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
    for (const b of sent) {
      expect(b.error, `${b.name}: a request without an answer`).toBeUndefined();
      expect(() =>
        classify(
          groups.find((g) => g.name === b.name)!,
          b.answer!,
        ),
      ).not.toThrow();
    }
    const unavailable = sent.filter((b) => b.answer?.status === 503).length;
    expect(unavailable, 'requests answered 503 under load').toBeGreaterThan(0);
    expect(sent.length - unavailable, 'requests answered 200 under load').toBeGreaterThan(0);

    // Every heartbeat answered 200 (before, between or after the outages) is stored.
    const stored = new Set((await sqlOnce<{ seq: number }>(database.url!, `select (payload->>'seq')::integer as seq from activity_events`)).map((r) => r.seq));
    const acked = sent.flatMap((b) => (b.name === 'activity heartbeat' && b.answer?.status === 200 ? [b.answer.seq!] : []));
    expect(acked.length).toBeGreaterThan(0);
    expect(
      acked.filter((n) => !stored.has(n)),
      'acknowledged heartbeats missing',
    ).toEqual([]);
    console.info(
      `database-outage: ${outages.map((o, i) => `outage ${i + 1} (${o.outageMs} ms): all 503 ${o.noticedMs} ms after the cut, then ${o.rounds} probe rounds, recovered ${o.recoveredMs} ms after the restore (${o.polls} polls)`).join('; ')}; ` +
        `${sent.length} requests in all, ${unavailable} answered 503; ${acked.length} heartbeats acknowledged, ${stored.size} stored; ${proxy.accepted} database connections opened`,
    );
  });
});
