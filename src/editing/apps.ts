// An owner's apps, one per platform: read, create or replace whole (PUT), delete. The body is
// the catalog's app entry; it is checked by the catalog import's rules (theme per platform,
// mobile fields, images, products, channel assignments naming the owner's own channels) and
// written by the import's writers, which replace the app's row and all its children.
//
// Decisions:
// - The app's id stays while it is replaced (subscriptions and PPV unlocks of viewers hang on
//   it); a body naming another id for an existing app is refused. A new app gets the next id,
//   or the body's id when no one holds it.
// - `storeCredentials` are write-only: answers carry `configuredStores` (the stores that have
//   credentials) instead. A PUT without storeCredentials keeps the stored ones; a PUT with them
//   replaces them all (`{}` clears them). `configuredStores` sent back is ignored. The ETag is
//   a digest of the answer, never of secrets: a change of credential values alone (the same
//   stores) leaves it as it was. `credentialFields` says per store which keys are set: a
//   non-secret key (Bundle ID, package name...) with its value, a secret one (a private key, a
//   shared secret, an API key; and any key the forms do not name) only as `true`.
// - `credentialChanges` (Studio only, issue 36 item 6) changes keys one by one: a string sets a
//   key, null removes it, a store null removes all its keys; stores and keys not named are kept,
//   so a form of one store never needs the others' secrets again.
// - A PUT without createdAt keeps the app's creation time (a new app: now).
// - DELETE is refused (409 in_use) while purchases of viewers are recorded against the app:
//   the database would delete them with it (ON DELETE CASCADE), and they are records of what
//   viewers paid for that the service cannot rebuild. The app can still be replaced with PUT.
//   Deleting an app keeps the account an owner, even when it was its last app.
// - An app is owner-level data (app_settings, the channel lists of each platform), so a change
//   tells the caches that anything of the owner may have changed.
import type { Database, Queryable } from '../db/connect.ts';
import { appEntitlementCounts, appImageBlobs, deleteAppRow, keepOwner, ownerAppId, ownerApps } from '../data/studio-apps.ts';
import { claimNewRows } from '../data/studio-slice.ts';
import { BlobReader, exportApps } from '../catalog/export.ts';
import { writeRows } from '../catalog/import.ts';
import { catalogToRows } from '../catalog/to-rows.ts';
import {
  APP_PLATFORMS,
  CREDENTIAL_STORES,
  IMAGE_ROLES,
  PLATFORM_STORES,
  STORE_CREDENTIAL_FIELDS,
  STORE_PLATFORMS,
  type AppPlatform,
  type CredentialStore,
  type StoreCredentialField,
} from '../vocabulary.ts';
import { assertMatches, etagOf } from './etag.ts';
import { owned, withIds, type Body } from './entities.ts';
import { EditRefusal, invalid, notFound } from './refusals.ts';
import { validateSlice } from './validate.ts';
import { changedFields, write, type Editor, type Written } from './write.ts';

export type AppEntry = Awaited<ReturnType<typeof exportApps>>[number];

/** A resource as read: what is answered and its entity tag. */
export interface Versioned<T> {
  body: T;
  etag: string;
}

const versioned = <T>(body: T): Versioned<T> => ({ body, etag: etagOf(body) });

/** The app as the Studio answers it: its catalog entry, the credentials replaced by the stores that have them. */
export function appResource(entry: AppEntry) {
  const images = entry.images ?? {};
  const credentials = entry.storeCredentials ?? {};
  return {
    id: entry.id,
    ownerId: entry.ownerId,
    platform: entry.platform,
    appName: entry.appName,
    slug: entry.slug ?? null,
    about: entry.about ?? null,
    privacyPolicyLink: entry.privacyPolicyLink ?? null,
    isPaid: entry.isPaid ?? false,
    timeFormat: entry.timeFormat ?? '12-hour',
    adLink: entry.adLink ?? null,
    apiKey: entry.apiKey ?? null,
    theme: entry.theme ?? null,
    mobile: entry.mobile ?? null,
    images: Object.fromEntries(IMAGE_ROLES.filter((role) => images[role] !== undefined).map((role) => [role, images[role]!])),
    storeProducts: entry.storeProducts ?? [],
    vodPpv: entry.vodPpv!,
    configuredStores: CREDENTIAL_STORES.filter((store) => credentials[store] !== undefined),
    credentialFields: credentialFieldsOf(credentials),
    channels: entry.channels ?? [],
    createdAt: entry.createdAt!,
  };
}

export type AppResource = ReturnType<typeof appResource>;

const fieldOf = (store: CredentialStore, key: string): StoreCredentialField | undefined =>
  (STORE_CREDENTIAL_FIELDS[store] as readonly StoreCredentialField[]).find((f) => f.key === key);

/** Per configured store, its keys that are set: a non-secret one with its value, a secret one as `true`. */
function credentialFieldsOf(credentials: Partial<Record<CredentialStore, Record<string, unknown>>>): Partial<Record<CredentialStore, Record<string, string | true>>> {
  return Object.fromEntries(
    CREDENTIAL_STORES.filter((store) => credentials[store] !== undefined).map((store) => [
      store,
      Object.fromEntries(
        Object.entries(credentials[store]!).map(([key, value]) => {
          const field = fieldOf(store, key);
          return [key, field && !field.secret && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') ? String(value) : true];
        }),
      ),
    ]),
  );
}

/** Changes of single credential keys (a string sets, null removes; a store null removes the store). */
export type CredentialChanges = Partial<Record<CredentialStore, Record<string, string | null> | null>>;

function applyCredentialChanges(credentials: Record<string, unknown>, changes: CredentialChanges | undefined): Record<string, unknown> {
  if (!changes) return credentials;
  const next: Record<string, unknown> = { ...credentials };
  for (const store of CREDENTIAL_STORES) {
    const change = changes[store];
    if (change === undefined) continue;
    if (change === null) {
      delete next[store];
      continue;
    }
    const keys: Record<string, unknown> = { ...((next[store] ?? {}) as Record<string, unknown>) };
    for (const [key, value] of Object.entries(change)) {
      if (value === null) delete keys[key];
      else keys[key] = value;
    }
    if (Object.keys(keys).length === 0) delete next[store];
    else next[store] = keys;
  }
  return next;
}

/** A platform of the vocabulary, or 404 as for an app that is not there. */
function appPlatform(platform: string): AppPlatform {
  if (!(APP_PLATFORMS as readonly string[]).includes(platform)) throw notFound('App');
  return platform as AppPlatform;
}

/** The catalog entries of the owner's apps `appIds` (all of them when left out), by id. */
async function appEntries(db: Queryable, ownerId: number, appIds?: readonly number[]): Promise<AppEntry[]> {
  const ids = appIds ?? (await ownerApps(db, ownerId)).map((a) => a.id);
  if (ids.length === 0) return [];
  const blobs = BlobReader.of(await appImageBlobs(db, ids));
  return exportApps(db, blobs, { ownerId, appIds: ids });
}

/** The owner's app of `platform` as a catalog entry (credentials included), if there is one. */
async function currentEntry(db: Queryable, ownerId: number, platform: AppPlatform): Promise<AppEntry | undefined> {
  const id = await ownerAppId(db, ownerId, platform);
  if (id === undefined) return undefined;
  const [entry] = await appEntries(db, ownerId, [id]);
  return entry;
}

export async function readApps(db: Queryable, ownerId: number): Promise<Versioned<{ items: AppResource[] }>> {
  return versioned({ items: (await appEntries(db, ownerId)).map(appResource) });
}

export async function readApp(db: Queryable, ownerId: number, platform: string): Promise<Versioned<AppResource>> {
  const entry = await currentEntry(db, ownerId, appPlatform(platform));
  if (!entry) throw notFound('App');
  return versioned(appResource(entry));
}

/** Fields an app body may carry that the service answers but never takes. */
const READ_ONLY = ['configuredStores', 'credentialFields', 'credentialChanges'];

/** Creates (201) or replaces (200) the owner's app of `platform` with the body's entry. */
export async function putApp(db: Database, editor: Editor, platform: string, body: Body, ifMatch: string | undefined): Promise<Written<AppResource>> {
  const known = appPlatform(platform);
  return write(db, editor, async (tx) => {
    const current = await currentEntry(tx, editor.ownerId, known);
    if (current) assertMatches(ifMatch, appResource(current));
    else if (ifMatch !== undefined) throw new EditRefusal('precondition_failed', `You have no ${known} app, so If-Match names none of its versions.`);
    const problems: string[] = [];
    if (body['platform'] !== undefined && body['platform'] !== known) problems.push(`platform: must be ${JSON.stringify(known)} (the path's) or left out`);
    if (current && body['id'] !== undefined && body['id'] !== current.id) problems.push(`id: must be ${current.id} (your ${known} app's) or left out`);
    if (problems.length > 0) throw invalid(problems);
    const fields = Object.fromEntries(Object.entries(owned(body, editor.ownerId)).filter(([key]) => !READ_ONLY.includes(key)));
    const entry: Body = {
      ...fields,
      platform: known,
      storeCredentials: applyCredentialChanges(
        (body['storeCredentials'] !== undefined ? body['storeCredentials'] : (current?.storeCredentials ?? {})) as Record<string, unknown>,
        body['credentialChanges'] as CredentialChanges | undefined,
      ),
      ...(body['createdAt'] === undefined && current ? { createdAt: current.createdAt } : {}),
    };
    const [complete] = current ? [{ ...entry, id: current.id }] : await withIds(tx, 'apps', [entry]);
    const catalog = await validateSlice(tx, editor.ownerId, { apps: [complete as never] }, 'apps[0]');
    // Only what this save starts selling is refused: an app imported selling without credentials
    // (a catalog from before) can still be edited, and shows which stores lack them (configuredStores).
    const already = new Set(current ? storesWithoutCredentials(current).map((u) => u.key) : []);
    const unsold = storesWithoutCredentials(catalog.apps[0]!).filter((u) => !already.has(u.key));
    if (unsold.length > 0) throw invalid(unsold.map((u) => u.line));
    const rows = await catalogToRows(catalog, editor.now);
    // A new app's id is claimed with a plain insert: one another write took since the check
    // fails (409) rather than being overwritten by the writer's upsert.
    if (!current) await claimNewRows(tx, { categories: [], languages: [], videos: [], channels: [], apps: rows.apps });
    await writeRows(tx, rows, editor.now);
    const after = (await currentEntry(tx, editor.ownerId, known))!;
    const resource = appResource(after);
    const changed = current ? changedFields(current, after) : Object.keys(after).sort();
    return {
      written: { status: current ? 200 : 201, body: resource, etag: etagOf(resource) },
      changes: changed.length === 0 ? [] : [{ action: current ? 'update' : 'create', resource: `apps/${known}`, fields: changed }],
    };
  });
}

/**
 * `path: message` lines for each store the app sells on without the credentials its purchases are
 * verified with (docs/studio.md): an active product of a paid app or of enabled pay-per-view, and a
 * paid app's own store (a Roku app sells on Roku; a mobile app on Apple or Google, either will do)
 * even before it has products. Viewers would pay and get nothing. Each line names the missing
 * fields as the store names them (vocabulary.ts STORE_CREDENTIAL_FIELDS). A product not active, or
 * of an app not selling, is not asked.
 */
function storesWithoutCredentials(entry: Body): Array<{ key: string; line: string }> {
  const credentials = (entry['storeCredentials'] ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const missing = (store: CredentialStore) =>
    (STORE_CREDENTIAL_FIELDS[store] as readonly StoreCredentialField[]).filter((f) => f.required && !present(credentials[store]?.[f.key])).map((f) => f.label);
  const words = (store: CredentialStore, lacking: string[]) => {
    const name = STORE_PLATFORMS[CREDENTIAL_STORES.indexOf(store)]!;
    return credentials[store] === undefined
      ? `has no ${name} store credentials: add its ${listed(lacking)} (storeCredentials.${store})`
      : `its ${name} store credentials lack the ${listed(lacking)}: add ${lacking.length === 1 ? 'it' : 'them'} (storeCredentials.${store})`;
  };
  const vodPpv = (entry['vodPpv'] ?? {}) as { isEnabled?: unknown; storeProducts?: unknown };
  const selling: Array<[string, unknown]> = [
    ...(entry['isPaid'] === true ? [['storeProducts', entry['storeProducts']] as [string, unknown]] : []),
    ...(vodPpv.isEnabled === true ? [['vodPpv.storeProducts', vodPpv.storeProducts] as [string, unknown]] : []),
  ];
  const lines = selling.flatMap(([path, products]) =>
    (Array.isArray(products) ? products : []).flatMap((product: unknown, i) => {
      const p = product as { storePlatform?: unknown; isActive?: unknown; productId?: unknown };
      if (p.isActive === false || typeof p.storePlatform !== 'string') return [];
      const store = p.storePlatform.toLowerCase() as CredentialStore;
      if (!(CREDENTIAL_STORES as readonly string[]).includes(store)) return [];
      const lacking = missing(store);
      if (lacking.length === 0) return [];
      return [
        {
          key: `${path}|${store}|${String(p.productId)}`,
          line: `${path}[${i}].storePlatform: the app sells this product on ${p.storePlatform}, but ${words(store, lacking)} or mark the product inactive`,
        },
      ];
    }),
  );
  // A paid app sells on its platform's store: at least one of them must be able to verify.
  const platform = entry['platform'] as AppPlatform;
  const stores: readonly CredentialStore[] = PLATFORM_STORES[platform] ?? [];
  if (entry['isPaid'] === true && stores.length > 0 && stores.every((store) => missing(store).length > 0)) {
    const store = stores.find((s) => credentials[s] !== undefined) ?? stores[0]!;
    const either =
      stores.length > 1
        ? ` (or ${stores
            .filter((s) => s !== store)
            .map((s) => STORE_PLATFORMS[CREDENTIAL_STORES.indexOf(s)])
            .join(', ')}'s)`
        : '';
    lines.push({
      key: `isPaid|${platform}`,
      line: `isPaid: a paid ${platform} app sells on ${STORE_PLATFORMS[CREDENTIAL_STORES.indexOf(store)]}, but ${words(store, missing(store))}${either}, or make the app free`,
    });
  }
  return lines;
}

const present = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null);
const listed = (labels: string[]) => (labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)!}`);

/** Deletes the owner's app of `platform`; refused while purchases of viewers are recorded against it. */
export async function deleteApp(db: Database, editor: Editor, platform: string, ifMatch: string | undefined): Promise<Written<null>> {
  const known = appPlatform(platform);
  return write(db, editor, async (tx) => {
    const current = await currentEntry(tx, editor.ownerId, known);
    if (!current) throw notFound('App');
    assertMatches(ifMatch, appResource(current));
    const { subscriptions, ppvUnlocks } = await appEntitlementCounts(tx, current.id);
    if (subscriptions + ppvUnlocks > 0) {
      throw new EditRefusal(
        'in_use',
        `Your ${known} app ${current.id} has ${plural(subscriptions, 'subscription')} and ${plural(ppvUnlocks, 'PPV unlock')} of viewers recorded, ` +
          `which deleting it would delete too; change the app with PUT /apps/${known} instead.`,
      );
    }
    await deleteAppRow(tx, current.id);
    await keepOwner(tx, editor.ownerId, editor.now);
    return { written: { status: 204, body: null }, changes: [{ action: 'delete', resource: `apps/${known}`, fields: [] }] };
  });
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
