// An app on a fresh database loaded with a catalog, driven through Fastify's inject.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { allowStoredOrigins } from '../../src/catalog/fields.ts';
import { importCatalog } from '../../src/catalog/import.ts';
import type { Clock } from '../../src/clock.ts';
import type { Config } from '../../src/config.ts';
import type { DatabaseKind } from '../../src/db/connect.ts';
import { buildApp } from '../../src/app.ts';
import { freshDatabase, type TestDatabase } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  /** inject with X-Test-Now set to `now` unless the options set it. */
  request(options: InjectOptions & { now?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const TEST_NOW = '2026-11-21T15:00:00Z';

export async function testApp(kind: DatabaseKind, catalog: unknown, config: Partial<Config> = {}, clock?: Clock): Promise<TestApp> {
  const database = await freshDatabase(kind);
  // The catalog is imported as the app will hold it: with the operator's allowed origins (as the CLI's import has).
  allowStoredOrigins(config.MEDIA_FETCH_ALLOW_ORIGINS ?? []);
  const result = await importCatalog(database.db, catalog, { replace: false, now: new Date(TEST_NOW) });
  if (!result.ok) throw new Error(`test catalog invalid:\n${result.errors.join('\n')}`);
  // No background polling of the notification inbox, no guide warming on the real clock: tests drive them when they mean to.
  const defaults = {
    CHANNELNET_TEST_CLOCK: true,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: false,
    MAX_EVENT_LOOP_DELAY_MS: 0,
    STORE_NOTIFICATION_POLL_MS: 0,
    GUIDE_WARM_DAYS: 0,
  } as const;
  const app = await buildApp({ database, config: { ...defaults, ...config }, ...(clock ? { clock } : {}) });
  return {
    app,
    database,
    request: ({ now, ...options }) => app.inject({ ...options, headers: { 'x-test-now': now ?? TEST_NOW, ...options.headers } }),
    async close() {
      await app.close();
      await database.close().catch(() => undefined);
    },
  };
}
