// `channelnet export`: the database written out in the catalog format, ordered by id so
// that two exports of the same data are byte-identical. Passwords leave as their hashes
// and app tokens as token hashes (`tokenHash`): the service never holds either in clear.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { open } from 'node:fs/promises';
import { blobsAsBase64, type BlobText } from '../data/blobs.ts';
import { ownerBlobKeys } from '../data/owner-slice.ts';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';
import { groupBy } from '../group-by.ts';
import type { CatalogInput } from './format.ts';

type Rows<T extends { $inferSelect: unknown }> = T['$inferSelect'][];

/**
 * Part of the catalog: one owner's rows, optionally only some ids (the Studio API reads single
 * entities through the same code as the export, so both say the same).
 */
export interface ExportScope {
  ownerId: number;
  videoIds?: readonly number[];
  channelIds?: readonly number[];
  appIds?: readonly number[];
}

/** The filter of an owned table's rows under `scope` (undefined: every row). */
function owned(scope: ExportScope | undefined, ownerColumn: PgColumn, idColumn: PgColumn, ids: readonly number[] | undefined): SQL | undefined {
  if (!scope) return undefined;
  return ids === undefined ? eq(ownerColumn, scope.ownerId) : and(eq(ownerColumn, scope.ownerId), inArray(idColumn, [...ids]));
}

/**
 * The filter of child rows to those of `parents` (undefined: every row). A whole owner's children
 * are named by `parentQuery` (a subquery of the parents' ids), not by a list of thousands of ids:
 * PGlite spent ~0.5 s parsing and planning each query of a full slice's 20,000 block ids.
 */
function childrenOf(scope: ExportScope | undefined, column: PgColumn, parents: ReadonlyArray<{ id: number }>, parentQuery?: SQL): SQL | undefined {
  if (!scope) return undefined;
  if (parentQuery) return sql`${column} in ${parentQuery}`;
  return inArray(column, parents.length > 0 ? parents.map((p) => p.id) : [-1]);
}

const iso = (d: Date): string => d.toISOString();
const isoOrNull = (d: Date | null): string | null => (d === null ? null : d.toISOString());
/** PostgreSQL 'yyyy-MM-dd HH:mm:ss' wall time back to the catalog's 'yyyy-MM-ddTHH:mm:ss'. */
const dbToWall = (wall: string): string => wall.replace(' ', 'T').slice(0, 19);

/** Images by key, as the base64 text the database encoded (src/data/blobs.ts): never decoded here. */
export class BlobReader {
  constructor(private readonly blobs: ReadonlyMap<string, string>) {}
  static of(rows: ReadonlyArray<BlobText>): BlobReader {
    return new BlobReader(new Map(rows.map((b) => [b.sha256, b.base64])));
  }
  base64(sha256: string): string {
    const base64 = this.blobs.get(sha256);
    if (base64 === undefined) throw new Error(`missing blob ${sha256}`);
    return base64;
  }
  base64OrNull(sha256: string | null): string | null {
    return sha256 === null ? null : this.base64(sha256);
  }
}

export async function exportCatalog(db: Queryable): Promise<CatalogInput> {
  const blobs = await blobReader(db);
  return {
    format: 'channel-network-catalog',
    version: 1,
    accounts: await exportAccounts(db, blobs),
    categories: await exportCategories(db),
    languages: await exportLanguages(db),
    videos: await exportVideos(db),
    channels: await exportChannels(db),
    apps: await exportApps(db, blobs),
    entitlements: await exportEntitlements(db),
  };
}

/** Every image (the whole catalog's export), or only those of one owner's branding and apps. */
export async function blobReader(db: Queryable, ownerId?: number): Promise<BlobReader> {
  return BlobReader.of(await blobsAsBase64(db, ownerId === undefined ? undefined : ownerBlobKeys(ownerId)));
}

export async function exportCategories(db: Queryable): Promise<NonNullable<CatalogInput['categories']>> {
  return (await db.select().from(t.categories).orderBy(asc(t.categories.id))).map((c) => ({ id: c.id, name: c.name }));
}

export async function exportLanguages(db: Queryable): Promise<NonNullable<CatalogInput['languages']>> {
  return (await db.select().from(t.languages).orderBy(asc(t.languages.id))).map((l) => ({ id: l.id, name: l.name, code: l.code }));
}

export async function exportAccounts(db: Queryable, blobs: BlobReader, scope?: ExportScope): Promise<NonNullable<CatalogInput['accounts']>> {
  const [accounts, brandings, tokens, favorites] = await Promise.all([
    db.select().from(t.accounts).where(scope && eq(t.accounts.id, scope.ownerId)).orderBy(asc(t.accounts.id)),
    db.select().from(t.brandings).where(scope && eq(t.brandings.accountId, scope.ownerId)),
    db.select().from(t.authTokens).where(scope && eq(t.authTokens.accountId, scope.ownerId)).orderBy(asc(t.authTokens.id)),
    db.select().from(t.favorites).where(scope && eq(t.favorites.accountId, scope.ownerId)).orderBy(asc(t.favorites.favoritedAt), asc(t.favorites.channelId)),
  ]);
  const brandingOf = new Map(brandings.map((b) => [b.accountId, b]));
  const tokensOf = groupBy(tokens.filter((k) => k.kind === 'app' && k.revokedAt === null), (k) => k.accountId);
  const favoritesOf = groupBy(favorites, (f) => f.accountId);
  return accounts.map((a) => {
    const b = brandingOf.get(a.id);
    return {
      id: a.id,
      username: a.username,
      email: a.email,
      passwordHash: a.passwordHash,
      publicUrl: a.publicUrl,
      fullName: a.fullName,
      publicName: a.publicName,
      status: a.status,
      servicePlanActive: a.servicePlanActive,
      branding: b
        ? {
            title: b.title, hex1: b.hex1, hex2: b.hex2, hex3: b.hex3, fontColor: b.fontColor,
            headerBackground: b.headerBackground, faq: b.faq, privacyPolicy: b.privacyPolicy,
            logoHeader: blobs.base64OrNull(b.logoHeaderBlob),
            logoAndroid: blobs.base64OrNull(b.logoAndroidBlob),
            useVastSettings: b.useVastSettings,
          }
        : null,
      appTokens: (tokensOf.get(a.id) ?? []).map((k) => ({ tokenHash: k.tokenHash, label: k.label })),
      favorites: (favoritesOf.get(a.id) ?? []).map((f) => ({ channelId: f.channelId, favoritedAt: iso(f.favoritedAt) })),
    };
  });
}

export async function exportVideos(db: Queryable, scope?: ExportScope): Promise<NonNullable<CatalogInput['videos']>> {
  const videos = await db.select().from(t.videos).where(owned(scope, t.videos.ownerId, t.videos.id, scope?.videoIds)).orderBy(asc(t.videos.id));
  const renditions = await db
    .select()
    .from(t.videoRenditions)
    .where(childrenOf(scope, t.videoRenditions.videoId, videos))
    .orderBy(asc(t.videoRenditions.videoId), asc(t.videoRenditions.position));
  const renditionsOf = groupBy(renditions, (r) => r.videoId);
  return videos.map((v) => ({
    ...v,
    renditions: (renditionsOf.get(v.id) ?? []).map((r) => ({ url: r.url, width: r.width, height: r.height, expiresUtc: iso(r.expiresAt) })),
  }));
}

/**
 * Ordered video id lists (libraries, VOD catalogs, blocks' videos) by parent, each list one
 * comma-separated text built by the database: a channel network holds hundreds of thousands of
 * such entries, and a row each cost PGlite (which decodes rows in JavaScript) seconds.
 */
async function videoIdLists(db: Queryable, parent: PgColumn, video: PgColumn, position: PgColumn, where: SQL | undefined): Promise<Map<number, number[]>> {
  const rows = await db
    .select({ parent: sql<number>`${parent}`, ids: sql<string>`string_agg(${video}::text, ',' order by ${position})` })
    .from(parent.table)
    .where(where)
    .groupBy(parent);
  return new Map(rows.map((r) => [Number(r.parent), r.ids.split(',').map(Number)]));
}

export async function exportChannels(db: Queryable, scope?: ExportScope): Promise<NonNullable<CatalogInput['channels']>> {
  const channels = await db.select().from(t.channels).where(owned(scope, t.channels.ownerId, t.channels.id, scope?.channelIds)).orderBy(asc(t.channels.id));
  // A whole owner: children by subquery (childrenOf); some channels: by their ids.
  const whole = scope !== undefined && scope.channelIds === undefined;
  const ownedChannels = whole ? sql`(select ${t.channels.id} from ${t.channels} where ${t.channels.ownerId} = ${scope.ownerId})` : undefined;
  const of = (column: PgColumn) => childrenOf(scope, column, channels, ownedChannels);
  const blocks = await db.select().from(t.scheduleBlocks).where(of(t.scheduleBlocks.channelId)).orderBy(asc(t.scheduleBlocks.startLocal), asc(t.scheduleBlocks.id));
  const ownedBlocks = whole ? sql`(select ${t.scheduleBlocks.id} from ${t.scheduleBlocks} where ${t.scheduleBlocks.channelId} in ${ownedChannels})` : undefined;
  const [libraryOf, vodOf, vast, roku, blockVideosOf, live] = await Promise.all([
    videoIdLists(db, t.channelVideos.channelId, t.channelVideos.videoId, t.channelVideos.position, of(t.channelVideos.channelId)),
    videoIdLists(db, t.channelVodVideos.channelId, t.channelVodVideos.videoId, t.channelVodVideos.position, of(t.channelVodVideos.channelId)),
    db.select().from(t.channelVastSettings).where(of(t.channelVastSettings.channelId)).orderBy(asc(t.channelVastSettings.channelId), asc(t.channelVastSettings.platform)),
    db.select().from(t.channelRokuSettings).where(of(t.channelRokuSettings.channelId)),
    videoIdLists(db, t.scheduleBlockVideos.blockId, t.scheduleBlockVideos.videoId, t.scheduleBlockVideos.position, childrenOf(scope, t.scheduleBlockVideos.blockId, blocks, ownedBlocks)),
    db.select().from(t.liveStreams).where(of(t.liveStreams.channelId)).orderBy(asc(t.liveStreams.startAt), asc(t.liveStreams.id)),
  ]);
  const vastOf = groupBy(vast, (r) => r.channelId);
  const rokuOf = new Map(roku.map((r) => [r.channelId, r]));
  const blocksOf = groupBy(blocks, (b) => b.channelId);
  const liveOf = groupBy(live, (l) => l.channelId);
  return channels.map((c) => {
    const r = rokuOf.get(c.id);
    return channelEntry(c, {
      videoIds: libraryOf.get(c.id) ?? [],
      vodVideoIds: vodOf.get(c.id) ?? [],
      vast: (vastOf.get(c.id) ?? []).map(({ channelId: _, ...v }) => v),
      roku: r ? { addedToRoku: r.addedToRoku, lastUpdateDate: isoOrNull(r.lastUpdateDate) } : null,
      schedules: (blocksOf.get(c.id) ?? []).map((b) => ({
        id: b.id,
        startTime: dbToWall(b.startLocal),
        published: b.published,
        loopDaily: b.loopDaily,
        videoIds: blockVideosOf.get(b.id) ?? [],
      })),
      liveStreams: (liveOf.get(c.id) ?? []).map((l) => ({ videoId: l.videoId, start: iso(l.startAt), end: iso(l.endAt), uri: l.uri })),
    });
  });
}

type ChannelChildren = Pick<NonNullable<CatalogInput['channels']>[number], 'videoIds' | 'vodVideoIds' | 'vast' | 'roku' | 'schedules' | 'liveStreams'>;

function channelEntry(c: typeof t.channels.$inferSelect, children: ChannelChildren) {
  return {
    id: c.id, ownerId: c.ownerId, name: c.name, url: c.url, categoryId: c.categoryId, languageId: c.languageId,
    pictureUrl: c.pictureUrl, description: c.description, order: c.sortOrder, timezone: c.timezone,
    isWhiteLabeled: c.isWhiteLabeled, playLiveFirst: c.playLiveFirst, isVerified: c.isVerified,
    keepGuideOpened: c.keepGuideOpened, guideMode: c.guideMode, passwordHash: c.passwordHash,
    subscriberCount: c.subscriberCount, createdAt: iso(c.createdAt), deleted: c.deleted,
    ...children,
  };
}

/**
 * An owner's channel in catalog form without its lists (library, VOD, VAST, Roku, blocks, live
 * streams): what a write of some of its blocks validates them in, at the cost of one row.
 */
export async function exportChannelHead(db: Queryable, ownerId: number, channelId: number): Promise<NonNullable<CatalogInput['channels']>[number] | undefined> {
  const [c] = await db.select().from(t.channels).where(and(eq(t.channels.id, channelId), eq(t.channels.ownerId, ownerId)));
  return c && channelEntry(c, { videoIds: [], vodVideoIds: [], vast: [], roku: null, schedules: [], liveStreams: [] });
}

export async function exportApps(db: Queryable, blobs: BlobReader, scope?: ExportScope): Promise<NonNullable<CatalogInput['apps']>> {
  const apps = await db.select().from(t.apps).where(owned(scope, t.apps.ownerId, t.apps.id, scope?.appIds)).orderBy(asc(t.apps.id));
  const of = (column: PgColumn) => childrenOf(scope, column, apps);
  const [mobile, images, products, credentials, appChannels] = await Promise.all([
    db.select().from(t.appMobileSettings).where(of(t.appMobileSettings.appId)),
    db.select().from(t.appImages).where(of(t.appImages.appId)).orderBy(asc(t.appImages.appId), asc(t.appImages.role)),
    db.select().from(t.appStoreProducts).where(of(t.appStoreProducts.appId)).orderBy(asc(t.appStoreProducts.appId), asc(t.appStoreProducts.kind), asc(t.appStoreProducts.position)),
    db.select().from(t.appStoreCredentials).where(of(t.appStoreCredentials.appId)).orderBy(asc(t.appStoreCredentials.appId), asc(t.appStoreCredentials.store)),
    db.select().from(t.appChannels).where(of(t.appChannels.appId)).orderBy(asc(t.appChannels.appId), asc(t.appChannels.position)),
  ]);
  const mobileOf = new Map(mobile.map((m) => [m.appId, m]));
  const imagesOf = groupBy(images, (i) => i.appId);
  const productsOf = groupBy(products, (p) => p.appId);
  const credentialsOf = groupBy(credentials, (c) => c.appId);
  const channelsOf = groupBy(appChannels, (c) => c.appId);
  return apps.map((a) => {
    const { appId: _, ...mobileFields } = mobileOf.get(a.id) ?? { appId: 0 };
    const product = (p: (typeof products)[number]) => ({
      storePlatform: p.storePlatform, productId: p.productId, displayName: p.displayName, billingPeriod: p.billingPeriod, isActive: p.isActive,
    });
    const appProducts = productsOf.get(a.id) ?? [];
    return {
      id: a.id, ownerId: a.ownerId, platform: a.platform, appName: a.appName, slug: a.slug, about: a.about,
      privacyPolicyLink: a.privacyPolicyLink, isPaid: a.isPaid, timeFormat: a.timeFormat, adLink: a.adLink, apiKey: a.apiKey,
      theme: themeOf(a),
      mobile: mobileOf.has(a.id) ? (mobileFields as NonNullable<CatalogInput['apps']>[number]['mobile']) : null,
      images: Object.fromEntries((imagesOf.get(a.id) ?? []).map((i) => [i.role, blobs.base64(i.blobSha256)])),
      storeProducts: appProducts.filter((p) => p.kind === 'subscription').map(product),
      vodPpv: {
        isEnabled: a.vodPpvEnabled,
        accessDurationHours: a.vodPpvAccessHours,
        previewSeconds: a.vodPpvPreviewSeconds,
        storeProducts: appProducts.filter((p) => p.kind === 'ppv').map(product),
      },
      storeCredentials: Object.fromEntries((credentialsOf.get(a.id) ?? []).map((c) => [c.store, c.credentials])),
      channels: (channelsOf.get(a.id) ?? []).map((c) => ({
        channelId: c.channelId, sorting: c.sorting, channelNumber: c.channelNumber,
        useVastSettings: c.useVastSettings, lastUpdateDate: isoOrNull(c.lastUpdateDate),
      })),
      createdAt: iso(a.createdAt),
    };
  });
}

function themeOf(a: Rows<typeof t.apps>[number]) {
  if (a.primaryColor === null || a.secondaryColor === null || a.styleColor === null) return null;
  const theme = { primaryColor: a.primaryColor, secondaryColor: a.secondaryColor, styleColor: a.styleColor };
  return a.backgroundColor === null ? theme : { ...theme, backgroundColor: a.backgroundColor };
}

async function exportEntitlements(db: Queryable): Promise<NonNullable<CatalogInput['entitlements']>> {
  const [subscriptions, ppvUnlocks] = await Promise.all([
    db.select().from(t.subscriptions).orderBy(asc(t.subscriptions.id)),
    db.select().from(t.ppvUnlocks).orderBy(asc(t.ppvUnlocks.id)),
  ]);
  return {
    subscriptions: subscriptions.map((s) => ({
      appId: s.appId, deviceId: s.deviceId, viewerId: s.viewerId, storePlatform: s.storePlatform, productId: s.productId,
      originalTransactionId: s.originalTransactionId, status: s.status, expiresUtc: isoOrNull(s.expiresAt),
    })),
    ppvUnlocks: ppvUnlocks.map((u) => ({
      appId: u.appId, videoId: u.videoId, channelId: u.channelId, deviceId: u.deviceId, viewerId: u.viewerId,
      storePlatform: u.storePlatform, productId: u.productId, transactionId: u.transactionId,
      // The catalog has no revocation field: a refunded unlock is exported as ended when refunded.
      expiresUtc: iso(u.revokedAt && u.revokedAt < u.expiresAt ? u.revokedAt : u.expiresAt),
    })),
  };
}

/**
 * Writes an export where only its owner can read it (mode 0600): it holds store secrets and
 * password hashes. An existing file is truncated first and its mode narrowed as well.
 */
export async function writeExportFile(path: string, text: string): Promise<void> {
  const file = await open(path, 'w', 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}
