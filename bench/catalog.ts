// The benchmark catalog: `scale` x (1,000 owners, 10,000 channels, 200,000 videos), a week of
// schedules per channel (today-3 .. today+3 in the channel's zone, plus a loopDaily block), live
// streams on air today, an app on every platform for every owner and VAST rows.
//
// Deterministic: everything but dates comes from a seeded PRNG, dates derive from `now` alone.
// The objects are written fully specified (every defaulted field present), so the same object is
// both a valid catalog file (the small size is validated by run.ts) and what validation would
// output, which lets the loader skip the validator at full size.
import { DateTime } from 'luxon';
import type { Catalog, CatalogAccount, CatalogApp, CatalogChannel, CatalogScheduleBlock, CatalogVast, CatalogVideo } from '../src/catalog/format.ts';
import { solidPng } from '../src/demo/png.ts';
import { APP_PLATFORMS, type AppPlatform, type StorePlatform } from '../src/vocabulary.ts';
import { mulberry32 } from '../src/random.ts';

/** Every owner's password. Its scrypt hash is precomputed: hashing 1,000 of them would take minutes. */
export const BENCH_PASSWORD = 'bench-password-1';
export const BENCH_HASH = 'scrypt:16384:8:1:0yr5j4dBi98PLaMP4e+ktw==:hcVfiNMTSwp4adjt1Tiy/P4BxQPuNOtu2wFOthNucnE=';

export const CHANNELS_PER_OWNER = 10;
const VIDEOS_PER_OWNER = 200;
const LIBRARY = VIDEOS_PER_OWNER / CHANNELS_PER_OWNER; // 20 videos per channel library
const VOD_PER_CHANNEL = 10;
const SCHEDULE_DAYS = [-3, -2, -1, 0, 1, 2, 3];
/** 'HH:mm' and slot minutes: blocks fill 85-100% of their slot, so they never overlap. */
const SLOTS = [
  ['06:00', 180],
  ['12:00', 180],
  ['18:00', 180],
] as const;
const LOOP_SLOT = ['00:30', 120] as const;
const ZONES = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Berlin',
  'Europe/London',
  'Asia/Tokyo',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'Asia/Kolkata',
  'Pacific/Auckland',
];
const CATEGORIES = ['News', 'Sports', 'Music', 'Kids', 'Documentary', 'Entertainment', 'Gaming', 'Travel', 'Food', 'Science'];
const LANGUAGES = [
  ['English', 'en'],
  ['Spanish', 'es'],
  ['German', 'de'],
  ['French', 'fr'],
  ['Japanese', 'ja'],
] as const;
const WORDS = ['Morning', 'Report', 'Live', 'Session', 'Highlights', 'Inside', 'Story', 'Weekly', 'Guide', 'Review', 'Night', 'Special'];
const PROVIDERS = ['YouTube', 'Vimeo', 'Custom'] as const;
const VAST_EXTRA = ['roku', 'mobile', 'firetv', 'appletv', 'androidtv'] as const;
const STORE: Record<AppPlatform, StorePlatform> = {
  mobile: 'Apple',
  roku: 'Roku',
  firetv: 'Amazon',
  appletv: 'Apple',
  androidtv: 'Google',
};
/** One tiny PNG shared by every image: blobs are content-addressed, so it is stored once. */
export const PNG = solidPng(8, 8, '336699').toString('base64');

export interface BenchChannel {
  id: number;
  zone: string;
}
export interface BenchOwner {
  id: number;
  username: string;
  channels: BenchChannel[];
  /** Whether the owner's fire-tv app has VOD pay-per-view on (the vod route then checks unlocks). */
  ppv: boolean;
}
export interface BenchCatalog {
  catalog: Catalog;
  owners: BenchOwner[];
  counts: Record<string, number>;
}

const iso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function benchCatalog(scale: number, now: Date, seed = 0xbe4c_0001): BenchCatalog {
  const ownerCount = Math.max(1, Math.round(1000 * scale));
  const g = new Generator(now, mulberry32(seed));
  const owners: BenchOwner[] = [];
  for (let i = 0; i < ownerCount; i++) owners.push(g.owner(i + 1));
  const { catalog } = g;
  const counts = {
    owners: catalog.accounts.length,
    channels: catalog.channels.length,
    videos: catalog.videos.length,
    scheduleBlocks: catalog.channels.reduce((n, c) => n + c.schedules.length, 0),
    liveStreams: catalog.channels.reduce((n, c) => n + c.liveStreams.length, 0),
    apps: catalog.apps.length,
    vastRows: catalog.channels.reduce((n, c) => n + c.vast.length, 0),
  };
  return { catalog, owners, counts };
}

class Generator {
  readonly catalog: Catalog = {
    format: 'channel-network-catalog',
    version: 1,
    accounts: [],
    categories: CATEGORIES.map((name, i) => ({ id: i + 1, name })),
    languages: LANGUAGES.map(([name, code], i) => ({ id: i + 1, name, code })),
    videos: [],
    channels: [],
    apps: [],
    entitlements: { subscriptions: [], ppvUnlocks: [] },
  };
  private nextVideo = 1;
  private nextChannel = 1;
  private nextBlock = 1;
  private nextApp = 1;
  private readonly hour: number;
  /** 'yyyy-MM-dd' per zone and day offset; luxon is slow enough to matter 70,000 times. */
  private readonly dates = new Map<string, string>();

  constructor(
    private readonly now: Date,
    private readonly rand: () => number,
  ) {
    this.hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)]!;
  }

  private localDate(zone: string, offset: number): string {
    const key = `${zone}|${offset}`;
    let date = this.dates.get(key);
    if (date === undefined) {
      date = DateTime.fromJSDate(this.now, { zone }).startOf('day').plus({ days: offset }).toFormat('yyyy-MM-dd');
      this.dates.set(key, date);
    }
    return date;
  }

  owner(id: number): BenchOwner {
    const account: CatalogAccount = {
      id,
      username: `owner${id}`,
      email: `owner${id}@bench.invalid`,
      passwordHash: BENCH_HASH,
      publicUrl: `owner-${id}`,
      fullName: `Owner ${id}`,
      publicName: `Network ${id}`,
      status: 'active',
      servicePlanActive: true,
      branding: {
        title: `Network ${id}`,
        hex1: '336699',
        hex2: 'eeeeee',
        hex3: '112233',
        fontColor: 'ffffff',
        headerBackground: '112233',
        faq: null,
        privacyPolicy: `https://owner${id}.invalid/privacy`,
        logoHeader: PNG,
        logoAndroid: null,
        useVastSettings: id % 2 === 0,
      },
      appTokens: [],
      favorites: [],
    };
    this.catalog.accounts.push(account);
    const videos = Array.from({ length: VIDEOS_PER_OWNER }, (_, k) => this.video(id, k));
    const channels: CatalogChannel[] = [];
    for (let k = 0; k < CHANNELS_PER_OWNER; k++) channels.push(this.channel(id, k, videos.slice(k * LIBRARY, (k + 1) * LIBRARY)));
    const ppv = id % 10 === 0;
    for (const platform of APP_PLATFORMS) this.app(id, platform, channels, ppv);
    return { id, username: account.username, channels: channels.map((c) => ({ id: c.id, zone: c.timezone })), ppv };
  }

  private video(ownerId: number, k: number): CatalogVideo {
    const id = this.nextVideo++;
    const providerName = PROVIDERS[k % 3]!;
    const custom = providerName === 'Custom';
    const providerVideoId = custom ? `o${ownerId}-v${k}` : String(100_000_000 + id);
    const video: CatalogVideo = {
      id,
      ownerId,
      title: `${this.pick(WORDS)} ${this.pick(WORDS)} ${id}`,
      description: k % 4 === 0 ? null : `Episode ${k} of network ${ownerId}.`,
      // 5 to 40 minutes, whole seconds: an average block of 3 hours holds about 7 videos.
      durationSeconds: 300 + Math.floor(this.rand() * 2100),
      thumbnailUrl: `https://thumbs.invalid/${providerVideoId}.jpg`,
      providerName,
      providerVideoId,
      categoryId: 1 + (k % CATEGORIES.length),
      streamUrl: custom ? `https://media.invalid/${providerVideoId}/master.m3u8` : null,
      isPrivate: false,
      isRRated: k % 50 === 7,
      isRemovedByProvider: false,
      isRestrictedByProvider: false,
      renditions: [],
    };
    this.catalog.videos.push(video);
    return video;
  }

  private channel(ownerId: number, k: number, library: CatalogVideo[]): CatalogChannel {
    const id = this.nextChannel++;
    const zone = this.pick(ZONES);
    const ids = library.map((v) => v.id);
    const channel: CatalogChannel = {
      id,
      ownerId,
      name: `Network ${ownerId} ${this.pick(WORDS)} ${k}`,
      url: `channel-${k}`,
      categoryId: 1 + Math.floor(this.rand() * CATEGORIES.length),
      languageId: 1 + Math.floor(this.rand() * LANGUAGES.length),
      pictureUrl: `https://img.invalid/channels/${id}.jpg`,
      description: `Channel ${k} of network ${ownerId}.`,
      order: k,
      timezone: zone,
      isWhiteLabeled: false,
      playLiveFirst: k === 0,
      isVerified: k % 3 === 0,
      keepGuideOpened: false,
      guideMode: 'default',
      password: null,
      passwordHash: null,
      subscriberCount: Math.floor(this.rand() * 50_000),
      createdAt: iso(this.hour - (30 + Math.floor(this.rand() * 900)) * 86_400_000),
      deleted: false,
      videoIds: ids,
      vodVideoIds: ids.slice(0, VOD_PER_CHANNEL),
      vast: this.vast(id, k),
      roku: { addedToRoku: k % 2 === 0, lastUpdateDate: iso(this.hour - k * 86_400_000) },
      schedules: this.week(zone, library),
      // One channel in four is on air live right now (started up to 45 minutes ago).
      liveStreams: k % 4 === 0 ? [this.live(library)] : [],
    };
    this.catalog.channels.push(channel);
    return channel;
  }

  private vast(channelId: number, k: number): CatalogVast[] {
    const platforms = ['web', VAST_EXTRA[k % 5]!, VAST_EXTRA[(k + 2) % 5]!] as const;
    return platforms.map((platform, i) => ({
      platform,
      vastUrl: `https://ads.invalid/vast?ch=${channelId}&pf=${platform}&cb=[CACHEBUSTING]`,
      vastVersion: 1 + i,
      skippable: i === 0,
      adFrequency: 3,
      midRollFrequency: i === 1 ? 20 : 0,
      slottable: i === 2,
      timeFrom: i === 2 ? 6 : null,
      timeTo: i === 2 ? 22 : null,
      vastType: 'fullscreen',
      allowAdsInVod: i === 0,
    }));
  }

  /** Videos from the library in rotation until 85% of the slot is filled. */
  private fill(library: CatalogVideo[], minutes: number, cursor: { i: number }): number[] {
    const target = minutes * 60;
    const ids: number[] = [];
    let total = 0;
    for (let misses = 0; total < target * 0.85 && misses < library.length;) {
      const video = library[cursor.i++ % library.length]!;
      if (total + video.durationSeconds <= target) {
        ids.push(video.id);
        total += video.durationSeconds;
        misses = 0;
      } else misses++;
    }
    return ids;
  }

  private block(date: string, at: string, videoIds: number[], loopDaily: boolean, published = true): CatalogScheduleBlock {
    return { id: this.nextBlock++, startTime: `${date}T${at}:00`, published, loopDaily, videoIds };
  }

  private week(zone: string, library: CatalogVideo[]): CatalogScheduleBlock[] {
    const cursor = { i: Math.floor(this.rand() * library.length) };
    const loop = this.block(this.localDate(zone, SCHEDULE_DAYS[0]!), LOOP_SLOT[0], this.fill(library, LOOP_SLOT[1], cursor), true);
    const dated = SCHEDULE_DAYS.flatMap((d) =>
      // The last day is still a draft on some channels, as in a real studio.
      SLOTS.map(([at, minutes]) => this.block(this.localDate(zone, d), at, this.fill(library, minutes, cursor), false, !(d === 3 && cursor.i % 3 === 0))),
    );
    return [loop, ...dated];
  }

  private live(library: CatalogVideo[]) {
    const start = Math.floor(this.now.getTime() / 300_000) * 300_000 - Math.floor(this.rand() * 10) * 300_000;
    const video = library.find((v) => v.providerName === 'Custom') ?? library[0]!;
    return { videoId: video.id, start: iso(start), end: iso(start + 2 * 3_600_000), uri: `https://live.invalid/${video.providerVideoId}/index.m3u8` };
  }

  private app(ownerId: number, platform: AppPlatform, channels: CatalogChannel[], ppv: boolean): void {
    const id = this.nextApp++;
    const tv = platform !== 'mobile';
    const numbered = tv && platform !== 'roku';
    const product = (billingPeriod: 'Monthly' | 'Yearly') => ({
      storePlatform: STORE[platform],
      productId: `com.bench.o${ownerId}.${platform}.${billingPeriod.toLowerCase()}`,
      displayName: `Premium (${billingPeriod.toLowerCase()})`,
      billingPeriod,
      isActive: true,
    });
    const withPpv = ppv && platform === 'firetv';
    const app: CatalogApp = {
      id,
      ownerId,
      platform,
      appName: `Network ${ownerId}`,
      slug: `network-${ownerId}-${platform}`,
      about: `Network ${ownerId} on every screen.`,
      privacyPolicyLink: `https://owner${ownerId}.invalid/privacy`,
      isPaid: false,
      timeFormat: '12-hour',
      adLink: platform === 'roku' ? `https://ads.invalid/vast?app=${id}` : null,
      apiKey: platform === 'roku' ? `00000000-0000-4000-8000-${String(id).padStart(12, '0')}` : null,
      // Android TV has no background colour; theme null there means stock colours.
      theme: tv && platform !== 'androidtv' ? { primaryColor: 'f5a623', secondaryColor: '9aa5b1', backgroundColor: '0b1f3a', styleColor: 'ffffff' } : null,
      mobile: tv
        ? null
        : {
            selectionColor: 'f5a623',
            headerFooterColor: '0b1f3a',
            backgroundColor: '10243f',
            fontColor: 'ffffff',
            copyrightPolicyLink: null,
            gdprLink: null,
            supportEmail: `support@owner${ownerId}.invalid`,
            faqLink: null,
            termsLink: null,
            instagram: null,
            facebook: null,
            twitter: null,
          },
      images:
        platform === 'roku'
          ? { avatarHd: PNG, avatarSd: PNG }
          : tv
            ? { logo: PNG, icon: PNG, backgroundImage: PNG, image1: PNG, image2: PNG }
            : { logo: PNG, icon: PNG, headerLogo: PNG },
      storeProducts: [product('Monthly'), product('Yearly')],
      vodPpv: {
        isEnabled: withPpv,
        accessDurationHours: 48,
        previewSeconds: withPpv ? 120 : 0,
        storeProducts: withPpv ? [{ storePlatform: 'Amazon', productId: `com.bench.o${ownerId}.rental`, displayName: 'Rental', billingPeriod: 'OneTime', isActive: true }] : [],
      },
      storeCredentials: {},
      // Every channel of the owner, in the owner's order; TV apps number them like a cable guide.
      channels: channels.map((c, i) => ({
        channelId: c.id,
        sorting: i + 1,
        channelNumber: numbered ? String(101 + i) : null,
        useVastSettings: tv,
        lastUpdateDate: iso(this.hour - i * 86_400_000),
      })),
      createdAt: iso(this.hour - 400 * 86_400_000),
    };
    this.catalog.apps.push(app);
  }
}
