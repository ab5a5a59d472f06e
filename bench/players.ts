// A fleet of players, each polling its path every `intervalMs` from its own phase: what real HLS
// players do (each began watching at its own moment). autocannon's overallRate cannot stand in:
// it sends each connection's share of a second back to back at every second's start (a burst of
// the whole second's requests at once) and adds coordinated-omission values to its histogram, so
// even bytes from memory measured p99 31-108 ms at 1,500 req/s on this machine.
//
// A request's latency is from its send to its last byte: a request waiting for one of the
// `connections` sockets (keep-alive, as a CDN or a player's HTTP stack holds them) counts.
import http from 'node:http';

export interface PlayersResult {
  /** Answers per second (2xx). */
  rps: number;
  asked: number;
  ok: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** The three slowest wall-clock seconds and their slowest answer. */
  worst: string;
}

export async function players(options: {
  url: string;
  paths: readonly string[];
  players: number;
  intervalMs: number;
  seconds: number;
  connections: number;
}): Promise<PlayersResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const base = new URL(options.url);
  const latencies: number[] = [];
  const slowest = new Map<number, number>();
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const until = started + options.seconds * 1000;
  const get = (path: string, scheduled: number) =>
    new Promise<void>((resolve) => {
      // From the send (a timer may fire a fraction of a millisecond before its instant).
      const at = Math.max(scheduled, performance.now());
      const request = http.get({ host: base.hostname, port: base.port, path, agent }, (response) => {
        response.on('data', () => undefined);
        response.on('end', () => {
          const ms = performance.now() - at;
          latencies.push(ms);
          const second = Math.floor((at - started) / 1000);
          slowest.set(second, Math.max(slowest.get(second) ?? 0, ms));
          if (response.statusCode! >= 200 && response.statusCode! < 300) ok++;
          else non2xx++;
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
    });
  const player = async (i: number) => {
    const path = options.paths[i % options.paths.length]!;
    // Each player's phase: spread evenly over one interval (a fleet started over time).
    let at = started + (i / options.players) * options.intervalMs;
    while (at < until) {
      const wait = at - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await get(path, at);
      at += options.intervalMs;
      // A player whose answer came later than its next poll asks at once (as hls.js does), not twice.
      if (at < performance.now()) at = performance.now();
    }
  };
  await Promise.all(Array.from({ length: options.players }, (_, i) => player(i)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (f: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * f))] ?? NaN;
  const worst = [...slowest]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([s, ms]) => `${ms.toFixed(0)} ms at ${s} s`)
    .join(', ');
  const asked = latencies.length + errors;
  return { rps: ok / options.seconds, asked, ok, non2xx, errors, p50: q(0.5), p99: q(0.99), max: latencies.at(-1) ?? NaN, worst };
}
