// The routes the benchmark drives, each a function from a request number to a request. Requests
// rotate over owners, channels, platforms and viewers, so a route is never measured on one row
// that a cache (or the database's buffer) would answer alone.
import { DateTime } from 'luxon';
import { CHANNELS_PER_OWNER, type BenchChannel, type BenchOwner } from './catalog.ts';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export type RouteKind = 'baseline' | 'read' | 'heartbeat';

export interface Route {
  name: string;
  kind: RouteKind;
  /** Which child process answers it. */
  target: 'baseline' | 'service';
  request(n: number): RequestSpec;
}

export interface Fixture {
  owners: BenchOwner[];
  /** REST Bearer tokens from real logins, for a sample of the owners. */
  tokens: Array<{ owner: BenchOwner; token: string }>;
  now: Date;
  /** Distinct viewers sending heartbeats. */
  viewers: number;
}

const CUSTOM = '/api/v1/services/custom';
/** Every Platform-Id of the app templates; each owner has an app on each. */
const PLATFORM_IDS = ['ios', 'android', 'roku', 'fire-tv', 'apple-tv', 'android-tv'];
const SOURCES = ['roku_app', 'fire_tv', 'android_tv', 'apple_tv', 'mobile_app_on_ios', 'mobile_app_on_android'];
/** Channels per guide request (channels_ids): what one screen of a TV guide shows. */
const GUIDE_CHANNELS = 3;

function localToday(now: Date): (zone: string) => string {
  const memo = new Map<string, string>();
  return (zone) => {
    let date = memo.get(zone);
    if (date === undefined) memo.set(zone, (date = DateTime.fromJSDate(now, { zone }).toFormat('yyyy-MM-dd')));
    return date;
  };
}

/** A stride coprime with the owner count walks every owner before repeating, out of id order. */
function spread<T>(items: readonly T[]): (n: number) => T {
  const stride = items.length > 7 && items.length % 7 !== 0 ? 7 : 1;
  return (n) => items[(n * stride) % items.length]!;
}

export function benchRoutes(f: Fixture): Route[] {
  const owner = spread(f.owners);
  const tokenOf = spread(f.tokens);
  const today = localToday(f.now);
  const utcToday = today('UTC');
  const platform = (n: number) => PLATFORM_IDS[n % PLATFORM_IDS.length]!;
  const device = (n: number) => `bench-device-${n % 10_000}`;
  const custom = (n: number) => ({ 'platform-id': platform(n), 'device-id': device(n) });
  const guide = (o: BenchOwner, n: number) => Array.from({ length: GUIDE_CHANNELS }, (_, i) => o.channels[(n + i) % CHANNELS_PER_OWNER]!.id).join(',');
  const channels: Array<{ owner: BenchOwner; channel: BenchChannel }> = f.owners.flatMap((o) => o.channels.map((channel) => ({ owner: o, channel })));
  const get = (path: string, headers?: Record<string, string>): RequestSpec => ({ method: 'GET', path, ...(headers ? { headers } : {}) });

  return [
    { name: 'baseline GET /', kind: 'baseline', target: 'baseline', request: () => get('/') },
    {
      name: 'REST channel list',
      kind: 'read',
      target: 'service',
      request: (n) => get('/api/v1/rest/channels', { authorization: `Bearer ${tokenOf(n).token}` }),
    },
    {
      name: 'REST channel schedule',
      kind: 'read',
      target: 'service',
      request: (n) => {
        const { owner: o, token } = tokenOf(n);
        const channel = o.channels[Math.floor(n / f.tokens.length) % CHANNELS_PER_OWNER]!;
        return get(`/api/v1/rest/channels/${channel.id}/schedules?date=${today(channel.zone)}`, { authorization: `Bearer ${token}` });
      },
    },
    { name: 'Custom channels', kind: 'read', target: 'service', request: (n) => get(`${CUSTOM}/users/${owner(n).id}/channels`, custom(n)) },
    {
      name: 'Custom channels/video',
      kind: 'read',
      target: 'service',
      request: (n) => get(`${CUSTOM}/users/${owner(n).id}/channels/video?channels_ids=${guide(owner(n), n)}&dates=${utcToday}`, custom(n)),
    },
    {
      name: 'Custom vod',
      kind: 'read',
      target: 'service',
      request: (n) => get(`${CUSTOM}/users/${owner(n).id}/channels/vod?channels_ids=${guide(owner(n), n)}`, custom(n)),
    },
    { name: 'Custom app_settings', kind: 'read', target: 'service', request: (n) => get(`${CUSTOM}/users/${owner(n).id}/app_settings`, custom(n)) },
    {
      name: 'Legacy GetUserTVApp',
      kind: 'read',
      target: 'service',
      request: (n) => get(`/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=${owner(n).id}&platform=fire-tv&skipImages=true`),
    },
    {
      // Viewer v always watches the same channel, so its repeated heartbeats extend one session.
      name: 'Activity heartbeat',
      kind: 'heartbeat',
      target: 'service',
      request: (n) => {
        const viewer = n % f.viewers;
        const { owner: o, channel } = channels[viewer % channels.length]!;
        const body = { source: SOURCES[viewer % SOURCES.length], action: 'play_channel', client_id: o.id, user_id: `viewer-${viewer}`, channel_id: channel.id };
        return { method: 'POST', path: '/api/v1/activity', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      },
    },
  ];
}
