// `channelnet export`: the database written out in the catalog format, ordered by id so
// that two exports of the same data are byte-identical. Passwords leave as their hashes
// and app tokens as token hashes (`tokenHash`): the service never holds either in clear.
import { open } from 'node:fs/promises';
import { blobsAsBase64, type BlobText } from '../data/blobs.ts';
import {
  accountRows,
  appRows,
  categoryRows,
  channelHeadRow,
  channelRows,
  entitlementRows,
  languageRows,
  videoRows,
  type AppRow,
  type ChannelRow,
  type ExportScope,
} from '../data/catalog-export.ts';
import { ownerBlobKeys } from '../data/owner-slice.ts';
import type { Queryable } from '../db/connect.ts';
import { groupBy } from '../group-by.ts';
import type { CatalogInput } from './format.ts';

export type { ExportScope } from '../data/catalog-export.ts';

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
  return (await categoryRows(db)).map((c) => ({ id: c.id, name: c.name }));
}

export async function exportLanguages(db: Queryable): Promise<NonNullable<CatalogInput['languages']>> {
  return (await languageRows(db)).map((l) => ({ id: l.id, name: l.name, code: l.code }));
}

export async function exportAccounts(db: Queryable, blobs: BlobReader, scope?: ExportScope): Promise<NonNullable<CatalogInput['accounts']>> {
  const { accounts, brandings, tokens, favorites } = await accountRows(db, scope);
  const brandingOf = new Map(brandings.map((b) => [b.accountId, b]));
  const tokensOf = groupBy(
    tokens.filter((k) => k.kind === 'app' && k.revokedAt === null),
    (k) => k.accountId,
  );
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
            title: b.title,
            hex1: b.hex1,
            hex2: b.hex2,
            hex3: b.hex3,
            fontColor: b.fontColor,
            headerBackground: b.headerBackground,
            faq: b.faq,
            privacyPolicy: b.privacyPolicy,
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
  const { videos, renditions } = await videoRows(db, scope);
  const renditionsOf = groupBy(renditions, (r) => r.videoId);
  return videos.map((v) => ({
    ...v,
    renditions: (renditionsOf.get(v.id) ?? []).map((r) => ({ url: r.url, width: r.width, height: r.height, expiresUtc: iso(r.expiresAt) })),
  }));
}

export async function exportChannels(db: Queryable, scope?: ExportScope): Promise<NonNullable<CatalogInput['channels']>> {
  const { channels, blocks, libraryOf, vodOf, vast, roku, blockVideosOf, live } = await channelRows(db, scope);
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

function channelEntry(c: ChannelRow, children: ChannelChildren) {
  return {
    id: c.id,
    ownerId: c.ownerId,
    name: c.name,
    url: c.url,
    categoryId: c.categoryId,
    languageId: c.languageId,
    pictureUrl: c.pictureUrl,
    description: c.description,
    order: c.sortOrder,
    timezone: c.timezone,
    isWhiteLabeled: c.isWhiteLabeled,
    playLiveFirst: c.playLiveFirst,
    isVerified: c.isVerified,
    keepGuideOpened: c.keepGuideOpened,
    guideMode: c.guideMode,
    passwordHash: c.passwordHash,
    subscriberCount: c.subscriberCount,
    createdAt: iso(c.createdAt),
    deleted: c.deleted,
    ...children,
  };
}

/**
 * An owner's channel in catalog form without its lists (library, VOD, VAST, Roku, blocks, live
 * streams): what a write of some of its blocks validates them in, at the cost of one row.
 */
export async function exportChannelHead(db: Queryable, ownerId: number, channelId: number): Promise<NonNullable<CatalogInput['channels']>[number] | undefined> {
  const c = await channelHeadRow(db, ownerId, channelId);
  return c && channelEntry(c, { videoIds: [], vodVideoIds: [], vast: [], roku: null, schedules: [], liveStreams: [] });
}

export async function exportApps(db: Queryable, blobs: BlobReader, scope?: ExportScope): Promise<NonNullable<CatalogInput['apps']>> {
  const { apps, mobile, images, products, credentials, appChannels } = await appRows(db, scope);
  const mobileOf = new Map(mobile.map((m) => [m.appId, m]));
  const imagesOf = groupBy(images, (i) => i.appId);
  const productsOf = groupBy(products, (p) => p.appId);
  const credentialsOf = groupBy(credentials, (c) => c.appId);
  const channelsOf = groupBy(appChannels, (c) => c.appId);
  return apps.map((a) => {
    const { appId: _, ...mobileFields } = mobileOf.get(a.id) ?? { appId: 0 };
    const product = (p: (typeof products)[number]) => ({
      storePlatform: p.storePlatform,
      productId: p.productId,
      displayName: p.displayName,
      billingPeriod: p.billingPeriod,
      isActive: p.isActive,
    });
    const appProducts = productsOf.get(a.id) ?? [];
    return {
      id: a.id,
      ownerId: a.ownerId,
      platform: a.platform,
      appName: a.appName,
      slug: a.slug,
      about: a.about,
      privacyPolicyLink: a.privacyPolicyLink,
      isPaid: a.isPaid,
      timeFormat: a.timeFormat,
      adLink: a.adLink,
      apiKey: a.apiKey,
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
        channelId: c.channelId,
        sorting: c.sorting,
        channelNumber: c.channelNumber,
        useVastSettings: c.useVastSettings,
        lastUpdateDate: isoOrNull(c.lastUpdateDate),
      })),
      createdAt: iso(a.createdAt),
    };
  });
}

function themeOf(a: AppRow) {
  if (a.primaryColor === null || a.secondaryColor === null || a.styleColor === null) return null;
  const theme = { primaryColor: a.primaryColor, secondaryColor: a.secondaryColor, styleColor: a.styleColor };
  return a.backgroundColor === null ? theme : { ...theme, backgroundColor: a.backgroundColor };
}

async function exportEntitlements(db: Queryable): Promise<NonNullable<CatalogInput['entitlements']>> {
  const { subscriptions, ppvUnlocks } = await entitlementRows(db);
  return {
    subscriptions: subscriptions.map((s) => ({
      appId: s.appId,
      deviceId: s.deviceId,
      viewerId: s.viewerId,
      storePlatform: s.storePlatform,
      productId: s.productId,
      originalTransactionId: s.originalTransactionId,
      status: s.status,
      expiresUtc: isoOrNull(s.expiresAt),
    })),
    ppvUnlocks: ppvUnlocks.map((u) => ({
      appId: u.appId,
      videoId: u.videoId,
      channelId: u.channelId,
      deviceId: u.deviceId,
      viewerId: u.viewerId,
      storePlatform: u.storePlatform,
      productId: u.productId,
      transactionId: u.transactionId,
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
