// An owner's slice of the catalog as a catalog document: exported without write-only secrets
// and viewer purchases, and imported back (or a changed or new one) in one transaction by the
// catalog import's own rules, merged by id as `channelnet import` merges: an entity in the file
// replaces the owner's entity with its id whole, entities absent from the file are untouched.
//
// What the Studio adds to the import's rules, since a file names ids and owners itself:
// - every video, channel and app must be the caller's (ownerId), accounts may hold only the
//   caller's own account, and viewer purchases (entitlements) are refused;
// - an id in use by anything that is not the caller's is refused at its path, without saying
//   whose it is (the import's upsert would otherwise overwrite another owner's row), and a new
//   entity's id must be a chosen one (1..9,999,999, src/catalog/ids.ts);
// - categories and languages are shared: new ones are created within the owner's allowance and
//   under names no other has (editing/reference-data.ts), existing ones must be equal;
// - write-only fields a file leaves out keep their stored values (account password and app
//   tokens, channel password, app store credentials), so export -> import changes nothing;
// - account status and service plan, and a channel's isVerified and subscriberCount, are the
//   operator's: a file leaving them out keeps them, one changing them is refused;
// - the account's username, email and publicUrl cannot be changed here: answering whether a
//   new one is free would tell the owner which names other accounts hold (the operator changes
//   them). So nothing an import answers depends on another account.
import { z } from 'zod';
import type { Database, Queryable } from '../db/connect.ts';
import { takenIds } from '../data/ids.ts';
import { ownerExisting } from '../data/studio.ts';
import { appTokenRows, claimNewRows, restoreAppTokens, tokenHashesInUse } from '../data/studio-slice.ts';
import { hashToken } from '../access/token-hash.ts';
import { brandingBlobs } from '../data/studio-account.ts';
import { appImageBlobs } from '../data/studio-apps.ts';
import { BlobReader, blobReader, exportAccounts, exportApps, exportCategories, exportChannels, exportLanguages, exportVideos } from '../catalog/export.ts';
import { accountSchema, catalogSchema, type Catalog, type CatalogInput } from '../catalog/format.ts';
import { writeRows } from '../catalog/import.ts';
import { chosenIdProblem } from '../catalog/ids.ts';
import { formatIssues, issueMessage } from '../catalog/issues.ts';
import { catalogToRows, type CatalogRows } from '../catalog/to-rows.ts';
import { validateCatalog } from '../catalog/validate.ts';
import { operatorFieldProblems } from './channels.ts';
import { assertMatches, etagOf } from './etag.ts';
import { MAX_IMPORT_ENTITIES } from './import-size.ts';
import { OWNER_BOUNDS, OWNER_BOUND_LISTS } from '../catalog/owner-bounds.ts';
import { sliceVersionFacts } from '../data/owner-slice.ts';
import { ownerVideosJson } from '../data/slice-json.ts';
import { additionProblems, asAddedBy } from './reference-data.ts';
import { invalid } from './refusals.ts';
import { changedFields, write, type Change, type Editor, type Idempotency, type Written } from './write.ts';

type Entries<K extends keyof CatalogInput> = NonNullable<CatalogInput[K]>;
type Account = Entries<'accounts'>[number];
type Channel = Entries<'channels'>[number];
type App = Entries<'apps'>[number];

/** The owner's slice as stored, secrets included (never answered as it is). */
interface StoredSlice {
  accounts: Entries<'accounts'>;
  categories: Entries<'categories'>;
  languages: Entries<'languages'>;
  videos: Entries<'videos'>;
  channels: Entries<'channels'>;
  apps: Entries<'apps'>;
}

/** The export: the catalog format, minus secrets and entitlements. */
export interface SliceDocument {
  format: 'channel-network-catalog';
  version: 1;
  accounts: Omit<Account, 'password' | 'passwordHash' | 'appTokens'>[];
  categories: Entries<'categories'>;
  languages: Entries<'languages'>;
  videos: Entries<'videos'>;
  channels: Omit<Channel, 'password' | 'passwordHash'>[];
  apps: Omit<App, 'storeCredentials'>[];
}

/** The caller's account entry of an import: the format's, its password optional (absent: kept). */
const importedAccount = z.strictObject(accountSchema.shape);

/** A list of the document, at most as long as a whole import may be (import-size.ts counts them together). */
const list = <T extends z.ZodType>(entry: T) => z.array(entry).max(MAX_IMPORT_ENTITIES).default([]);
const { categories, languages, videos, channels, apps, entitlements } = catalogSchema.shape;
const { subscriptions, ppvUnlocks } = entitlements.unwrap().shape;

/** The import's document: the catalog format, the account's password optional, every list capped. */
export const sliceDocumentSchema = catalogSchema.extend({
  accounts: list(importedAccount),
  categories: list(categories.unwrap().element),
  languages: list(languages.unwrap().element),
  videos: list(videos.unwrap().element),
  channels: list(channels.unwrap().element),
  apps: list(apps.unwrap().element),
  entitlements: z
    .strictObject({ subscriptions: list(subscriptions.unwrap().element), ppvUnlocks: list(ppvUnlocks.unwrap().element) })
    .default({ subscriptions: [], ppvUnlocks: [] }),
});
type SliceFile = z.output<typeof sliceDocumentSchema>;
type OwnerExisting = Awaited<ReturnType<typeof ownerExisting>>;

/** What an import wrote, counted as `channelnet import` counts it. */
export interface ImportCounts {
  accounts: number;
  categories: number;
  languages: number;
  videos: number;
  channels: number;
  scheduleBlocks: number;
  liveStreams: number;
  apps: number;
  subscriptions: number;
  ppvUnlocks: number;
}

export interface ImportAnswer {
  dryRun: boolean;
  counts: ImportCounts;
}

/** Beyond this many changed entities, an import is audited as one row per kind of entity. */
export const MAX_AUDITED_ENTITIES = 1000;

/** The ids of videos, channels and apps a document names (entries without a numeric id name none). */
export interface Named {
  videoIds: number[];
  channelIds: number[];
  appIds: number[];
}

function namedIn(input: unknown): Named {
  const ids = (key: string) => {
    const list = isRecord(input) ? input[key] : undefined;
    return Array.isArray(list) ? list.flatMap((e: unknown) => (isRecord(e) && typeof e['id'] === 'number' ? [e['id']] : [])) : [];
  };
  return { videoIds: ids('videos'), channelIds: ids('channels'), appIds: ids('apps') };
}

/**
 * The owner's slice as stored: whole (the export, an If-Match), or only the entities an import
 * names (`named`): an import is checked and diffed against what it replaces, so its cost grows
 * with the file, not with everything the owner holds.
 */
async function readStored(db: Queryable, ownerId: number, named?: Named): Promise<StoredSlice> {
  const scope = named ? { ownerId, ...named } : { ownerId };
  const blobs = named ? BlobReader.of([...(await brandingBlobs(db, ownerId)), ...(await appImageBlobs(db, named.appIds))]) : await blobReader(db, ownerId);
  return {
    accounts: await exportAccounts(db, blobs, scope),
    categories: await exportCategories(db),
    languages: await exportLanguages(db),
    videos: await exportVideos(db, scope),
    channels: await exportChannels(db, scope),
    apps: await exportApps(db, blobs, scope),
  };
}

function withoutSecrets(slice: StoredSlice): SliceDocument {
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: slice.accounts.map(({ password: _password, passwordHash: _hash, appTokens: _tokens, ...account }) => account),
    categories: slice.categories,
    languages: slice.languages,
    videos: slice.videos,
    channels: slice.channels.map(({ password: _password, passwordHash: _hash, ...channel }) => channel),
    apps: slice.apps.map(({ storeCredentials: _credentials, ...app }) => app),
  };
}

/** An import counts every bound: its file may grow any of them. */
const ALL_BOUNDS = Object.keys(OWNER_BOUNDS) as Array<keyof typeof OWNER_BOUNDS>;

/**
 * The slice's entity tag, without reading the slice: derived from the owner's slice version
 * (bumped by every write to it, src/data/owner-slice.ts) and the small shared lists the export
 * carries. Read before the document, so a write in between makes the tag older than the
 * document (an If-Match with it fails: never a lost update).
 */
async function sliceTagSource(db: Queryable, ownerId: number): Promise<unknown> {
  return { slice: await sliceVersionFacts(db, ownerId) };
}

/** An export's JSON text and entity tag; given back to exportSlice, it is served again while the slice is unchanged. */
export interface ExportedSlice {
  text: string;
  etag: string;
}

/**
 * The owner's slice as a catalog document's JSON text, and its entity tag (an import may name it
 * in If-Match). The videos (most of a full slice) come as JSON text from the database and are
 * spliced in as they are; the rest is serialized once, here.
 */
export async function exportSlice(db: Queryable, ownerId: number, kept?: ExportedSlice): Promise<ExportedSlice> {
  const etag = etagOf(await sliceTagSource(db, ownerId));
  // The tag follows every change of what the document holds: the same tag, the same document.
  if (kept?.etag === etag) return kept;
  const scope = { ownerId };
  const blobs = await blobReader(db, ownerId);
  const [accounts, categories, languages, videos, channels, apps] = [
    await exportAccounts(db, blobs, scope),
    await exportCategories(db),
    await exportLanguages(db),
    await ownerVideosJson(db, ownerId),
    await exportChannels(db, scope),
    await exportApps(db, blobs, scope),
  ];
  const document = withoutSecrets({ accounts, categories, languages, videos: [], channels, apps });
  const parts: Array<[keyof SliceDocument, string]> = [
    ['format', JSON.stringify(document.format)],
    ['version', JSON.stringify(document.version)],
    ['accounts', JSON.stringify(document.accounts)],
    ['categories', JSON.stringify(document.categories)],
    ['languages', JSON.stringify(document.languages)],
    ['videos', videos],
    ['channels', JSON.stringify(document.channels)],
    ['apps', JSON.stringify(document.apps)],
  ];
  return { text: `{${parts.map(([key, value]) => `"${key}":${value}`).join(',')}}`, etag };
}

export interface ImportOptions {
  /** Check only: nothing is written, audited or announced. */
  dryRun: boolean;
  ifMatch?: string | undefined;
  idempotency?: Idempotency | undefined;
}

/** Imports a catalog document into the caller's slice, or refuses it whole. */
export async function importSlice(db: Database, editor: Editor, input: unknown, options: ImportOptions): Promise<Written<ImportAnswer>> {
  const { ownerId } = editor;
  return write<ImportAnswer>(
    db,
    editor,
    async (tx) => {
      const named = namedIn(input);
      const stored = await readStored(tx, ownerId, named);
      // If-Match names the whole slice's version (the export's ETag): its version, not its content, is compared.
      if (options.ifMatch !== undefined) assertMatches(options.ifMatch, await sliceTagSource(tx, ownerId));
      const catalog = await checkedCatalog(tx, ownerId, keepStoredSecrets(input, ownerId, stored), stored);
      const counts = countsOf(catalog);
      if (options.dryRun) return { written: { status: 200, body: { dryRun: true, counts } }, changes: [] };
      const rows = await catalogToRows(catalog, editor.now);
      // The import writer replaces an account's app tokens with the file's: a file naming none keeps them.
      const account = catalog.accounts[0];
      const keptTokens = account && account.appTokens.length === 0 ? await appTokenRows(tx, ownerId) : [];
      await claimNewRows(tx, asAddedBy(newRowsOf(rows, stored), ownerId));
      // Shared entries are only ever added (by the claim above): existing ones are equal anyway.
      await writeRows(tx, { ...rows, categories: [], languages: [] }, editor.now);
      await restoreAppTokens(tx, keptTokens);
      const after = await readStored(tx, ownerId, named);
      return {
        written: { status: 200, body: { dryRun: false, counts } },
        changes: changesOf(catalog, stored, after),
        boundsAt: (bound) => OWNER_BOUND_LISTS[bound],
        moved: ALL_BOUNDS,
      };
    },
    options.dryRun ? undefined : options.idempotency,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function mapEntries(document: Record<string, unknown>, key: string, fill: (entry: Record<string, unknown>) => Record<string, unknown>): void {
  const list = document[key];
  if (Array.isArray(list)) document[key] = list.map((entry: unknown) => (isRecord(entry) ? fill(entry) : entry));
}

/**
 * The document with the stored values of what an export leaves out, for the caller's own
 * entities that the file names without them: the account's password, status and service plan,
 * a channel's password, verified badge and subscriber count, an app's store credentials. An
 * explicit value (null included) is kept.
 */
function keepStoredSecrets(input: unknown, ownerId: number, stored: StoredSlice): unknown {
  if (!isRecord(input)) return input;
  const document = { ...input };
  const account = stored.accounts[0];
  const channels = new Map(stored.channels.map((c) => [c.id, c]));
  const apps = new Map(stored.apps.map((a) => [a.id, a]));
  mapEntries(document, 'accounts', (a) => {
    if (a['id'] !== ownerId || !account) return a;
    const filled = { ...a };
    if (a['password'] === undefined && a['passwordHash'] === undefined) filled['passwordHash'] = account.passwordHash;
    if (a['status'] === undefined) filled['status'] = account.status;
    if (a['servicePlanActive'] === undefined) filled['servicePlanActive'] = account.servicePlanActive;
    return filled;
  });
  mapEntries(document, 'channels', (c) => {
    const current = typeof c['id'] === 'number' ? channels.get(c['id']) : undefined;
    if (!current) return c;
    const filled = { ...c };
    if (c['password'] === undefined && c['passwordHash'] === undefined) filled['passwordHash'] = current.passwordHash;
    if (c['isVerified'] === undefined) filled['isVerified'] = current.isVerified;
    if (c['subscriberCount'] === undefined) filled['subscriberCount'] = current.subscriberCount;
    return filled;
  });
  mapEntries(document, 'apps', (a) => {
    const current = typeof a['id'] === 'number' ? apps.get(a['id']) : undefined;
    return current && a['storeCredentials'] === undefined ? { ...a, storeCredentials: current.storeCredentials } : a;
  });
  return document;
}

const pathOf = (line: string): string => {
  const at = line.indexOf(': ');
  return at < 0 ? '(root)' : line.slice(0, at);
};

/**
 * The file checked by the Studio's rules and then by the import's own, against the caller's
 * slice of the database; every problem found is refused at once, at its JSON path.
 */
async function checkedCatalog(tx: Queryable, ownerId: number, input: unknown, stored: StoredSlice): Promise<Catalog> {
  const shape = sliceDocumentSchema.safeParse(input, { error: issueMessage });
  if (!shape.success) throw invalid(formatIssues(shape.error.issues));
  const file = shape.data;
  const existing = await ownerExisting(tx, ownerId);
  const own = [
    ...ownershipProblems(file, ownerId, stored),
    ...sharedDataProblems(file, stored),
    ...(await idsOfOthers(tx, file, existing)),
    ...(await accountConflicts(tx, file, ownerId)),
    ...(await sharedAdditions(tx, file, ownerId, stored)),
  ];
  const validated = validateCatalog(input, existing);
  // The import's own complaint about what the Studio already refused (an account that is not
  // the caller's has no stored password to keep; another owner is an "unknown account").
  const named = new Set(own.map(pathOf));
  file.accounts.forEach((a, i) => a.id !== ownerId && named.add(`accounts[${i}]`));
  const rest = validated.ok ? [] : validated.errors.filter((line) => !named.has(pathOf(line)));
  if (!validated.ok || own.length > 0) throw invalid([...own, ...rest]);
  return validated.catalog;
}

/** The account's fields an owner's import must give as stored: the operator's, and the names other accounts are checked against. */
const FIXED_ACCOUNT_FIELDS = ['username', 'email', 'publicUrl', 'status', 'servicePlanActive'] as const;

function ownershipProblems(file: SliceFile, ownerId: number, stored: StoredSlice): string[] {
  const lines: string[] = [];
  const account = stored.accounts[0];
  file.accounts.forEach((a, i) => {
    if (a.id !== ownerId) {
      lines.push(`accounts[${i}].id: only your own account (${ownerId}) can be imported here`);
      return;
    }
    for (const key of FIXED_ACCOUNT_FIELDS) if (account && a[key] !== account[key]) lines.push(`accounts[${i}].${key}: cannot be changed here; the operator changes it`);
  });
  lines.push(...channelFigureProblems(file, stored));
  const owned: Array<[string, ReadonlyArray<{ ownerId: number }>]> = [
    ['videos', file.videos],
    ['channels', file.channels],
    ['apps', file.apps],
  ];
  for (const [list, entries] of owned) {
    entries.forEach((e, i) => e.ownerId !== ownerId && lines.push(`${list}[${i}].ownerId: must be ${ownerId} (your account)`));
  }
  for (const list of ['subscriptions', 'ppvUnlocks'] as const) {
    if (file.entitlements[list].length > 0) lines.push(`entitlements.${list}: viewer purchases cannot be imported through the Studio; leave it empty`);
  }
  return lines;
}

/** A channel's verified badge and subscriber count as the file gives them (absent: as stored) must be the stored ones. */
function channelFigureProblems(file: SliceFile, stored: StoredSlice): string[] {
  const channels = new Map(stored.channels.map((c) => [c.id, c]));
  return file.channels.flatMap((c, i) => {
    const current = channels.get(c.id);
    const figures = current && { isVerified: current.isVerified ?? false, subscriberCount: current.subscriberCount ?? 0 };
    return operatorFieldProblems(c, figures, `channels[${i}].`);
  });
}

/** Categories and languages are shared by every owner: new ones are created, existing ones must be equal. */
function sharedDataProblems(file: SliceFile, stored: StoredSlice): string[] {
  const lines: string[] = [];
  const shared = 'is shared by every owner and cannot be changed here';
  const categories = new Map(stored.categories.map((c) => [c.id, c]));
  file.categories.forEach((c, i) => {
    const current = categories.get(c.id);
    if (current && current.name !== c.name) lines.push(`categories[${i}].name: category ${c.id} is named ${JSON.stringify(current.name)}; it ${shared}`);
  });
  const languages = new Map(stored.languages.map((l) => [l.id, l]));
  file.languages.forEach((l, i) => {
    const current = languages.get(l.id);
    for (const field of ['name', 'code'] as const) {
      if (current && current[field] !== l[field]) lines.push(`languages[${i}].${field}: language ${l.id} has ${field} ${JSON.stringify(current[field])}; it ${shared}`);
    }
  });
  return lines;
}

/** New categories and languages: ids chosen in range, names no other entry has, within the owner's allowance. */
async function sharedAdditions(tx: Queryable, file: SliceFile, ownerId: number, stored: StoredSlice): Promise<string[]> {
  const lines: string[] = [];
  for (const list of ['categories', 'languages'] as const) {
    const known = new Set(stored[list].map((e) => e.id));
    const fresh = file[list].map((entry, at) => ({ entry, at })).filter(({ entry }) => !known.has(entry.id));
    fresh.forEach(({ entry, at }) => {
      const problem = chosenIdProblem(entry.id);
      if (problem !== null) lines.push(`${list}[${at}].id: ${problem}`);
    });
    const prefix = (k: number) => `${list}[${fresh[k]?.at ?? file[list].length}].`;
    lines.push(
      ...(await additionProblems(
        tx,
        ownerId,
        list,
        fresh.map(({ entry }) => entry),
        prefix,
      )),
    );
  }
  return lines;
}

/**
 * Ids the file gives that are in use by anything not the caller's (ids are one namespace across
 * owners): refused whoever holds them, with the same words as for an id held by nobody's row
 * the caller can see, so the answer does not say whose it is.
 */
async function idsOfOthers(tx: Queryable, file: SliceFile, existing: OwnerExisting): Promise<string[]> {
  const lines: string[] = [];
  const check = async (
    table: 'videos' | 'channels' | 'apps' | 'scheduleBlocks',
    noun: string,
    entries: ReadonlyArray<{ id: number; path: string }>,
    mine: ReadonlyArray<{ id: number }> | ReadonlySet<number>,
  ) => {
    const own = mine instanceof Set ? mine : new Set((mine as ReadonlyArray<{ id: number }>).map((e) => e.id));
    const fresh = entries.filter((e) => !own.has(e.id));
    const taken = new Set(
      await takenIds(
        tx,
        table,
        fresh.map((e) => e.id),
      ),
    );
    for (const e of fresh) {
      const problem = chosenIdProblem(e.id);
      if (problem !== null) lines.push(`${e.path}: ${problem}`);
      else if (taken.has(e.id)) lines.push(`${e.path}: ${noun} id ${e.id} is already in use; choose another id`);
    }
  };
  const at = (list: string, entries: ReadonlyArray<{ id: number }>) => entries.map((e, i) => ({ id: e.id, path: `${list}[${i}].id` }));
  await check('videos', 'video', at('videos', file.videos), existing.videoIds);
  await check('channels', 'channel', at('channels', file.channels), existing.channels);
  await check('apps', 'app', at('apps', file.apps), existing.apps);
  const blocks = file.channels.flatMap((c, ci) => c.schedules.map((b, bi) => ({ id: b.id, path: `channels[${ci}].schedules[${bi}].id` })));
  await check('scheduleBlocks', 'schedule block', blocks, existing.scheduleBlocks);
  return lines;
}

/**
 * The caller's app tokens against every other account's (one key space with every sign-in). Its
 * names need no check: they cannot change here (ownershipProblems).
 */
async function accountConflicts(tx: Queryable, file: SliceFile, ownerId: number): Promise<string[]> {
  const i = file.accounts.findIndex((a) => a.id === ownerId);
  const account = file.accounts[i];
  if (!account) return [];
  const lines: string[] = [];
  const tokens = account.appTokens.map((t, j) => ({
    hash: t.token !== undefined ? hashToken(t.token) : (t.tokenHash ?? ''),
    path: `accounts[${i}].appTokens[${j}].${t.token !== undefined ? 'token' : 'tokenHash'}`,
  }));
  const inUse = new Set(
    await tokenHashesInUse(
      tx,
      ownerId,
      tokens.map((t) => t.hash),
    ),
  );
  for (const t of tokens) if (inUse.has(t.hash)) lines.push(`${t.path}: app token already in use`);
  return lines;
}

function countsOf(catalog: Catalog): ImportCounts {
  return {
    accounts: catalog.accounts.length,
    categories: catalog.categories.length,
    languages: catalog.languages.length,
    videos: catalog.videos.length,
    channels: catalog.channels.length,
    scheduleBlocks: catalog.channels.reduce((n, c) => n + c.schedules.length, 0),
    liveStreams: catalog.channels.reduce((n, c) => n + c.liveStreams.length, 0),
    apps: catalog.apps.length,
    subscriptions: 0,
    ppvUnlocks: 0,
  };
}

/** The rows of entities new to the caller (their ids were free when checked). */
function newRowsOf(rows: CatalogRows, stored: StoredSlice) {
  const fresh = <T extends { id: number }>(list: T[], existing: ReadonlyArray<{ id: number }>) => {
    const ids = new Set(existing.map((e) => e.id));
    return list.filter((e) => !ids.has(e.id));
  };
  return {
    categories: fresh(rows.categories, stored.categories),
    languages: fresh(rows.languages, stored.languages),
    videos: fresh(rows.videos, stored.videos),
    channels: fresh(rows.channels, stored.channels),
    apps: fresh(rows.apps, stored.apps),
  };
}

/** One audit row per entity of the file that was created or changed (field names only, never values). */
function changesOf(catalog: Catalog, before: StoredSlice, after: StoredSlice): Change[] {
  const changes: Change[] = [];
  const entity = (resource: string, was: object | undefined, now: object | undefined) => {
    if (!now) return;
    if (!was) {
      changes.push({ action: 'create', resource, fields: Object.keys(now).sort() });
      return;
    }
    const fields = changedFields(was, now);
    if (fields.length > 0) changes.push({ action: 'update', resource, fields });
  };
  const byId = <T extends { id: number }>(list: readonly T[]) => new Map(list.map((e) => [e.id, e]));
  if (catalog.accounts.length > 0) entity('account', before.accounts[0], after.accounts[0]);
  const lists = [
    ['categories', catalog.categories, before.categories, after.categories],
    ['languages', catalog.languages, before.languages, after.languages],
    ['videos', catalog.videos, before.videos, after.videos],
    ['channels', catalog.channels, before.channels, after.channels],
  ] as const;
  for (const [name, file, was, now] of lists) {
    const wasById = byId<{ id: number }>(was);
    const nowById = byId<{ id: number }>(now);
    for (const e of file) entity(`${name}/${e.id}`, wasById.get(e.id), nowById.get(e.id));
  }
  const appsBefore = byId(before.apps);
  const appsAfter = byId(after.apps);
  for (const a of catalog.apps) entity(`apps/${a.platform}`, appsBefore.get(a.id), appsAfter.get(a.id));
  return changes.length > MAX_AUDITED_ENTITIES ? summarized(changes) : changes;
}

/** One change per kind of entity (`videos`, `channels`, ...), its fields the union of theirs. */
function summarized(changes: readonly Change[]): Change[] {
  const kinds = new Map<string, Set<string>>();
  for (const c of changes) {
    const kind = c.resource.split('/')[0]!;
    const fields = kinds.get(kind) ?? new Set<string>();
    for (const f of c.fields) fields.add(f);
    kinds.set(kind, fields);
  }
  return [...kinds].map(([resource, fields]) => ({ action: 'update', resource, fields: [...fields].sort() }));
}
