// The store notification inbox and the reconciliation marks (schema: storeNotifications,
// storeReconciliations). Only src/entitlements/notifications decides what goes in and out.
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { appStoreCredentials, apps, storeNotifications, storeReconciliations } from '../db/schema.ts';
import type { App } from './apps.ts';

export type NotificationRow = typeof storeNotifications.$inferSelect;
type Store = NotificationRow['storePlatform'];

export interface NewNotification {
  storePlatform: Store;
  notificationId: string;
  appId: number;
  type: string;
  eventAt: Date;
  payload: unknown;
}

export async function findApp(db: Queryable, appId: number): Promise<App | undefined> {
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  return app;
}

/** Stores the notification, due at once; false when the store's id is already in the inbox (a repeat). */
export async function enqueueNotification(db: Queryable, n: NewNotification, now: Date): Promise<boolean> {
  const rows = await db
    .insert(storeNotifications)
    .values({ ...n, receivedAt: now, nextAttemptAt: now, state: 'pending' })
    .onConflictDoNothing({ target: [storeNotifications.storePlatform, storeNotifications.notificationId] })
    .returning({ id: storeNotifications.id });
  return rows.length > 0;
}

/**
 * Keeps a mark that needs no applying (state `ignored`, no payload), such as "Roku was sent its
 * acknowledgement for this event": true for the one caller that writes it first, in every process.
 */
export async function markOnce(db: Queryable, mark: Omit<NewNotification, 'payload'> & { result: string }, now: Date): Promise<boolean> {
  const rows = await db
    .insert(storeNotifications)
    .values({ ...mark, payload: {}, receivedAt: now, nextAttemptAt: now, appliedAt: now, state: 'ignored' })
    .onConflictDoNothing({ target: [storeNotifications.storePlatform, storeNotifications.notificationId] })
    .returning({ id: storeNotifications.id });
  return rows.length > 0;
}

/**
 * Takes up to `limit` due notifications, oldest event first, and moves their next attempt
 * `leaseMs` ahead: another worker (or this one after a crash) takes them again only once the
 * lease has run out. SKIP LOCKED lets several instances claim at once without waiting.
 */
export async function claimDueNotifications(db: Queryable, now: Date, leaseMs: number, limit: number): Promise<NotificationRow[]> {
  const due = db
    .select({ id: storeNotifications.id })
    .from(storeNotifications)
    .where(and(eq(storeNotifications.state, 'pending'), lte(storeNotifications.nextAttemptAt, now)))
    .orderBy(asc(storeNotifications.eventAt), asc(storeNotifications.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(storeNotifications)
    .set({ attempts: sql`${storeNotifications.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(inArray(storeNotifications.id, due))
    .returning();
}

export interface Outcome {
  state: Exclude<NotificationRow['state'], 'pending'>;
  result: string;
  /** A refused notification keeps no payload: only what proves it was refused. */
  dropPayload?: boolean;
}

/**
 * Marks a claimed notification done. The claim is identified by its attempt count, so a
 * worker whose lease ran out and was overtaken changes nothing (false: roll back).
 */
export async function finishNotification(db: Queryable, claimed: Pick<NotificationRow, 'id' | 'attempts'>, outcome: Outcome, now: Date): Promise<boolean> {
  const rows = await db
    .update(storeNotifications)
    .set({ state: outcome.state, result: outcome.result, appliedAt: now, ...(outcome.dropPayload ? { payload: {} } : {}) })
    .where(and(eq(storeNotifications.id, claimed.id), eq(storeNotifications.attempts, claimed.attempts), eq(storeNotifications.state, 'pending')))
    .returning({ id: storeNotifications.id });
  return rows.length > 0;
}

/** Leaves a claimed notification pending, to be tried again at `nextAttemptAt`. */
export async function postponeNotification(db: Queryable, claimed: Pick<NotificationRow, 'id' | 'attempts'>, nextAttemptAt: Date, result: string): Promise<void> {
  await db
    .update(storeNotifications)
    .set({ nextAttemptAt, result })
    .where(and(eq(storeNotifications.id, claimed.id), eq(storeNotifications.attempts, claimed.attempts), eq(storeNotifications.state, 'pending')));
}

/** The earliest next attempt of a pending notification, to know when to look again. */
export async function nextDueAt(db: Queryable): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${storeNotifications.nextAttemptAt})` })
    .from(storeNotifications)
    .where(eq(storeNotifications.state, 'pending'));
  return row?.at ? new Date(row.at) : undefined;
}

export async function reconciledTo(db: Queryable, appId: number, store: Store): Promise<Date | undefined> {
  const [row] = await db
    .select({ readTo: storeReconciliations.readTo })
    .from(storeReconciliations)
    .where(and(eq(storeReconciliations.appId, appId), eq(storeReconciliations.storePlatform, store)));
  return row?.readTo;
}

export async function markReconciled(db: Queryable, appId: number, store: Store, readTo: Date): Promise<void> {
  await db
    .insert(storeReconciliations)
    .values({ appId, storePlatform: store, readTo })
    .onConflictDoUpdate({ target: [storeReconciliations.appId, storeReconciliations.storePlatform], set: { readTo } });
}

/** The apps with credentials for a store, with those credentials (reconciliation reads each app's history). */
export async function appsWithCredentials(db: Queryable, store: (typeof appStoreCredentials.$inferSelect)['store']) {
  return db
    .select({ appId: appStoreCredentials.appId, credentials: appStoreCredentials.credentials })
    .from(appStoreCredentials)
    .where(eq(appStoreCredentials.store, store))
    .orderBy(asc(appStoreCredentials.appId));
}
