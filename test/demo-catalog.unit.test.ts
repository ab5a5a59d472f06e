import { inflateSync } from 'node:zlib';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogSchema, type CatalogInput } from '../src/catalog/format.ts';
import { EMPTY_EXISTING, validateCatalog } from '../src/catalog/validate.ts';
import { DEMO_LOGINS, demoCatalog } from '../src/demo/catalog.ts';
import { CREDENTIAL_KEYS } from '../src/entitlements/stores/index.ts';
import { gradientPng, solidPng } from '../src/demo/png.ts';

type Item<L> = NonNullable<L> extends readonly (infer T)[] ? T : never;
type Channel = Item<CatalogInput['channels']>;
type Video = Item<CatalogInput['videos']>;

const NOW = new Date('2026-11-21T15:37:12.345Z');
// Awkward instants: DST switch days, local midnights of the channel zones, year end.
const EDGE_NOWS = [
  '2026-03-08T06:30:00Z', // New York springs forward
  '2026-03-29T00:59:59Z', // Berlin springs forward
  '2026-04-04T15:59:00Z', // Sydney falls back at 03:00 local the next morning
  '2026-11-01T05:30:00Z', // New York falls back
  '2026-06-15T04:01:00Z', // 00:01 in New York
  '2026-06-15T06:58:00Z', // 23:58 in Los Angeles
  '2026-12-31T23:59:59Z',
].map((s) => new Date(s));

const cat = demoCatalog(NOW);
const videos = new Map((cat.videos ?? []).map((v) => [v.id, v]));
const channels = cat.channels ?? [];
const zoneOf = (c: Channel): string => c.timezone ?? 'UTC';
const todayIn = (now: Date, zone: string): string => DateTime.fromJSDate(now, { zone }).toFormat('yyyy-MM-dd');
const seconds = (id: number): number => videos.get(id)!.durationSeconds;
const local = (wall: string, zone: string): DateTime => DateTime.fromISO(wall, { zone });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('determinism', () => {
  it('gives byte-identical JSON for the same now, whatever the clock says and without Math.random', () => {
    const random = vi.spyOn(Math, 'random');
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
    const a = JSON.stringify(demoCatalog(new Date(NOW)));
    vi.setSystemTime(new Date('2039-07-04T12:00:00Z'));
    const b = JSON.stringify(demoCatalog(new Date(NOW)));
    expect(b).toBe(a);
    expect(JSON.stringify(cat)).toBe(a);
    expect(random).not.toHaveBeenCalled();
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(cat))).toEqual(cat);
  });

  it('moves the dates with the day of now, and only the dates', () => {
    const tomorrow = demoCatalog(new Date(NOW.getTime() + 86_400_000));
    expect(JSON.stringify(tomorrow)).not.toBe(JSON.stringify(cat));
    const dates = (c: CatalogInput) => (c.channels ?? []).flatMap((ch) => (ch.schedules ?? []).map((s) => s.startTime.slice(0, 10)));
    const shifted = dates(cat).map((d) => DateTime.fromISO(d).plus({ days: 1 }).toFormat('yyyy-MM-dd'));
    expect(dates(tomorrow)).toEqual(shifted);
    expect(tomorrow.videos?.map((v) => [v.title, v.providerVideoId, v.durationSeconds])).toEqual(cat.videos?.map((v) => [v.title, v.providerVideoId, v.durationSeconds]));
  });
});

describe('validity', () => {
  it.each([NOW, ...EDGE_NOWS])('parses with the catalog schema and passes the cross checks (now %s)', (now) => {
    const c = demoCatalog(now);
    const parsed = catalogSchema.safeParse(c);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const result = validateCatalog(c, EMPTY_EXISTING);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('every image is a PNG and stays small', () => {
    const images: string[] = [];
    for (const a of cat.accounts ?? []) if (a.branding) images.push(...[a.branding.logoHeader, a.branding.logoAndroid].filter((x) => typeof x === 'string'));
    for (const app of cat.apps ?? []) images.push(...Object.values(app.images ?? {}).filter((x) => typeof x === 'string'));
    expect(images.length).toBeGreaterThan(20);
    for (const img of images) {
      const bytes = Buffer.from(img, 'base64');
      expect(checkPng(bytes).width).toBeGreaterThan(0);
      expect(bytes.length).toBeLessThan(2_000);
    }
    expect(JSON.stringify(cat).length).toBeLessThan(200_000);
  });
});

describe('accounts', () => {
  const accounts = cat.accounts ?? [];
  const owners = accounts.filter((a) => DEMO_LOGINS.some((l) => l.role === 'owner' && l.username === a.username));

  it('every demo login is an account with that email and plain password', () => {
    for (const l of DEMO_LOGINS) {
      const a = accounts.find((x) => x.username === l.username);
      expect(a, l.username).toMatchObject({ email: l.email, password: l.password });
    }
    expect(DEMO_LOGINS).toContainEqual({ username: 'demo', email: 'demo@channelnet.example', password: 'demo1234', role: 'owner' });
    expect(DEMO_LOGINS.filter((l) => l.role === 'viewer').length).toBeGreaterThanOrEqual(2);
  });

  it('has 3+ branded creators, one without an active service plan', () => {
    expect(owners.length).toBeGreaterThanOrEqual(3);
    for (const o of owners) {
      expect(o.publicUrl).toMatch(/^[a-z0-9-]+$/);
      expect(o.fullName).toBeTruthy();
      expect(o.publicName).toBeTruthy();
      expect(o.branding?.hex1).toMatch(/^[0-9a-f]{6}$/);
      expect(o.branding?.logoHeader).toBeTruthy();
      expect(channels.some((c) => c.ownerId === o.id)).toBe(true);
    }
    expect(owners.filter((o) => o.servicePlanActive === false)).toHaveLength(1);
  });

  it('the main owner has favorites and the Roku archive token', () => {
    const demo = accounts.find((a) => a.username === 'demo')!;
    expect(demo.favorites?.length).toBeGreaterThanOrEqual(2);
    expect(demo.appTokens).toEqual([{ token: expect.stringMatching(/^[0-9a-f-]{36}$/), label: 'Roku archive' }]);
  });
});

describe('videos', () => {
  const list = cat.videos ?? [];
  const by = (p: string): Video[] => list.filter((v) => v.providerName === p);

  it('has 60+ videos from YouTube, Vimeo and Custom, some with fractional durations', () => {
    expect(list.length).toBeGreaterThanOrEqual(60);
    expect(by('YouTube').length).toBeGreaterThan(10);
    expect(by('Vimeo').length).toBeGreaterThan(10);
    expect(by('Custom').length).toBeGreaterThan(10);
    expect(list.filter((v) => !Number.isInteger(v.durationSeconds)).length).toBeGreaterThan(10);
    expect(list.filter((v) => v.description === null).length).toBeGreaterThan(2);
    expect(new Set(list.map((v) => v.ownerId)).size).toBeGreaterThanOrEqual(3);
    for (const v of list) expect(v.thumbnailUrl).toMatch(/^https:\/\//);
  });

  it('uses provider-shaped ids and HLS stream URLs for self-hosted media', () => {
    for (const v of by('YouTube')) expect(v.providerVideoId).toMatch(/^[A-Za-z0-9_-]{10}[AEIMQUYcgkosw048]$/);
    for (const v of by('Vimeo')) expect(v.providerVideoId).toMatch(/^\d{9}$/);
    for (const v of by('Custom')) expect(v.streamUrl).toMatch(/^https:\/\/[a-z]+\.example\/.+\.m3u8$/);
    for (const v of [...by('YouTube'), ...by('Vimeo')]) expect(v.streamUrl ?? null).toBeNull();
  });

  it('caches renditions at the client widths, some expired and some not', () => {
    const renditions = list.flatMap((v) => v.renditions ?? []);
    expect(new Set(renditions.map((r) => r.width))).toEqual(new Set([1280, 960, 640, 426]));
    expect(renditions.some((r) => Date.parse(r.expiresUtc) < NOW.getTime())).toBe(true);
    expect(renditions.some((r) => Date.parse(r.expiresUtc) > NOW.getTime())).toBe(true);
  });
});

describe('channels', () => {
  const live = channels.filter((c) => !c.deleted);

  it('has 8 channels in several zones, with private, VOD-only and deleted ones', () => {
    expect(channels).toHaveLength(8);
    expect(new Set(channels.map(zoneOf)).size).toBeGreaterThanOrEqual(5);
    expect(channels.filter((c) => c.password === 'letmein')).toHaveLength(1);
    const vodOnly = channels.filter((c) => !c.deleted && (c.vodVideoIds ?? []).length > 0 && (c.schedules ?? []).length === 0);
    expect(vodOnly).toHaveLength(1);
    expect(vodOnly[0]!.liveStreams ?? []).toEqual([]);
    expect(channels.filter((c) => c.deleted)).toHaveLength(1);
  });

  it('schedule and VOD videos belong to the channel owner', () => {
    for (const c of channels) {
      const ids = [...(c.videoIds ?? []), ...(c.vodVideoIds ?? []), ...(c.schedules ?? []).flatMap((s) => s.videoIds)];
      for (const id of ids) expect(videos.get(id)?.ownerId, `${c.id}: ${id}`).toBe(c.ownerId);
    }
  });

  it.each([NOW, ...EDGE_NOWS])('several channels have a published block on their local today (now %s)', (now) => {
    const c = demoCatalog(now);
    const withToday = (c.channels ?? []).filter((ch) => !ch.deleted && (ch.schedules ?? []).some((s) => s.published !== false && s.startTime.startsWith(todayIn(now, zoneOf(ch)))));
    expect(withToday.length).toBeGreaterThanOrEqual(5);
  });

  it('schedules cover the next 7 local days, with earlier days, loops, drafts, repeats and a midnight crossing', () => {
    const scheduled = live.filter((c) => (c.schedules ?? []).length > 0);
    for (const c of scheduled) {
      const zone = zoneOf(c);
      const today = DateTime.fromJSDate(NOW, { zone }).startOf('day');
      const days = new Set((c.schedules ?? []).map((s) => Math.round(local(s.startTime.slice(0, 10), zone).diff(today, 'days').days)));
      for (let d = 0; d < 7; d++) expect(days.has(d), `${c.id} day ${d}`).toBe(true);
      expect(Math.min(...days)).toBeGreaterThanOrEqual(-3);
      expect(Math.max(...days)).toBe(6);
    }
    const blocks = live.flatMap((c) => (c.schedules ?? []).map((s) => ({ c, s })));
    expect(blocks.some(({ c, s }) => s.startTime.slice(0, 10) < todayIn(NOW, zoneOf(c)))).toBe(true);
    const loops = blocks.filter(({ s }) => s.loopDaily);
    expect(loops.length).toBeGreaterThanOrEqual(2);
    for (const { c, s } of loops) expect(s.startTime.slice(0, 10) < todayIn(NOW, zoneOf(c))).toBe(true);
    expect(blocks.some(({ s }) => s.published === false)).toBe(true);
    expect(blocks.some(({ s }) => new Set(s.videoIds).size < s.videoIds.length)).toBe(true);
    const crossesMidnight = blocks.some(({ c, s }) => {
      const start = local(s.startTime, zoneOf(c));
      const end = start.plus({ milliseconds: s.videoIds.reduce((t, id) => t + seconds(id), 0) * 1000 });
      return end.toFormat('yyyy-MM-dd') > start.toFormat('yyyy-MM-dd');
    });
    expect(crossesMidnight).toBe(true);
  });

  it('blocks of a channel never overlap, loops included', () => {
    for (const c of channels) {
      const zone = zoneOf(c);
      const today = DateTime.fromJSDate(NOW, { zone }).startOf('day');
      const runs: Array<[number, number, number]> = [];
      for (const s of c.schedules ?? []) {
        const start = local(s.startTime, zone);
        const length = s.videoIds.reduce((t, id) => t + seconds(id), 0) * 1000;
        const lastDay = s.loopDaily ? 7 : Math.round(start.startOf('day').diff(today, 'days').days);
        for (let d = Math.round(start.startOf('day').diff(today, 'days').days); d <= lastDay; d++) {
          const occurrence = today.plus({ days: d }).set({ hour: start.hour, minute: start.minute }).toMillis();
          runs.push([occurrence, occurrence + length, s.id]);
        }
      }
      runs.sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < runs.length; i++) {
        expect(runs[i]![0], `channel ${c.id}: block ${runs[i]![2]} overlaps ${runs[i - 1]![2]}`).toBeGreaterThanOrEqual(runs[i - 1]![1]);
      }
    }
  });

  it('has live streams today: one on air now and one later today', () => {
    const streams = live.flatMap((c) => (c.liveStreams ?? []).map((l) => ({ c, l })));
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams.some(({ l }) => Date.parse(l.start) <= NOW.getTime() && NOW.getTime() < Date.parse(l.end))).toBe(true);
    expect(streams.some(({ l }) => Date.parse(l.start) > NOW.getTime())).toBe(true);
    for (const { l } of streams) expect(videos.get(l.videoId)).toBeDefined();
  });

  it.each([NOW, ...EDGE_NOWS])('every live stream starts on its local today and one is on air (now %s)', (now) => {
    const c = demoCatalog(now);
    const streams = (c.channels ?? []).flatMap((ch) => (ch.liveStreams ?? []).map((l) => ({ ch, l })));
    for (const { ch, l } of streams) {
      expect(l.start).toMatch(/Z$/);
      expect(DateTime.fromISO(l.start, { zone: zoneOf(ch) }).toFormat('yyyy-MM-dd')).toBe(todayIn(now, zoneOf(ch)));
      expect(Date.parse(l.end)).toBeGreaterThan(Date.parse(l.start));
    }
    expect(streams.some(({ l }) => Date.parse(l.start) <= now.getTime() && now.getTime() < Date.parse(l.end))).toBe(true);
  });

  it('has VAST settings on several platforms, some slotted, and legacy Roku settings', () => {
    const vast = channels.flatMap((c) => c.vast ?? []);
    expect(new Set(vast.map((v) => v.platform))).toEqual(new Set(['web', 'roku', 'mobile', 'firetv', 'appletv', 'androidtv']));
    for (const v of vast) expect(v.vastUrl).toMatch(/^https:\/\/ads\.example\/vast\?/);
    expect(vast.filter((v) => v.slottable && v.timeFrom != null && v.timeTo != null).length).toBeGreaterThanOrEqual(2);
    expect(channels.filter((c) => c.roku).length).toBeGreaterThanOrEqual(2);
  });
});

describe('apps and entitlements', () => {
  const apps = cat.apps ?? [];
  const main = apps.filter((a) => a.ownerId === cat.accounts?.find((x) => x.username === 'demo')?.id);

  it('gives the main owner one app per platform', () => {
    expect(main.map((a) => a.platform).sort()).toEqual(['androidtv', 'appletv', 'firetv', 'mobile', 'roku']);
    for (const a of main) expect((a.channels ?? []).length).toBeGreaterThan(0);
    expect(main.find((a) => a.platform === 'androidtv')!.theme).not.toHaveProperty('backgroundColor');
    expect(main.find((a) => a.platform === 'mobile')!.mobile).toBeTruthy();
    expect(apps.some((a) => a.platform === 'roku' && a.ownerId !== main[0]!.ownerId && a.theme === null)).toBe(true);
  });

  it('enables VOD PPV on exactly one app and marks exactly one app paid', () => {
    const ppv = apps.filter((a) => a.vodPpv?.isEnabled);
    expect(ppv).toHaveLength(1);
    expect(ppv[0]!.vodPpv).toMatchObject({ accessDurationHours: 48, previewSeconds: 120 });
    expect(ppv[0]!.vodPpv!.storeProducts!.every((p) => p.billingPeriod === 'OneTime')).toBe(true);
    expect(apps.filter((a) => a.isPaid)).toHaveLength(1);
  });

  it('has store products of every store and period, one inactive, and fake credentials', () => {
    const products = apps.flatMap((a) => a.storeProducts ?? []);
    expect(new Set(products.map((p) => p.storePlatform))).toEqual(new Set(['Apple', 'Google', 'Amazon', 'Roku']));
    expect(new Set(products.map((p) => p.billingPeriod))).toEqual(new Set(['Weekly', 'Monthly', 'Yearly']));
    expect(products.filter((p) => p.isActive === false)).toHaveLength(1);
    expect(main.find((a) => a.platform === 'mobile')!.storeCredentials?.apple).toMatchObject({ environment: 'Sandbox' });
  });

  it('names store credentials only with the keys the verifiers read (CREDENTIAL_KEYS)', () => {
    for (const app of apps) {
      for (const [store, credentials] of Object.entries(app.storeCredentials ?? {})) {
        const documented = Object.keys(CREDENTIAL_KEYS[store as keyof typeof CREDENTIAL_KEYS]);
        expect(documented, `app ${app.id} ${store}`).toEqual(expect.arrayContaining(Object.keys(credentials ?? {})));
      }
    }
  });

  it('has one subscription for a device and one PPV unlock', () => {
    expect(cat.entitlements?.subscriptions).toHaveLength(1);
    expect(cat.entitlements?.subscriptions?.[0]).toMatchObject({ status: 'active', deviceId: expect.any(String) });
    expect(cat.entitlements?.ppvUnlocks).toHaveLength(1);
    const unlock = cat.entitlements!.ppvUnlocks![0]!;
    expect(apps.find((a) => a.id === unlock.appId)?.vodPpv?.isEnabled).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// PNG checks, with a CRC-32 written independently of the encoder's (bit by bit, no table).

function crcBitwise(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function checkPng(png: Buffer): { width: number; height: number; idat: Buffer } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const types: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  let pos = 8;
  while (pos < png.length) {
    const length = png.readUInt32BE(pos);
    const type = png.subarray(pos + 4, pos + 8).toString('ascii');
    const data = png.subarray(pos + 8, pos + 8 + length);
    expect(png.readUInt32BE(pos + 8 + length), `CRC of ${type}`).toBe(crcBitwise(png.subarray(pos + 4, pos + 8 + length)));
    types.push(type);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    pos += 12 + length;
  }
  expect(pos).toBe(png.length);
  expect(types[0]).toBe('IHDR');
  expect(types.at(-1)).toBe('IEND');
  expect(ihdr!.length).toBe(13);
  expect([...ihdr!.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
  return { width: ihdr!.readUInt32BE(0), height: ihdr!.readUInt32BE(4), idat: Buffer.concat(idat) };
}

describe('png', () => {
  it('writes a valid solid image', () => {
    const { width, height, idat } = checkPng(solidPng(64, 48, '1a2b3c'));
    expect([width, height]).toEqual([64, 48]);
    const raw = inflateSync(idat);
    expect(raw.length).toBe(48 * (1 + 64 * 3));
    expect([...raw.subarray(0, 4)]).toEqual([0, 0x1a, 0x2b, 0x3c]);
    expect([...raw.subarray(raw.length - 3)]).toEqual([0x1a, 0x2b, 0x3c]);
  });

  it('writes a valid vertical gradient', () => {
    const { width, height, idat } = checkPng(gradientPng(128, 72, '000000', 'ff8000'));
    expect([width, height]).toEqual([128, 72]);
    const raw = inflateSync(idat);
    const stride = 1 + 128 * 3;
    expect([...raw.subarray(1, 4)]).toEqual([0, 0, 0]);
    expect([...raw.subarray(71 * stride + 1, 71 * stride + 4)]).toEqual([0xff, 0x80, 0]);
  });

  it('matches a known CRC and rejects bad input', () => {
    expect(crcBitwise(Buffer.from('IEND'))).toBe(0xae426082);
    expect(() => solidPng(0, 10, 'ffffff')).toThrow(RangeError);
    expect(() => solidPng(10, 10, 'fff')).toThrow(RangeError);
  });
});
