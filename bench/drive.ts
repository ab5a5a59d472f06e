// Drives one route: a correctness probe first (a route that is not there yet is "missing",
// not a failed run), then a warm-up, then the measured run with autocannon.
import autocannon from 'autocannon';
import type { RequestSpec, Route } from './routes.ts';

export interface Probe {
  status: 'ok' | 'missing' | 'failing';
  /** Body size of the first request, bytes. */
  bytes: number;
  detail: string;
}

export interface Measurement {
  /** Successful (2xx) answers per second: fast 503s from load shedding must not count as throughput. */
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** 2xx answers. */
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** CPU milliseconds per answered request: the server process, and the database backends. */
  serverCpuMs?: number;
  dbCpuMs?: number;
}

/**
 * Probes the first few requests of the rotation (different owners/channels): all must be 200.
 * A 503 is retried for up to `patience` seconds: after a heavy route the service may still be
 * draining its backlog and shedding load, which says nothing about this route.
 */
export async function probe(base: string, route: Route, samples = 5, patience = 30): Promise<Probe> {
  const deadline = performance.now() + patience * 1000;
  let bytes = 0;
  for (let n = 0; n < samples; n++) {
    const spec = route.request(n);
    let response: Response;
    let text: string;
    for (;;) {
      response = await fetch(new URL(spec.path, base), { method: spec.method, headers: spec.headers, body: spec.body });
      text = await response.text();
      if (response.status !== 503 || performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (n === 0) bytes = Buffer.byteLength(text);
    if (response.status !== 200) {
      const detail = `${spec.method} ${spec.path} -> ${response.status} ${text.slice(0, 200)}`;
      // 404 (or the REST/Custom envelopes' not-found) is a route not built yet, or data it cannot find.
      return { status: response.status === 404 ? 'missing' : 'failing', bytes, detail };
    }
  }
  return { status: 'ok', bytes, detail: '' };
}

/**
 * Waits until the service answers /healthz again: after a heavy route it may still be draining
 * queued queries or shedding load (503), which would otherwise be charged to the next route.
 * Returns the seconds it took.
 */
export async function settle(base: string, timeoutSeconds = 60): Promise<number> {
  const started = performance.now();
  let healthy = 0;
  while (healthy < 2) {
    const status = await fetch(new URL('/healthz', base)).then(
      (r) => r.status,
      () => 0,
    );
    healthy = status === 200 ? healthy + 1 : 0;
    if ((performance.now() - started) / 1000 > timeoutSeconds) throw new Error(`the service did not recover within ${timeoutSeconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return (performance.now() - started) / 1000 - 0.5;
}

/** `first` offsets the rotation so the measured run does not replay the warm-up's requests. */
function run(base: string, route: Route, seconds: number, connections: number, first: number): Promise<autocannon.Result> {
  let n = first;
  const setupRequest = (request: autocannon.Request): autocannon.Request => {
    const spec: RequestSpec = route.request(n++);
    return { ...request, method: spec.method, path: spec.path, headers: { ...request.headers, ...spec.headers }, body: spec.body };
  };
  return autocannon({ url: base, connections, duration: seconds, requests: [{ setupRequest }] });
}

export interface RunOptions {
  seconds: number;
  warmup: number;
  connections: number;
}

/** Fills the pool, JIT and caches before the measured run; its figures are dropped. */
export async function warmUp(base: string, route: Route, o: RunOptions): Promise<void> {
  if (o.warmup > 0) await run(base, route, o.warmup, o.connections, 1_000_000);
}

export async function measure(base: string, route: Route, o: RunOptions): Promise<Measurement> {
  const r = await run(base, route, o.seconds, o.connections, 0);
  return {
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}
