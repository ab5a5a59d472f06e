// The results table (console and markdown) and the verdict against the targets of issue 9:
// read routes >= 40% of the baseline's requests/s with p99 < 10 ms; heartbeats >= 5,000/s with
// p99 < 20 ms; server RSS < 300 MB on PostgreSQL; the full catalog's p99 within 1.5x of the
// small catalog's (compared with the latest small run of the same backend, when there is one).
import type { Measurement, Probe } from './drive.ts';
import type { RouteKind } from './routes.ts';

export const TARGETS = { readShare: 0.4, readP99: 10, heartbeatRps: 5000, heartbeatP99: 20, rssMb: 300, scaleP99: 1.5 };

export interface RouteResult {
  name: string;
  kind: RouteKind;
  probe: Probe;
  measurement?: Measurement;
  /** Server RSS right after the route's run, MB. */
  rssMb?: number;
}

export interface Verdict {
  pass: boolean;
  text: string;
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const f0 = (x: number) => Math.round(x).toLocaleString('en-US');

export function routeVerdict(r: RouteResult, baselineRps: number | undefined): Verdict | undefined {
  const m = r.measurement;
  if (!m || r.kind === 'baseline') return undefined;
  const gaps: string[] = [];
  if (r.kind === 'read') {
    const needed = TARGETS.readShare * (baselineRps ?? 0);
    if (m.ok === 0) gaps.push(m.total === 0 ? 'no answer within the run' : 'no 2xx answer');
    else if (baselineRps !== undefined && m.rps < needed) {
      gaps.push(`req/s ${f0(m.rps)} < ${f0(needed)} (${f1((100 * m.rps) / baselineRps)}% of baseline, need 40%; ${f1(needed / m.rps)}x short)`);
    }
    if (m.total > 0 && m.p99 >= TARGETS.readP99) gaps.push(`p99 ${f1(m.p99)} ms >= ${TARGETS.readP99} ms (${f1(m.p99 / TARGETS.readP99)}x over)`);
  } else {
    if (m.ok === 0) gaps.push('no 2xx answer');
    else if (m.rps < TARGETS.heartbeatRps) gaps.push(`req/s ${f0(m.rps)} < ${f0(TARGETS.heartbeatRps)} (${f1(TARGETS.heartbeatRps / m.rps)}x short)`);
    if (m.p99 >= TARGETS.heartbeatP99) gaps.push(`p99 ${f1(m.p99)} ms >= ${TARGETS.heartbeatP99} ms (${f1(m.p99 / TARGETS.heartbeatP99)}x over)`);
  }
  if (m.non2xx > 0 || m.errors > 0) gaps.push(`${m.non2xx} non-2xx of ${m.total}, ${m.errors} errors`);
  return gaps.length === 0 ? { pass: true, text: 'PASS' } : { pass: false, text: `MISS: ${gaps.join('; ')}` };
}

export interface Report {
  title: string;
  command: string;
  machine: string;
  setup: string[];
  results: RouteResult[];
  /** p99 of the same route in the latest small-catalog run, for the flatness check. */
  smallP99?: Map<string, number>;
  postgres: boolean;
  /** For the CPU ceiling: cores / (server + database CPU per request), load generator left out. */
  cores: number;
}

function rows(report: Report): string[][] {
  const baseline = report.results.find((r) => r.kind === 'baseline')?.measurement?.rps;
  return report.results.map((r) => {
    const m = r.measurement;
    if (!m) return [r.name, r.probe.status, '', '', '', '', '', '', '', '', '', r.probe.detail.slice(0, 120)];
    const ratio = baseline && r.kind !== 'baseline' ? `${f1((100 * m.rps) / baseline)}%` : r.kind === 'baseline' ? '100%' : '';
    const small = report.smallP99?.get(r.name);
    const scale = small === undefined ? '' : ` (p99 ${f1(m.p99 / small)}x small)`;
    const verdict = routeVerdict(r, baseline);
    const answered = m.total > 0; // else nothing came back within the run: latencies are empty
    return [
      r.name,
      f0(m.rps),
      answered ? f1(m.p50) : '-',
      answered ? f1(m.p99) : '-',
      ratio,
      String(m.non2xx + m.errors),
      r.rssMb === undefined ? '' : f0(r.rssMb),
      m.serverCpuMs === undefined ? '' : f2(m.serverCpuMs),
      m.dbCpuMs === undefined ? '' : f2(m.dbCpuMs),
      m.serverCpuMs === undefined ? '' : f0((report.cores * 1000) / (m.serverCpuMs + (m.dbCpuMs ?? 0))),
      f0(r.probe.bytes),
      (verdict?.text ?? '') + scale,
    ];
  });
}

const HEADER = ['Route', 'Req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'non-2xx', 'RSS MB', 'srv CPU ms/req', 'db CPU ms/req', 'CPU ceiling req/s', 'Body B', 'Target'];

export function consoleTable(report: Report): string {
  const all = [HEADER, ...rows(report)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((row) => (i === HEADER.length - 1 ? 0 : row[i]!.length))));
  return all.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : i === row.length - 1 ? cell : cell.padStart(widths[i]!))).join('  ')).join('\n');
}

/** Overall lines: RSS and the scale check, each with PASS/MISS. */
export function summary(report: Report): string[] {
  const rss = Math.max(0, ...report.results.filter((r) => r.kind !== 'baseline').map((r) => r.rssMb ?? 0));
  const lines = [
    `Server RSS max ${f0(rss)} MB: ${rss < TARGETS.rssMb ? 'PASS' : `MISS (${f0(rss - TARGETS.rssMb)} MB over ${TARGETS.rssMb} MB)`}` +
      (report.postgres ? '' : ' (the target is for PostgreSQL; PGlite runs the database inside the server process)'),
  ];
  if (report.smallP99) {
    const worse = report.results.flatMap((r) => {
      const small = report.smallP99!.get(r.name);
      const m = r.measurement;
      return m && small && r.kind !== 'baseline' && m.p99 > TARGETS.scaleP99 * small ? [`${r.name} ${f1(m.p99 / small)}x`] : [];
    });
    lines.push(`Large vs small catalog p99 within ${TARGETS.scaleP99}x: ${worse.length === 0 ? 'PASS' : `MISS (${worse.join(', ')})`}`);
  }
  const missing = report.results.filter((r) => r.probe.status !== 'ok');
  for (const r of missing) lines.push(`${r.name}: ${r.probe.status} (${r.probe.detail})`);
  return lines;
}

const cell = (s: string) => s.replaceAll('|', '\\|');

export function markdown(report: Report): string {
  const table = [HEADER, HEADER.map(() => '---'), ...rows(report)].map((row) => `| ${row.map(cell).join(' | ')} |`);
  return [
    `# ${report.title}`,
    '',
    `Command: \`${report.command}\``,
    '',
    `Machine: ${report.machine}`,
    '',
    ...report.setup.map((line) => `- ${line}`),
    '',
    ...table,
    '',
    ...summary(report).map((line) => `- ${line}`),
    '',
  ].join('\n');
}
