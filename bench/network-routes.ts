// The read routes of the network scenario, each in two modes: warm (the same request over and
// over: what a poll costs) and rotating (channels, day and request zone change with every
// request, so no cache of whole answers can serve it). Routes with no such input have no
// rotating mode.
import { DateTime } from 'luxon';
import { NETWORK_OWNER, type NetworkChannel } from './network.ts';
import type { RequestSpec } from './routes.ts';

export interface NetworkRoute {
  name: string;
  warm: RequestSpec;
  rotating?: (n: number) => RequestSpec;
}

const CUSTOM = '/api/v1/services/custom';
const ROKU = { 'platform-id': 'roku', 'device-id': 'bench-roku-1' };
/** Every zone the runtime knows (about 400): a rotating request names a different one each time, for a long while. */
const ZONES = Intl.supportedValuesOf('timeZone');
const GUIDE_CHANNELS = 10;
export const HEARTBEAT_DEVICES = 5_000;

const get = (path: string, headers?: Record<string, string>): RequestSpec => ({ method: 'GET', path, ...(headers ? { headers } : {}) });

export function networkRoutes(all: readonly NetworkChannel[], token: string, now: Date): NetworkRoute[] {
  // REST answers the signed-in creator (NETWORK_OWNER) about its own channels; the Custom routes'
  // rotating requests also go round the other creators of a network of several (network.ts).
  const channels = all.filter((c) => c.ownerId === NETWORK_OWNER.id);
  const owners = [...new Set(all.map((c) => c.ownerId))];
  const n = channels.length;
  const bearer = { authorization: `Bearer ${token}` };
  const day = (zone: string, offset: number) => DateTime.fromJSDate(now, { zone }).plus({ days: offset }).toFormat('yyyy-MM-dd');
  // Stride 7 walks every channel before repeating when n is not a multiple of 7; days and zones move independently.
  const channelAt = (i: number) => channels[(i * 7) % n]!;
  const zoneAt = (i: number) => ZONES[(i * 31) % ZONES.length]!;
  const dayOffset = (i: number) => (i % 7) - 3;
  const guide = (first: number) => Array.from({ length: GUIDE_CHANNELS }, (_, k) => channels[(first + k) % n]!.id).join(',');
  const user = `${CUSTOM}/users/${NETWORK_OWNER.id}`;
  /** Request i's creator and the same request's channel ids moved to that creator's channels (each has n). */
  const ownerAt = (i: number) => owners[i % owners.length]!;
  const userAt = (i: number) => `${CUSTOM}/users/${ownerAt(i)}`;
  const shift = (i: number) => (ownerAt(i) - NETWORK_OWNER.id) * n;
  const guideAt = (i: number, first: number) =>
    guide(first)
      .split(',')
      .map((id) => Number(id) + shift(i))
      .join(',');
  const first = channels[0]!;

  return [
    { name: 'REST channels', warm: get('/api/v1/rest/channels', bearer) },
    {
      name: 'REST schedule',
      warm: get(`/api/v1/rest/channels/${first.id}/schedules?date=${day(first.zone, 0)}`, bearer),
      rotating: (i) => {
        const c = channelAt(i);
        return get(`/api/v1/rest/channels/${c.id}/schedules?date=${day(c.zone, dayOffset(i))}`, bearer);
      },
    },
    {
      name: 'Custom channels',
      warm: get(`${user}/channels?timezone=America/New_York`, ROKU),
      rotating: (i) => get(`${userAt(i)}/channels?timezone=${encodeURIComponent(zoneAt(i))}`, ROKU),
    },
    {
      name: 'Custom channels/video',
      warm: get(`${user}/channels/video?channels_ids=${guide(0)}&dates=${day('America/New_York', 0)}&per_page=100&timezone=America/New_York`, ROKU),
      rotating: (i) => {
        const zone = zoneAt(i);
        return get(`${userAt(i)}/channels/video?channels_ids=${guideAt(i, (i * 7) % n)}&dates=${day(zone, dayOffset(i))}&per_page=100&timezone=${encodeURIComponent(zone)}`, ROKU);
      },
    },
    {
      name: 'Custom vod',
      warm: get(`${user}/channels/vod?channels_ids=${first.id}&timezone=America/New_York`, ROKU),
      rotating: (i) => get(`${userAt(i)}/channels/vod?channels_ids=${channelAt(i).id + shift(i)}&timezone=${encodeURIComponent(zoneAt(i))}`, ROKU),
    },
    { name: 'Custom app_settings', warm: get(`${user}/app_settings`, ROKU) },
    {
      name: 'Custom vast',
      warm: get(`${CUSTOM}/channels/${first.id}/vast`, ROKU),
      rotating: (i) => get(`${CUSTOM}/channels/${channelAt(i).id + shift(i)}/vast`, ROKU),
    },
    { name: 'Legacy GetUserTVApp', warm: get(`/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=${NETWORK_OWNER.id}&platform=roku&skipImages=true`) },
  ];
}

/** Device d always watches channel d mod N, so its heartbeats extend one session. */
export function heartbeat(channels: readonly NetworkChannel[]): (i: number) => RequestSpec {
  return (i) => {
    const device = i % HEARTBEAT_DEVICES;
    const body = { source: 'roku_app', action: 'play_channel', client_id: NETWORK_OWNER.id, user_id: `device-${device}`, channel_id: channels[device % channels.length]!.id };
    return { method: 'POST', path: '/api/v1/activity', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  };
}
