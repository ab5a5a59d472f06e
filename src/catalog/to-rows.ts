// Converts a validated catalog into table rows. Pure apart from password hashing:
// images become content-addressed blobs, plain passwords become scrypt hashes,
// app tokens become token hashes, and instants become Dates.
import { createHash } from 'node:crypto';
import { hashPassword } from '../access/passwords.ts';
import { hashToken } from '../access/token-hash.ts';
import type * as t from '../db/schema.ts';
import type { CredentialStore } from '../vocabulary.ts';
import type { Catalog, CatalogAccount, CatalogApp, CatalogChannel, CatalogVideo } from './format.ts';

type Row<T extends { $inferInsert: unknown }> = T['$inferInsert'];
/** A row of a table whose id the service can assign: a catalog entity always carries its own. */
type Keyed<T extends { $inferInsert: unknown }> = Row<T> & { id: number };

export interface CatalogRows {
  blobs: Row<typeof t.blobs>[];
  categories: Keyed<typeof t.categories>[];
  languages: Keyed<typeof t.languages>[];
  accounts: Keyed<typeof t.accounts>[];
  brandings: Row<typeof t.brandings>[];
  appTokens: Row<typeof t.authTokens>[];
  favorites: Row<typeof t.favorites>[];
  videos: Keyed<typeof t.videos>[];
  renditions: Row<typeof t.videoRenditions>[];
  channels: Keyed<typeof t.channels>[];
  channelVideos: Row<typeof t.channelVideos>[];
  channelVodVideos: Row<typeof t.channelVodVideos>[];
  vast: Row<typeof t.channelVastSettings>[];
  roku: Row<typeof t.channelRokuSettings>[];
  blocks: Keyed<typeof t.scheduleBlocks>[];
  blockVideos: Row<typeof t.scheduleBlockVideos>[];
  liveStreams: Row<typeof t.liveStreams>[];
  apps: Keyed<typeof t.apps>[];
  appMobile: Row<typeof t.appMobileSettings>[];
  appImages: Row<typeof t.appImages>[];
  storeProducts: Row<typeof t.appStoreProducts>[];
  storeCredentials: Row<typeof t.appStoreCredentials>[];
  appChannels: Row<typeof t.appChannels>[];
  subscriptions: Row<typeof t.subscriptions>[];
  ppvUnlocks: Row<typeof t.ppvUnlocks>[];
}

const toDate = (iso: string): Date => new Date(iso);
const toDateOrNull = (iso: string | null): Date | null => (iso === null ? null : new Date(iso));
/** Catalog wall time 'yyyy-MM-ddTHH:mm:ss' to PostgreSQL's 'yyyy-MM-dd HH:mm:ss'. */
export const wallToDb = (wall: string): string => wall.replace('T', ' ');

class BlobSet {
  readonly rows = new Map<string, Row<typeof t.blobs>>();
  /** Stores the image once and returns its key. */
  add(base64: string): string {
    const bytes = Buffer.from(base64, 'base64');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const contentType = bytes[0] === 0x89 ? 'image/png' : 'image/jpeg';
    if (!this.rows.has(sha256)) this.rows.set(sha256, { sha256, contentType, bytes });
    return sha256;
  }
  addNullable(base64: string | null): string | null {
    return base64 === null ? null : this.add(base64);
  }
}

export async function catalogToRows(catalog: Catalog, now: Date): Promise<CatalogRows> {
  const blobs = new BlobSet();
  const rows: CatalogRows = {
    blobs: [],
    categories: catalog.categories.map((c) => ({ id: c.id, name: c.name })),
    languages: catalog.languages.map((l) => ({ id: l.id, name: l.name, code: l.code })),
    accounts: [],
    brandings: [],
    appTokens: [],
    favorites: [],
    videos: [],
    renditions: [],
    channels: [],
    channelVideos: [],
    channelVodVideos: [],
    vast: [],
    roku: [],
    blocks: [],
    blockVideos: [],
    liveStreams: [],
    apps: [],
    appMobile: [],
    appImages: [],
    storeProducts: [],
    storeCredentials: [],
    appChannels: [],
    subscriptions: [],
    ppvUnlocks: [],
  };
  for (const account of catalog.accounts) await addAccount(rows, blobs, account, now);
  for (const video of catalog.videos) addVideo(rows, video);
  for (const channel of catalog.channels) await addChannel(rows, channel, now);
  for (const app of catalog.apps) addApp(rows, blobs, app, now);
  addEntitlements(rows, catalog, now);
  rows.blobs = [...blobs.rows.values()];
  return rows;
}

async function addAccount(rows: CatalogRows, blobs: BlobSet, a: CatalogAccount, now: Date): Promise<void> {
  rows.accounts.push({
    id: a.id,
    username: a.username,
    email: a.email,
    passwordHash: a.passwordHash ?? (await hashPassword(a.password!)),
    publicUrl: a.publicUrl,
    fullName: a.fullName,
    publicName: a.publicName,
    status: a.status,
    servicePlanActive: a.servicePlanActive,
  });
  if (a.branding) {
    const b = a.branding;
    rows.brandings.push({
      accountId: a.id,
      title: b.title,
      hex1: b.hex1,
      hex2: b.hex2,
      hex3: b.hex3,
      fontColor: b.fontColor,
      headerBackground: b.headerBackground,
      faq: b.faq,
      privacyPolicy: b.privacyPolicy,
      logoHeaderBlob: blobs.addNullable(b.logoHeader),
      logoAndroidBlob: blobs.addNullable(b.logoAndroid),
      useVastSettings: b.useVastSettings,
    });
  }
  for (const token of a.appTokens) {
    rows.appTokens.push({
      tokenHash: token.tokenHash ?? hashToken(token.token!),
      accountId: a.id,
      kind: 'app',
      label: token.label,
      createdAt: now,
    });
  }
  for (const f of a.favorites) rows.favorites.push({ accountId: a.id, channelId: f.channelId, favoritedAt: toDate(f.favoritedAt) });
}

function addVideo(rows: CatalogRows, v: CatalogVideo): void {
  const { renditions, ...video } = v;
  rows.videos.push(video);
  renditions.forEach((r, position) => rows.renditions.push({ videoId: v.id, position, url: r.url, width: r.width, height: r.height, expiresAt: toDate(r.expiresUtc) }));
}

async function addChannel(rows: CatalogRows, c: CatalogChannel, now: Date): Promise<void> {
  rows.channels.push({
    id: c.id,
    ownerId: c.ownerId,
    name: c.name,
    url: c.url,
    categoryId: c.categoryId,
    languageId: c.languageId,
    pictureUrl: c.pictureUrl,
    description: c.description,
    sortOrder: c.order,
    timezone: c.timezone,
    isWhiteLabeled: c.isWhiteLabeled,
    playLiveFirst: c.playLiveFirst,
    isVerified: c.isVerified,
    keepGuideOpened: c.keepGuideOpened,
    guideMode: c.guideMode,
    passwordHash: c.passwordHash ?? (c.password === null ? null : await hashPassword(c.password)),
    subscriberCount: c.subscriberCount,
    createdAt: c.createdAt === null ? now : toDate(c.createdAt),
    deleted: c.deleted,
  });
  c.videoIds.forEach((videoId, position) => rows.channelVideos.push({ channelId: c.id, position, videoId }));
  c.vodVideoIds.forEach((videoId, position) => rows.channelVodVideos.push({ channelId: c.id, position, videoId }));
  for (const v of c.vast) rows.vast.push({ channelId: c.id, ...v });
  if (c.roku) rows.roku.push({ channelId: c.id, addedToRoku: c.roku.addedToRoku, lastUpdateDate: toDateOrNull(c.roku.lastUpdateDate) });
  for (const block of c.schedules) {
    rows.blocks.push({
      id: block.id,
      channelId: c.id,
      startLocal: wallToDb(block.startTime),
      published: block.published,
      loopDaily: block.loopDaily,
    });
    block.videoIds.forEach((videoId, position) => rows.blockVideos.push({ blockId: block.id, position, videoId }));
  }
  for (const live of c.liveStreams) {
    rows.liveStreams.push({ channelId: c.id, videoId: live.videoId, startAt: toDate(live.start), endAt: toDate(live.end), uri: live.uri });
  }
}

function addApp(rows: CatalogRows, blobs: BlobSet, a: CatalogApp, now: Date): void {
  rows.apps.push({
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
    apiKey: a.apiKey?.toLowerCase() ?? null,
    primaryColor: a.theme?.primaryColor ?? null,
    secondaryColor: a.theme?.secondaryColor ?? null,
    backgroundColor: a.theme?.backgroundColor ?? null,
    styleColor: a.theme?.styleColor ?? null,
    vodPpvEnabled: a.vodPpv.isEnabled,
    vodPpvAccessHours: a.vodPpv.accessDurationHours,
    vodPpvPreviewSeconds: a.vodPpv.previewSeconds,
    createdAt: a.createdAt === null ? now : toDate(a.createdAt),
  });
  if (a.mobile) rows.appMobile.push({ appId: a.id, ...a.mobile });
  for (const [role, base64] of Object.entries(a.images)) {
    if (base64 !== undefined) rows.appImages.push({ appId: a.id, role, blobSha256: blobs.add(base64) });
  }
  a.storeProducts.forEach((p, position) => rows.storeProducts.push({ appId: a.id, kind: 'subscription', position, ...p }));
  a.vodPpv.storeProducts.forEach((p, position) => rows.storeProducts.push({ appId: a.id, kind: 'ppv', position, ...p }));
  for (const [store, credentials] of Object.entries(a.storeCredentials)) {
    if (credentials) rows.storeCredentials.push({ appId: a.id, store: store as CredentialStore, credentials });
  }
  a.channels.forEach((c, position) =>
    rows.appChannels.push({
      appId: a.id,
      channelId: c.channelId,
      position,
      sorting: c.sorting,
      channelNumber: c.channelNumber,
      useVastSettings: c.useVastSettings,
      lastUpdateDate: toDateOrNull(c.lastUpdateDate),
    }),
  );
}

function addEntitlements(rows: CatalogRows, catalog: Catalog, now: Date): void {
  for (const s of catalog.entitlements.subscriptions) {
    rows.subscriptions.push({
      appId: s.appId,
      deviceId: s.deviceId,
      viewerId: s.viewerId,
      storePlatform: s.storePlatform,
      productId: s.productId,
      originalTransactionId: s.originalTransactionId,
      status: s.status,
      expiresAt: toDateOrNull(s.expiresUtc),
      updatedAt: now,
    });
  }
  for (const u of catalog.entitlements.ppvUnlocks) {
    rows.ppvUnlocks.push({
      appId: u.appId,
      videoId: u.videoId,
      channelId: u.channelId,
      deviceId: u.deviceId,
      viewerId: u.viewerId,
      storePlatform: u.storePlatform,
      productId: u.productId,
      transactionId: u.transactionId,
      // A PPV unlock always ends; a catalog that leaves it open gets the default 48 hours.
      expiresAt: u.expiresUtc === null ? new Date(now.getTime() + 48 * 3600_000) : toDate(u.expiresUtc),
      createdAt: now,
    });
  }
}
