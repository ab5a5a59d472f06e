// The `--network N` catalog (issue 13): ONE creator running N channels, which is what every
// viewer's app opens on. Each channel: a 24-hour loopDaily block of 144 ten-minute videos
// (starting at a different ten-minute mark per channel, so blocks run past midnight), a 30-video
// library, a 60-video VOD catalog, VAST rows on three platforms; one channel in ten has a live
// stream on air now. Channel zones cycle through four zones; a Roku app carries every channel.
// Deterministic: dates derive from `now` alone.
//
// Past OWNER_CHANNELS (the 1,000-channel owner bound, src/catalog/owner-bounds.ts) the network is
// several creators of PER_OWNER channels each, every one like the 200-channel network (its own
// videos and Roku app): the 2,000-channel run then asks answers of the same size as the
// 200-channel run, from a service and database holding ten times as much.
import { DateTime } from 'luxon';
import type { Catalog, CatalogApp, CatalogChannel, CatalogVast, CatalogVideo } from '../src/catalog/format.ts';
import { BENCH_HASH, PNG } from './catalog.ts';

export const NETWORK_ZONES = ['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'UTC'];
export const NETWORK_OWNER = { id: 1, username: 'network' };
const OWNER_CHANNELS = 1_000;
const PER_OWNER = 200;
const POOL = 600; // the creator's videos; each channel draws its library and VOD from them
const LIBRARY = 30;
const VOD = 60;
const ENTRIES = 144; // 144 x 10 minutes = 24 hours

export interface NetworkChannel {
  id: number;
  zone: string;
  /** Its creator: NETWORK_OWNER up to 1,000 channels, else one of several (see above). */
  ownerId: number;
}

export interface NetworkCatalog {
  catalog: Catalog;
  channels: NetworkChannel[];
  rokuAppId: number;
  counts: Record<string, number>;
}

const iso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

function video(id: number, ownerId: number): CatalogVideo {
  const custom = id % 3 === 0;
  const providerVideoId = custom ? `net-${id}` : String(200_000_000 + id);
  return {
    id,
    ownerId,
    title: `Episode ${id}`,
    description: id % 4 === 0 ? null : `Episode ${id} of the network.`,
    durationSeconds: 600,
    thumbnailUrl: `https://thumbs.invalid/${providerVideoId}.jpg`,
    providerName: custom ? 'Custom' : 'YouTube',
    providerVideoId,
    categoryId: 1 + (id % 3),
    streamUrl: custom ? `https://media.invalid/${providerVideoId}/master.m3u8` : null,
    isPrivate: false,
    isRRated: false,
    isRemovedByProvider: false,
    isRestrictedByProvider: false,
    renditions: [],
  };
}

function vast(channelId: number): CatalogVast[] {
  return (['web', 'roku', 'mobile'] as const).map((platform, i) => ({
    platform,
    vastUrl: `https://ads.invalid/vast?ch=${channelId}&pf=${platform}&cb=[CACHEBUSTING]`,
    vastVersion: 1 + i,
    skippable: i === 0,
    adFrequency: 3,
    midRollFrequency: 0,
    slottable: false,
    timeFrom: null,
    timeTo: null,
    vastType: 'fullscreen',
    allowAdsInVod: i === 0,
  }));
}

/** Owner o (1-based) of `owners`: its videos are POOL ids from (o - 1) * POOL + 1. */
function channel(k: number, now: Date, perOwner: number): CatalogChannel {
  const id = k + 1;
  const ownerIndex = Math.floor(k / perOwner);
  const firstVideo = ownerIndex * POOL + 1;
  const zone = NETWORK_ZONES[k % NETWORK_ZONES.length]!;
  const library = Array.from({ length: LIBRARY }, (_, i) => firstVideo + ((k * 7 + i) % POOL));
  const vod = Array.from({ length: VOD }, (_, i) => firstVideo + ((k * 11 + i) % POOL));
  const firstDay = DateTime.fromJSDate(now, { zone }).minus({ days: 7 }).toFormat('yyyy-MM-dd');
  const startMinute = (k % 6) * 10;
  const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  return {
    id,
    ownerId: NETWORK_OWNER.id + ownerIndex,
    name: `Network channel ${id}`,
    url: `channel-${id}`,
    categoryId: 1 + (k % 3),
    languageId: 1,
    pictureUrl: `https://img.invalid/channels/${id}.jpg`,
    description: `Channel ${id} of the network.`,
    order: k,
    timezone: zone,
    isWhiteLabeled: false,
    playLiveFirst: false,
    isVerified: k % 3 === 0,
    keepGuideOpened: false,
    guideMode: 'default',
    password: null,
    passwordHash: null,
    subscriberCount: (k * 7919) % 50_000,
    createdAt: iso(hour - (30 + k) * 86_400_000),
    deleted: false,
    videoIds: library,
    vodVideoIds: vod,
    vast: vast(id),
    roku: { addedToRoku: true, lastUpdateDate: iso(hour) },
    schedules: [
      {
        id,
        startTime: `${firstDay}T00:${String(startMinute).padStart(2, '0')}:00`,
        published: true,
        loopDaily: true,
        videoIds: Array.from({ length: ENTRIES }, (_, i) => library[i % LIBRARY]!),
      },
    ],
    liveStreams: k % 10 === 0 ? [{ videoId: library[0]!, start: iso(hour - 1_800_000), end: iso(hour + 7_200_000), uri: `https://live.invalid/${id}/index.m3u8` }] : [],
  };
}

function rokuApp(channels: CatalogChannel[], now: Date, ownerId: number): CatalogApp {
  const hour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  const n = ownerId - NETWORK_OWNER.id; // 0 for the first creator: its app is as before
  return {
    id: 1 + n,
    ownerId,
    platform: 'roku',
    appName: 'Network',
    slug: n === 0 ? 'network-roku' : `network-roku-${n + 1}`,
    about: 'The network on Roku.',
    privacyPolicyLink: 'https://network.invalid/privacy',
    isPaid: false,
    timeFormat: '12-hour',
    adLink: `https://ads.invalid/vast?app=${1 + n}`,
    apiKey: `00000000-0000-4000-8000-${String(1 + n).padStart(12, '0')}`,
    theme: { primaryColor: 'f5a623', secondaryColor: '9aa5b1', backgroundColor: '0b1f3a', styleColor: 'ffffff' },
    mobile: null,
    images: { avatarHd: PNG, avatarSd: PNG },
    storeProducts: [],
    vodPpv: { isEnabled: false, accessDurationHours: 48, previewSeconds: 0, storeProducts: [] },
    storeCredentials: {},
    channels: channels.map((c, i) => ({ channelId: c.id, sorting: i + 1, channelNumber: null, useVastSettings: true, lastUpdateDate: iso(hour - i * 60_000) })),
    createdAt: iso(hour - 400 * 86_400_000),
  };
}

export function networkCatalog(channelCount: number, now: Date): NetworkCatalog {
  const perOwner = channelCount > OWNER_CHANNELS ? PER_OWNER : channelCount;
  const owners = Math.ceil(channelCount / perOwner);
  const channels = Array.from({ length: channelCount }, (_, k) => channel(k, now, perOwner));
  const ownerIds = Array.from({ length: owners }, (_, o) => NETWORK_OWNER.id + o);
  const account = (id: number) => {
    const n = id - NETWORK_OWNER.id;
    const suffix = n === 0 ? '' : String(n + 1);
    return {
      id,
      username: `${NETWORK_OWNER.username}${suffix}`,
      email: `network${suffix}@bench.invalid`,
      passwordHash: BENCH_HASH,
      publicUrl: `network${suffix}`,
      fullName: 'The Network',
      publicName: 'The Network',
      status: 'active' as const,
      servicePlanActive: true,
      branding: {
        title: 'The Network',
        hex1: '336699',
        hex2: 'eeeeee',
        hex3: '112233',
        fontColor: 'ffffff',
        headerBackground: '112233',
        faq: null,
        privacyPolicy: 'https://network.invalid/privacy',
        logoHeader: PNG,
        logoAndroid: null,
        useVastSettings: true,
      },
      appTokens: [],
      favorites: [],
    };
  };
  const catalog: Catalog = {
    format: 'channel-network-catalog',
    version: 1,
    accounts: ownerIds.map(account),
    categories: [
      { id: 1, name: 'News' },
      { id: 2, name: 'Sports' },
      { id: 3, name: 'Music' },
    ],
    languages: [{ id: 1, name: 'English', code: 'en' }],
    videos: ownerIds.flatMap((ownerId, o) => Array.from({ length: POOL }, (_, i) => video(o * POOL + i + 1, ownerId))),
    channels,
    apps: ownerIds.map((ownerId) =>
      rokuApp(
        channels.filter((c) => c.ownerId === ownerId),
        now,
        ownerId,
      ),
    ),
    entitlements: { subscriptions: [], ppvUnlocks: [] },
  };
  const counts = {
    owners,
    channels: channelCount,
    videos: POOL * owners,
    scheduleEntries: channelCount * ENTRIES,
    liveStreams: channels.reduce((n, c) => n + c.liveStreams.length, 0),
    vastRows: channelCount * 3,
  };
  return { catalog, channels: channels.map((c) => ({ id: c.id, zone: c.timezone, ownerId: c.ownerId })), rokuAppId: 1, counts };
}
