// npm run bench:notifications -- [--n 200] [--url postgres://postgres@127.0.0.1:5432/]
// How long a store notification takes to reach an entitlement, in-process (Fastify inject): Apple
// REFUND notifications, signed by a test chain as Apple signs them, for subscriptions devices hold.
// Reports the acknowledgement (verify + inbox write) and the time until the worker has applied it,
// one at a time and as a burst of n at once.
import { writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { importCatalog } from '../src/catalog/import.ts';
import { openDatabase } from '../src/db/connect.ts';
import { storeNotifications, subscriptions } from '../src/db/schema.ts';
import { smallCatalog } from '../test/fixtures/catalog.ts';
import { makeTestChain, signAppleJws } from '../test/stores/support/apple-pki.ts';
import { createBenchDatabase } from './load.ts';

const { values: args } = parseArgs({ options: { n: { type: 'string', default: '200' }, url: { type: 'string' } } });
const n = Number(args.n);
const now = new Date();
const chain = makeTestChain('Bench');
const dir = await mkdtemp(path.join(os.tmpdir(), 'cn-notify-'));
await writeFile(path.join(dir, 'root.cer'), chain.rootDer);
const catalog: any = smallCatalog();
catalog.apps.find((a: any) => a.id === 301).storeCredentials.apple.appAppleId = 1;
const target = args.url ? { databaseUrl: await createBenchDatabase(args.url) } : { dataDir: path.join(dir, 'data') };
const database = await openDatabase(target);
await database.migrate();
const imported = await importCatalog(database.db, catalog, { replace: false, now });
if (!imported.ok) throw new Error(imported.errors.join('\n'));
await database.db.insert(subscriptions).values(
  Array.from({ length: 2 * n }, (_, i) => ({
    appId: 301,
    deviceId: `dev-${i}`,
    storePlatform: 'Apple' as const,
    productId: 'com.alice.monthly',
    originalTransactionId: `tx-${i}`,
    status: 'active',
    expiresAt: new Date(now.getTime() + 30 * 86_400_000),
    updatedAt: now,
    autoRenewing: true,
  })),
);
const app = await buildApp({
  database,
  config: { LOG_LEVEL: 'silent', RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, APPLE_ROOT_CERTIFICATES: path.join(dir, 'root.cer'), STORE_NOTIFICATION_POLL_MS: 0 },
});
await app.ready();

const refund = (i: number) => {
  const tx = {
    transactionId: `t-${i}`,
    originalTransactionId: `tx-${i}`,
    bundleId: 'com.alice',
    productId: 'com.alice.monthly',
    type: 'Auto-Renewable Subscription',
    purchaseDate: now.getTime() - 86_400_000,
    expiresDate: now.getTime() + 30 * 86_400_000,
    signedDate: now.getTime(),
    environment: 'Production',
    revocationDate: now.getTime(),
    revocationReason: 0,
  };
  const signedPayload = signAppleJws(chain, {
    notificationType: 'REFUND',
    notificationUUID: `bench-${i}`,
    version: '2.0',
    signedDate: now.getTime(),
    data: { appAppleId: 1, bundleId: 'com.alice', environment: 'Production', status: 5, signedTransactionInfo: signAppleJws(chain, tx) },
  });
  return JSON.stringify({ signedPayload });
};
const post = (i: number) => app.inject({ method: 'POST', url: '/api/v1/stores/apple/301', payload: refund(i), headers: { 'content-type': 'application/json' } });
const revoked = async (i: number) =>
  (
    await database.db
      .select({ s: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.originalTransactionId, `tx-${i}`))
  )[0]?.s === 'revoked';
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

// One at a time: acknowledgement, then until applied.
const acked: number[] = [];
const applied: number[] = [];
for (let i = 0; i < n; i++) {
  const started = performance.now();
  const r = await post(i);
  acked.push(performance.now() - started);
  if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
  await app.storeNotifications.inbox.idle();
  applied.push(performance.now() - started);
  if (!(await revoked(i))) throw new Error(`tx-${i} not revoked`);
}
// A burst: n notifications at once, until every one is applied.
const burstStart = performance.now();
await Promise.all(Array.from({ length: n }, (_, i) => post(n + i)));
const burstAcked = performance.now() - burstStart;
await app.storeNotifications.inbox.idle();
const burstApplied = performance.now() - burstStart;
const states = await database.db.select({ state: storeNotifications.state }).from(storeNotifications);
if (states.length !== 2 * n || states.some((s) => s.state !== 'applied')) throw new Error('not every notification was applied');

acked.sort((a, b) => a - b);
applied.sort((a, b) => a - b);
const kind = args.url ? 'PostgreSQL' : 'PGlite';
process.stdout.write(`Store notifications, ${kind}, ${n} Apple REFUND notifications (${os.cpus().length} cores, ${now.toISOString().slice(0, 10)})

| measure | median ms | p95 ms |
|---|---|---|
| acknowledged (verified, in the inbox), one at a time | ${percentile(acked, 0.5).toFixed(1)} | ${percentile(acked, 0.95).toFixed(1)} |
| applied (entitlement revoked), one at a time | ${percentile(applied, 0.5).toFixed(1)} | ${percentile(applied, 0.95).toFixed(1)} |

Burst of ${n} at once: all acknowledged in ${burstAcked.toFixed(0)} ms, all applied in ${burstApplied.toFixed(0)} ms (${(n / (burstApplied / 1000)).toFixed(0)} notifications/s).
`);
await app.close();
await database.close();
