import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { appStoreCredentials, appStoreProducts } from '../db/schema.ts';

export type StoreProductRow = typeof appStoreProducts.$inferSelect;

/** Subscription and PPV SKUs of the app, each list in its configured order. */
export async function storeProductsOf(db: Queryable, appId: number): Promise<StoreProductRow[]> {
  return db
    .select()
    .from(appStoreProducts)
    .where(eq(appStoreProducts.appId, appId))
    .orderBy(asc(appStoreProducts.kind), asc(appStoreProducts.position));
}

/** Stores ('apple', 'google'...) that have verification credentials configured for the app. */
export async function configuredStores(db: Queryable, appId: number): Promise<Set<string>> {
  const rows = await db.select({ store: appStoreCredentials.store }).from(appStoreCredentials).where(eq(appStoreCredentials.appId, appId));
  return new Set(rows.map((r) => r.store));
}
