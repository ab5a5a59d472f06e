// The fuzz suites' world: one app on one fresh database per backend, shared by every run (runs
// are independent requests, so sharing keeps the suite fast), with stores that never reach the
// internet, real tokens to put in headers, and a snapshot of the database to prove that a
// rejected request wrote nothing.
import { sql } from 'drizzle-orm';
import type fc from 'fast-check';
import { expect } from 'vitest';
import { hashEpgKey } from '../../src/access/epg-keys.ts';
import { issueToken, REST_TOKEN_SLIDING_SECONDS, revoke } from '../../src/access/tokens.ts';
import { insertEpgKey } from '../../src/data/epg-keys.ts';
import type { Config } from '../../src/config.ts';
import type { DatabaseKind, Queryable } from '../../src/db/connect.ts';
import { APP_TOKEN, OWNER, VIEWER } from '../fixtures/catalog.ts';
import { startStoreServer, type StoreServer } from '../stores/support/server.ts';
import { TEST_NOW, type TestApp } from '../support/app.ts';
import { customTestApp } from '../support/custom.ts';
import { FUZZ_EPG_KEY } from './routes.ts';

/**
 * Every fuzz property runs with this seed: a failure is reproduced by running the suite again.
 * FUZZ_SEED overrides it for a local hunt with other requests (CI never sets it).
 */
export const FUZZ_SEED = Number.isInteger(Number(process.env.FUZZ_SEED)) && process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261121;

/**
 * Runs per property: FUZZ_RUNS overrides (a longer local hunt: FUZZ_RUNS=5000); PostgreSQL gets
 * a quarter of PGlite's, since the same code runs there and CI time is shared.
 */
export function fuzzRuns(kind: DatabaseKind, pglite: number): number {
  const override = Number(process.env.FUZZ_RUNS);
  const runs = Number.isInteger(override) && override > 0 ? override : pglite;
  return kind === 'postgres' ? Math.max(10, Math.ceil(runs / 4)) : runs;
}

/**
 * fast-check parameters shared by every property: fixed seed, bounded runs, and a short report
 * (the shrunk run as property.ts describes it, with previews instead of megabyte-long values).
 */
export function fuzzParameters<T>(kind: DatabaseKind, pglite: number): fc.Parameters<[T]> {
  return {
    seed: FUZZ_SEED,
    numRuns: fuzzRuns(kind, pglite),
    asyncReporter: async (details) => {
      if (!details.failed) return;
      const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(
        `Property failed after ${details.numRuns} run(s), shrunk ${details.numShrinks} time(s) ` +
          `(replay: { seed: ${details.seed}, path: "${details.counterexamplePath}" }):\n${cause}`,
      );
    },
  };
}

/** Accounts of the Custom catalog a fresh token may belong to (14 is locked, 15 not activated). */
export const TOKEN_ACCOUNTS = [11, 12, 13, 14, 15, 16, 17] as const;

/**
 * The tables requests write (viewer state, tokens, purchases, activity): snapshotted around
 * every rejected request. Left out by design:
 * - login_throttles: a failed login (REST or Custom, 401/403/429) and a wrong channel password
 *   (getChannelToken, 403) are counted there, per account and per address, so that guessing is
 *   slow; counting a failure is the point of a failed attempt.
 * - the `refused` rows of verification_attempts: a subscription or PPV verify that the rules
 *   refuse (422, e.g. a product id the app does not sell) is recorded for support by design
 *   (src/entitlements/); any other row appearing on a rejected request is a failure.
 * Rate-limit counters live in memory (and limits are off in these runs anyway).
 */
export const STATE_TABLES = [
  'accounts',
  'auth_tokens',
  'favorites',
  'channel_unlocks',
  'subscriptions',
  'ppv_unlocks',
  'verification_attempts',
  'activity_events',
  'watch_sessions',
  'viewer_live_links',
] as const;
const EXCLUDED_TABLES = new Set(['login_throttles']);
const ROW_FILTERS: Record<string, string> = {
  verification_attempts: `where t.outcome <> 'refused'`,
  // An app token revoked through logout (anyone holding one may, as the spec asks) is recorded in
  // its owner's audit by design (docs/security.md: Tokens); any other audit row is the catalog's.
  studio_audit: `where not (t.action = 'delete' and t.resource like 'app-tokens/%' and t.fields = '["revokedAt"]'::jsonb)`,
};

export interface Snapshot {
  /** table name -> `count:md5` of its rows as text, in a stable order. */
  tables: Record<string, string>;
}

export interface FuzzWorld {
  kind: DatabaseKind;
  t: TestApp;
  store: StoreServer;
  /** Logged in through the REST and Custom login routes at start; fuzzed logouts may revoke them later. */
  loginTokens: string[];
  /** Issued and revoked at start. */
  revokedToken: string;
  /** A new live token of the account, issued outside any snapshot window. */
  freshToken(accountId: number): Promise<string>;
  /** The state tables (STATE_TABLES): cheap enough to take around every request. */
  snapshot(): Promise<Snapshot>;
  /** Every other table (the catalog): no request of any kind may change it; compared once per property. */
  catalogSnapshot(): Promise<Snapshot>;
  close(): Promise<void>;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

async function tableNames(db: Queryable): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`),
  );
  return rows.map((r) => r.name).filter((name) => !EXCLUDED_TABLES.has(name));
}

function snapshotQuery(tables: readonly string[]): string {
  return tables
    .map((name) => {
      const filter = ROW_FILTERS[name] ?? '';
      return `select '${name}' as name, count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from "${name}" t ${filter}`;
    })
    .join(' union all ');
}

export async function buildWorld(kind: DatabaseKind, config: Partial<Config> = {}): Promise<FuzzWorld> {
  // Every store answers "not found": a verify that passes validation gets a store verdict (ok
  // false), never a call to a real store, and no store outage is simulated.
  const store = await startStoreServer();
  store.reply = () => ({ status: 404, text: 'Not found' });
  const storeUrls: Partial<Config> = {
    STORE_APPLE_API_URL: store.url,
    STORE_APPLE_SANDBOX_API_URL: store.url,
    STORE_APPLE_VERIFY_RECEIPT_URL: `${store.url}/verifyReceipt`,
    STORE_APPLE_VERIFY_RECEIPT_SANDBOX_URL: `${store.url}/sandbox/verifyReceipt`,
    STORE_GOOGLE_API_URL: store.url,
    STORE_GOOGLE_TOKEN_URL: `${store.url}/token`,
    STORE_AMAZON_URL: store.url,
    STORE_AMAZON_SANDBOX_URL: `${store.url}/sandbox`,
    STORE_ROKU_URL: store.url,
    STORE_TIMEOUT_MS: 2_000,
  };
  // Rate limits off: thousands of requests come from one address. Load shedding off (0): a
  // loaded CI machine must not turn runs into 503s, which the properties do not allow.
  const t = await customTestApp(kind, { ...storeUrls, RATE_LIMIT_ENABLED: false, MAX_EVENT_LOOP_DELAY_MS: 0, LOG_LEVEL: 'silent', ...config });
  const { db } = t.database;

  const restLogin = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: OWNER.username, password: OWNER.password } });
  expect(restLogin.statusCode).toBe(200);
  const customLogin = await t.request({ method: 'POST', url: '/api/v1/services/custom/auth/login', payload: { email: VIEWER.email, password: VIEWER.password } });
  expect(customLogin.statusCode).toBe(200);
  const loginTokens = [restLogin.json().data.authToken as string, customLogin.json().data.access_token as string, APP_TOKEN];
  // A token's first use in a while is recorded (last use, a sliding expiry), by any request it
  // authenticates, including one then refused for its body (tokens are checked before the body is
  // read). Used once here, at the runs' fixed clock, no run records a use again.
  for (const token of loginTokens) {
    const used = await t.request({ method: 'GET', url: '/api/v1/rest/channels', headers: { authorization: `Bearer ${token}` } });
    expect(used.statusCode).toBe(200);
  }

  const now = new Date(TEST_NOW);
  // A live guide key of alice's mobile app: the fuzzer reaches the public guide, not only its 404.
  await insertEpgKey(db, { appId: 301, keyHash: hashEpgKey(FUZZ_EPG_KEY), createdAt: now });
  const revokedToken = await issueToken(db, OWNER.id, { kind: 'sliding', seconds: REST_TOKEN_SLIDING_SECONDS }, now);
  await revoke(db, revokedToken, now, undefined);

  const tables = await tableNames(db);
  const missing = STATE_TABLES.filter((name) => !tables.includes(name));
  if (missing.length > 0) throw new Error(`state tables missing from the schema: ${missing.join(', ')}`);
  const stateQuery = snapshotQuery(STATE_TABLES);
  const catalogQuery = snapshotQuery(tables.filter((name) => !(STATE_TABLES as readonly string[]).includes(name)));
  const take = async (query: string): Promise<Snapshot> => {
    const rows = rowsOf<{ name: string; sum: string }>(await db.execute(sql.raw(query)));
    return { tables: Object.fromEntries(rows.map((r) => [r.name, r.sum])) };
  };
  return {
    kind,
    t,
    store,
    loginTokens,
    revokedToken,
    freshToken: (accountId) => issueToken(db, accountId, { kind: 'sliding', seconds: REST_TOKEN_SLIDING_SECONDS }, now),
    snapshot: () => take(stateQuery),
    catalogSnapshot: () => take(catalogQuery),
    async close() {
      await t.close();
      await store.close();
    },
  };
}

/** Tables whose rows differ between two snapshots. */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names].filter((name) => before.tables[name] !== after.tables[name]).sort();
}
