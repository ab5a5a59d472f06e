import { and, asc, eq } from 'drizzle-orm';
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

/** The app's active SKUs of one kind sold on one store, in configured order. */
export function activeSkus(products: readonly StoreProductRow[], kind: StoreProductRow['kind'], store: StoreProductRow['storePlatform']): StoreProductRow[] {
  return products.filter((p) => p.kind === kind && p.storePlatform === store && p.isActive);
}

/** The product ids of the app's active SKUs of one kind, per store, from one read. */
export async function activeSkuIds(db: Queryable, appId: number, kind: StoreProductRow['kind']): Promise<(store: StoreProductRow['storePlatform']) => string[]> {
  const products = await storeProductsOf(db, appId);
  return (store) => activeSkus(products, kind, store).map((p) => p.productId);
}

export type StoreCredentialsRow = typeof appStoreCredentials.$inferSelect;

/** The app's verification credentials for one store ('apple'...); empty when none are configured. */
export async function storeCredentialsOf(db: Queryable, appId: number, store: StoreCredentialsRow['store']): Promise<StoreCredentialsRow['credentials']> {
  const [row] = await db
    .select({ credentials: appStoreCredentials.credentials })
    .from(appStoreCredentials)
    .where(and(eq(appStoreCredentials.appId, appId), eq(appStoreCredentials.store, store)));
  return row?.credentials ?? {};
}
