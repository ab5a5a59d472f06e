// Every route of every interface group, as src/rest/*-routes.ts, src/custom/*-routes.ts,
// src/activity/routes.ts, src/legacy/routes.ts and the spec list them, with plausible values
// from the Custom test catalog (test/support/custom.ts): alice (11, alice-tv) owns channels
// 201-206, dora (16) owns 401; videos 5001-5004 and 6001; apps mobile 301, androidtv 302, roku
// 303, firetv 304.
import type { RouteSpec } from './arbitraries.ts';

export const REST_PREFIX = '/api/v1/rest';
export const CUSTOM_PREFIX = '/api/v1/services/custom';
export const LEGACY_PREFIX = '/WebServices';

const CHANNEL_IDS = ['201', '201', '202', '202', '204', '201', '202', '203', '204', '205', '206', '401', '0', '999', '2147483647', '2147483648'];
const OWNER_IDS = ['11', '11', '11', 'alice-tv', '11', 'alice-tv', 'ALICE-TV', '16', 'dora', '12', '17', '13', '999', '0'];
const VIDEO_IDS = ['5001', '5002', '5003', '5004', '6001', '0', '7777'];
const DATES = ['2026-11-21', '2026-11-22', '2026-11-18', '2026-02-29', '2028-02-29', '2026-11-31', '20261121', '20261121150000', '21/11/2026', '2026-11-21T00:00:00Z'];
/** Where calendars, JS dates and PostgreSQL timestamps part ways. */
const EDGE_DATES = ['0000-01-01', '0001-01-01', '0099-12-31', '1969-12-31', '1970-01-01', '9998-12-31', '9999-12-31', '00000101', '99991231235959'];
const INSTANTS = [
  '2026-11-20T00:00:00Z',
  '2026-11-21T15:00:00+01:00',
  '2026-11-21',
  '2026-11-21T15:00:00',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '0000-01-02T00:00:00Z',
  '2026-13-01T00:00:00Z',
];
const ZONES = ['America/New_York', 'UTC', 'Eastern Standard Time', 'Nowhere/City'];
const FLAGS = ['1', '0', 'true', 'false', 'yes', ''];
const COUNTS = ['1', '2', '50', '100', '101', '0', '-1', '1000000', '99999999999'];
const EPG_DAYS = ['1', '7', '14', '2', '15', '0', '-1', '1.5', 'x', ''];
/** The world's live key of app 301 (world.ts), the same in lower case (keys are case-sensitive), and keys of no shape. */
export const FUZZ_EPG_KEY = 'fuzzEPGkey0123456789_abcdefghijklmnopqrstuv';
const EPG_KEYS = [
  FUZZ_EPG_KEY,
  FUZZ_EPG_KEY,
  FUZZ_EPG_KEY,
  FUZZ_EPG_KEY,
  FUZZ_EPG_KEY.toLowerCase(),
  'abc',
  '',
  '%00',
  'A'.repeat(43),
  'k'.repeat(120),
  `vl.${'A'.repeat(43)}`,
  'vl.',
];

export const REST_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/auth/login',
    bodyKind: 'json',
    body: { username: ['alice', 'Alice@Example.com', 'victor', 'locked', 'nobody'], password: ['correct horse', 'viewer pass', 'wrong', ''] },
  },
  { method: 'POST', path: '/auth/logout' },
  { method: 'GET', path: '/apps/:platform', params: { platform: ['mobile', 'roku', 'firetv', 'appletv', 'androidtv', 'MOBILE', 'web', 'fire-tv'] } },
  { method: 'GET', path: '/channels' },
  { method: 'GET', path: '/channels/:channelId', params: { channelId: CHANNEL_IDS } },
  { method: 'GET', path: '/channels/:channelId/schedules', params: { channelId: CHANNEL_IDS }, query: { date: [...DATES, ...EDGE_DATES] } },
  { method: 'GET', path: '/favorites' },
  { method: 'POST', path: '/favorites/:channelId', params: { channelId: CHANNEL_IDS } },
  { method: 'DELETE', path: '/favorites/:channelId', params: { channelId: CHANNEL_IDS } },
  {
    method: 'GET',
    path: '/analytics/summary',
    query: { from: INSTANTS, to: INSTANTS, channelId: CHANNEL_IDS, groupBy: ['channel', 'source', 'day', 'week'] },
  },
  {
    method: 'GET',
    path: '/analytics/sessions',
    query: { from: INSTANTS, to: INSTANTS, channelId: CHANNEL_IDS, page: COUNTS, perPage: COUNTS },
  },
  {
    method: 'GET',
    path: '/analytics/concurrency',
    query: { from: INSTANTS, to: INSTANTS, channelId: CHANNEL_IDS, interval: ['1m', '5m', '1h', '1d', '2h', '0'] },
  },
  {
    method: 'GET',
    path: '/analytics/programmes',
    query: {
      from: INSTANTS,
      to: INSTANTS,
      channelId: CHANNEL_IDS,
      groupBy: ['programme', 'channel', 'source', 'day', 'week'],
      sort: ['watchSeconds', 'sessions', 'viewers', 'peakViewers', 'title'],
      page: COUNTS,
      perPage: COUNTS,
    },
  },
  { method: 'GET', path: '/analytics/top', query: { from: INSTANTS, to: INSTANTS, channelId: CHANNEL_IDS, metric: ['watchSeconds', 'viewers', 'x'], limit: COUNTS } },
  {
    method: 'GET',
    path: '/analytics/trends',
    query: { from: [...DATES, ...EDGE_DATES], to: [...DATES, ...EDGE_DATES], timezone: ZONES, channelId: CHANNEL_IDS, source: ['roku_app', 'fire_tv', 'betamax'] },
  },
  {
    method: 'GET',
    path: '/analytics/entitlements',
    query: { from: [...DATES, ...EDGE_DATES], to: [...DATES, ...EDGE_DATES], timezone: ZONES, store: ['Apple', 'Roku', 'apple', 'Nope'] },
  },
  { method: 'GET', path: '/analytics/channels/:channelId/curve', params: { channelId: CHANNEL_IDS }, query: { date: [...DATES, ...EDGE_DATES] } },
  { method: 'GET', path: '/epg.xml', query: { days: EPG_DAYS } },
  { method: 'GET', path: '/epg/:key.xml', params: { key: EPG_KEYS }, query: { days: EPG_DAYS } },
  { method: 'GET', path: '/live-links' },
  { method: 'POST', path: '/live-links', bodyKind: 'json', body: { appId: [301, 302, 303, 0, -1, 2147483648, '301', 'x', null] } },
  { method: 'DELETE', path: '/live-links/:id', params: { id: ['1', '2', '0', '999', '2147483648', 'x'] } },
];

export const STORES_PREFIX = '/api/v1/stores';

/** Store notifications: every app and store, with bodies shaped like each store's (none of them signed). */
export const STORES_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/:store/:appId',
    bodyKind: 'json',
    params: { store: ['apple', 'google', 'amazon', 'roku', 'Apple', 'nokia'], appId: ['301', '302', '303', '304', '0', '999', '2147483648'] },
    body: {
      signedPayload: ['eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiUkVGVU5EIn0.c2ln', 'a.b.c', ''],
      message: [{ data: 'eyJwYWNrYWdlTmFtZSI6ImNvbS5hbGljZS50diJ9', messageId: '1' }, {}],
      Type: ['Notification', 'SubscriptionConfirmation'],
      TopicArn: ['arn:aws:sns:us-east-1:1:t'],
      SigningCertURL: ['https://sns.us-east-1.amazonaws.com/cert.pem', 'http://127.0.0.1:1/cert.pem'],
      transactionId: ['tx-1', ''],
      responseKey: ['abcd'],
    },
  },
];

export const STUDIO_PREFIX = '/api/v1/studio';
const STUDIO_CHANNELS = ['201', '202', '203', '401', '999', '0', '-1', 'abc', '2147483647', '2147483648', '9007199254740993', '1e3', ' 201'];
const STUDIO_VIDEOS = ['5001', '5002', '6001', '7777', '0', 'abc', '2147483647', '1e308'];
const STUDIO_BLOCKS = ['9001', '9002', '9999', 'x', '2147483647', '-1'];
const STUDIO_PLATFORMS = ['mobile', 'roku', 'firetv', 'androidtv', 'appletv', 'nope'];
const VAST_PLATFORM_VALUES = ['web', 'roku', 'ios', 'android', 'nope'];
const VIDEO_ID_VALUES = [5001, 5002, 5003, 6001, 7777, -1, '5001', null, 2147483647, 9007199254740993];
const WALL_TIMES = ['2026-11-21T08:00:00', '2026-11-22T23:30:00', '2026-13-01T00:00:00', '2026-11-21T08:00:00Z', '', 5];
const STUDIO_DATES = ['2026-11-21', '2026-11-22', '2026-02-30', '20261121', 'x'];
const videoFields = {
  id: [undefined, 5001, 6001, 8001, -1, 'x'],
  title: ['T', '', 5, null],
  durationSeconds: [60, 0, -1, 'x', 1e308],
  providerName: ['YouTube', 5],
  providerVideoId: ['abc', ''],
  categoryId: [1, 2, 99, null, 'x'],
  ownerId: [11, 16, 'x'],
  colour: ['red'],
};
const channelFields = {
  name: ['N', '', 7],
  url: ['alice-news', 'new-url', '', 5],
  categoryId: [1, 99, null],
  timezone: ['UTC', 'America/New_York', 'Mars/Olympus', 5],
  languageId: [1, 99, null],
  order: [0, -1, 'x'],
  videoIds: [[5001], [6001], [5001, 5001], 'x'],
  password: ['secret', '', null],
  deleted: [true, false, 'x'],
};
const blockFields = {
  startTime: WALL_TIMES,
  videoIds: [[5001], [], [6001], [5001, 7777], 'x'],
  published: [true, false, 'x'],
  loopDaily: [true, false],
  allowOverlap: [true, false, 'x'],
  id: [undefined, 9001, 9999, -1],
};
const liveStreamFields = { videoId: VIDEO_ID_VALUES, start: INSTANTS, end: INSTANTS, uri: ['https://live.example/x', 5, ''] };

/** The Studio API (owners only): alice (11) owns channels 201-206 and videos 5001-5004, dora (16) channel 401 and video 6001. */
export const STUDIO_ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/videos', query: { page: COUNTS, per_page: COUNTS, q: ['news', '', '%', '_'] } },
  { method: 'POST', path: '/videos', bodyKind: 'json', body: videoFields },
  { method: 'GET', path: '/videos/:videoId', params: { videoId: STUDIO_VIDEOS } },
  { method: 'GET', path: '/videos/:videoId/usage', params: { videoId: STUDIO_VIDEOS } },
  { method: 'PATCH', path: '/videos/:videoId', params: { videoId: STUDIO_VIDEOS }, bodyKind: 'json', body: videoFields },
  { method: 'DELETE', path: '/videos/:videoId', params: { videoId: STUDIO_VIDEOS } },
  { method: 'GET', path: '/channels', query: { page: COUNTS, per_page: COUNTS, q: ['alice', ''], deleted: FLAGS } },
  { method: 'POST', path: '/channels', bodyKind: 'json', body: channelFields },
  { method: 'PUT', path: '/channels/order', bodyKind: 'json', body: { channelIds: [[201, 202], [401], [201, 201], 'x', [2147483648]] } },
  { method: 'GET', path: '/channels/:channelId', params: { channelId: STUDIO_CHANNELS } },
  { method: 'PATCH', path: '/channels/:channelId', params: { channelId: STUDIO_CHANNELS }, bodyKind: 'json', body: channelFields },
  { method: 'DELETE', path: '/channels/:channelId', params: { channelId: STUDIO_CHANNELS } },
  { method: 'GET', path: '/channels/:channelId/:list', params: { channelId: STUDIO_CHANNELS, list: ['library', 'vod'] } },
  {
    method: 'PUT',
    path: '/channels/:channelId/:list',
    params: { channelId: STUDIO_CHANNELS, list: ['library', 'vod'] },
    bodyKind: 'json',
    body: { videoIds: [VIDEO_ID_VALUES, [5001, 5002], [], 'x'] },
  },
  { method: 'GET', path: '/channels/:channelId/vast', params: { channelId: STUDIO_CHANNELS } },
  { method: 'GET', path: '/channels/:channelId/linear', params: { channelId: STUDIO_CHANNELS } },
  {
    method: 'PUT',
    path: '/channels/:channelId/linear',
    params: { channelId: STUDIO_CHANNELS },
    bodyKind: 'json',
    body: {
      enabled: [true, false, 'yes'],
      targetDurationSeconds: [4, 6, 0, 31, 2.5, '6'],
      windowSeconds: [60, 11, 3600, 3601, -1],
      ladder: [[{ bandwidth: 800000, resolution: { width: 640, height: 360 }, codecs: 'avc1.4d401e,mp4a.40.2' }], [], [{ bandwidth: 0 }], [{ bandwidth: 1, codecs: '"' }], 'x'],
    },
  },
  { method: 'GET', path: '/channels/:channelId/vast/:platform', params: { channelId: STUDIO_CHANNELS, platform: VAST_PLATFORM_VALUES } },
  {
    method: 'PUT',
    path: '/channels/:channelId/vast/:platform',
    params: { channelId: STUDIO_CHANNELS, platform: VAST_PLATFORM_VALUES },
    bodyKind: 'json',
    body: { vastUrl: ['https://ads.example/x', '', 5], timeFrom: [0, 24, 'x'], vastType: ['fullscreen', 'nope'] },
  },
  { method: 'DELETE', path: '/channels/:channelId/vast/:platform', params: { channelId: STUDIO_CHANNELS, platform: VAST_PLATFORM_VALUES } },
  { method: 'GET', path: '/channels/:channelId/password', params: { channelId: STUDIO_CHANNELS } },
  { method: 'PUT', path: '/channels/:channelId/password', params: { channelId: STUDIO_CHANNELS }, bodyKind: 'json', body: { password: ['letmein', '', null, 5] } },
  { method: 'DELETE', path: '/channels/:channelId/password', params: { channelId: STUDIO_CHANNELS } },
  { method: 'GET', path: '/channels/:channelId/schedules', params: { channelId: STUDIO_CHANNELS }, query: { from: STUDIO_DATES, to: STUDIO_DATES } },
  { method: 'POST', path: '/channels/:channelId/schedules', params: { channelId: STUDIO_CHANNELS }, bodyKind: 'json', body: blockFields },
  { method: 'GET', path: '/channels/:channelId/schedules/:blockId', params: { channelId: STUDIO_CHANNELS, blockId: STUDIO_BLOCKS } },
  { method: 'PATCH', path: '/channels/:channelId/schedules/:blockId', params: { channelId: STUDIO_CHANNELS, blockId: STUDIO_BLOCKS }, bodyKind: 'json', body: blockFields },
  { method: 'DELETE', path: '/channels/:channelId/schedules/:blockId', params: { channelId: STUDIO_CHANNELS, blockId: STUDIO_BLOCKS } },
  { method: 'GET', path: '/channels/:channelId/days/:date', params: { channelId: STUDIO_CHANNELS, date: STUDIO_DATES } },
  {
    method: 'GET',
    path: '/channels/:channelId/guide/:date',
    params: { channelId: STUDIO_CHANNELS, date: STUDIO_DATES },
    query: { timezone: ['UTC', 'Europe/Berlin', 'Mars/Olympus', 'Eastern Standard Time', ''] },
  },
  {
    method: 'POST',
    path: '/channels/:channelId/days/:date/copy',
    params: { channelId: STUDIO_CHANNELS, date: STUDIO_DATES },
    bodyKind: 'json',
    body: { toDates: [['2026-11-23'], [], ['x'], 'x'], replace: [true, false], allowOverlap: [true, false] },
  },
  { method: 'GET', path: '/channels/:channelId/live-streams', params: { channelId: STUDIO_CHANNELS } },
  { method: 'POST', path: '/channels/:channelId/live-streams', params: { channelId: STUDIO_CHANNELS }, bodyKind: 'json', body: liveStreamFields },
  { method: 'GET', path: '/channels/:channelId/live-streams/:liveStreamId', params: { channelId: STUDIO_CHANNELS, liveStreamId: STUDIO_BLOCKS } },
  {
    method: 'PATCH',
    path: '/channels/:channelId/live-streams/:liveStreamId',
    params: { channelId: STUDIO_CHANNELS, liveStreamId: STUDIO_BLOCKS },
    bodyKind: 'json',
    body: liveStreamFields,
  },
  { method: 'DELETE', path: '/channels/:channelId/live-streams/:liveStreamId', params: { channelId: STUDIO_CHANNELS, liveStreamId: STUDIO_BLOCKS } },
  { method: 'GET', path: '/apps' },
  { method: 'GET', path: '/apps/:platform', params: { platform: STUDIO_PLATFORMS } },
  {
    method: 'PUT',
    path: '/apps/:platform',
    params: { platform: STUDIO_PLATFORMS },
    bodyKind: 'json',
    body: { appName: ['A', 5], theme: [{ primaryColor: 'zz' }, null], channels: [[{ channelId: 201 }], [{ channelId: 401 }], 'x'], id: [undefined, 303, 2147483647] },
  },
  { method: 'DELETE', path: '/apps/:platform', params: { platform: STUDIO_PLATFORMS } },
  { method: 'GET', path: '/apps/:platform/epg-key', params: { platform: STUDIO_PLATFORMS } },
  { method: 'POST', path: '/apps/:platform/epg-key', params: { platform: STUDIO_PLATFORMS }, bodyKind: 'json', body: { key: ['mine', 5] } },
  { method: 'DELETE', path: '/apps/:platform/epg-key', params: { platform: STUDIO_PLATFORMS } },
  { method: 'GET', path: '/app-tokens' },
  { method: 'POST', path: '/app-tokens', bodyKind: 'json', body: { label: ['TV', '', 5] } },
  { method: 'GET', path: '/app-tokens/:tokenId', params: { tokenId: ['1', '2', '999', ...STUDIO_BLOCKS] } },
  { method: 'DELETE', path: '/app-tokens/:tokenId', params: { tokenId: ['1', '2', '999', ...STUDIO_BLOCKS] } },
  { method: 'GET', path: '/branding' },
  { method: 'PUT', path: '/branding', bodyKind: 'json', body: { title: ['T', 5], hex1: ['ff0000', 'zz'], logoHeader: ['not-base64', null] } },
  { method: 'DELETE', path: '/branding' },
  { method: 'GET', path: '/categories' },
  { method: 'POST', path: '/categories', bodyKind: 'json', body: { name: ['C', 5], id: [undefined, 1, 77] } },
  { method: 'GET', path: '/languages' },
  { method: 'POST', path: '/languages', bodyKind: 'json', body: { name: ['L', 5], code: ['xx', ''], id: [undefined, 1, 77] } },
  {
    method: 'POST',
    path: '/import',
    query: { dryRun: FLAGS },
    bodyKind: 'json',
    body: { format: ['channel-network-catalog', 'x'], version: [1, 2], videos: [[], 'x', [{ id: 6001 }]] },
  },
  { method: 'GET', path: '/export' },
  { method: 'GET', path: '/audit', query: { limit: COUNTS, before: COUNTS } },
];

const PLATFORM_VALUES = ['ios', 'android', 'mobile', 'roku', 'fire-tv', 'apple-tv', 'android-tv', 'web', 'androidtv'];
const STORES = ['Apple', 'Google', 'Amazon', 'Roku', 'apple', 'Steam'];
const PRODUCTS = ['com.alice.monthly', 'com.alice.yearly', 'alice_weekly', 'alice_ppv', 'nope'];
const DEVICES = ['device-1', 'device-2', 'device-new'];
const purchase = {
  store_platform: STORES,
  product_id: PRODUCTS,
  receipt_data: ['MIIT-receipt', 'eyJhbGciOiJFUzI1NiJ9.e30.sig', '1000001'],
  original_transaction_id: ['1000001', 'GPA.1', '2000002'],
  device_id: DEVICES,
};

export const CUSTOM_ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/auth/login',
    bodyKind: 'json',
    body: {
      email: ['victor@example.com', 'alice', 'Alice@Example.com', 'locked@example.com', 'pending', 'nobody'],
      password: ['viewer pass', 'correct horse', 'pw-locked', 'pw-pending', 'wrong'],
    },
  },
  { method: 'POST', path: '/auth/refresh' },
  { method: 'GET', path: '/auth/me' },
  { method: 'POST', path: '/auth/logout' },
  { method: 'GET', path: '/users/:id/settings', params: { id: OWNER_IDS } },
  { method: 'GET', path: '/users/:id/app_settings', params: { id: OWNER_IDS } },
  { method: 'GET', path: '/users/:id/categories', params: { id: OWNER_IDS }, query: { default: FLAGS, timezone: ZONES } },
  { method: 'GET', path: '/users/:id/languages', params: { id: OWNER_IDS }, query: { timezone: ZONES } },
  {
    method: 'GET',
    path: '/users/:id/channels',
    params: { id: OWNER_IDS },
    query: {
      language_id: ['1', '2', '1,2', '999', '1,,2,'],
      category_id: ['1', '2', '999', '1,2'],
      search: ['alice', 'news', 'ÄLICE', ''],
      skip: COUNTS,
      take: COUNTS,
      newest: FLAGS,
      oldest: FLAGS,
      most_subscribed: FLAGS,
      timezone: ZONES,
    },
  },
  {
    method: 'GET',
    path: '/users/:id/channels/video',
    params: { id: OWNER_IDS },
    query: {
      channels_ids: ['201', '201,202', '202,201,204', '401', '999', '201,201'],
      dates: ['2026-11-21', '2026-11-21,2026-11-22', '20261121', '20261121150000', '2026-11-31', ...EDGE_DATES],
      page: COUNTS,
      per_page: COUNTS,
      timezone: ZONES,
    },
  },
  {
    method: 'GET',
    path: '/users/:id/channels/vod',
    params: { id: OWNER_IDS },
    query: { channels_ids: ['201', '201,202', '202', '401', '999'], page: COUNTS, per_page: COUNTS, timezone: ZONES },
  },
  { method: 'GET', path: '/users/:id/channels/:channelId/live', params: { id: OWNER_IDS, channelId: CHANNEL_IDS }, query: { date: [...DATES, ...EDGE_DATES], timezone: ZONES } },
  { method: 'GET', path: '/users/:id/app/favorites', params: { id: OWNER_IDS }, query: { timezone: ZONES } },
  { method: 'POST', path: '/users/:id/channels/:channelId/app/favorite/add', params: { id: OWNER_IDS, channelId: CHANNEL_IDS } },
  { method: 'POST', path: '/users/:id/channels/:channelId/app/favorite/remove', params: { id: OWNER_IDS, channelId: CHANNEL_IDS } },
  { method: 'GET', path: '/channels/:channelId/vast', params: { channelId: CHANNEL_IDS }, query: { platform: PLATFORM_VALUES } },
  { method: 'GET', path: '/token_by_video/:videoTubeId', params: { videoTubeId: VIDEO_IDS } },
  { method: 'POST', path: '/getChannelToken', bodyKind: 'json', body: { channel_id: [202, '202', 201, 999, '202 '], password: ['letmein', 'wrong', ''] } },
  { method: 'GET', path: '/users/:id/apps/subscription/status', params: { id: OWNER_IDS } },
  { method: 'POST', path: '/users/:id/apps/subscription/verify', params: { id: OWNER_IDS }, bodyKind: 'json', body: purchase },
  {
    method: 'POST',
    path: '/users/:id/apps/subscription/restore',
    params: { id: OWNER_IDS },
    bodyKind: 'json',
    body: {
      store_platform: STORES,
      device_id: DEVICES,
      original_transaction_ids: [['1000001'], ['1000001', '2000002'], '1000001', [], Array.from({ length: 21 }, (_, i) => String(i))],
    },
  },
  { method: 'GET', path: '/users/:id/apps/vod_ppv/status', params: { id: OWNER_IDS }, query: { video_tube_id: VIDEO_IDS, channel_tube_id: CHANNEL_IDS } },
  {
    method: 'POST',
    path: '/users/:id/apps/vod_ppv/verify',
    params: { id: OWNER_IDS },
    bodyKind: 'json',
    body: { ...purchase, video_tube_id: [5002, '5002', 5001, 6001, '7777'], channel_tube_id: [201, '201', 202, null] },
  },
];

const SOURCES = [
  'roku_app',
  'fire_tv',
  'android_tv',
  'apple_tv',
  'mobile_app_on_ios',
  'mobile_app_on_android',
  'custom_app_on_ios',
  'custom_app_on_android',
  'website_embedded_player',
  'broadcast_on_service_dot_com',
  'tizen',
];
const activityBody = {
  source: SOURCES,
  action: ['play_channel', 'login', 'logout', 'app_open', 'Legacy.Action:1', '1bad'],
  client_id: [11, '11', '007', 16, '', null],
  user_id: ['viewer-1', 'device-1', 12, '', null],
  channel_id: [201, '201', 202, 401, 999, '0', null],
  payload: [null, { position: 12 }, [1, 2, 3], 'text', 7],
};

/** The activity handler's two paths (and the root the plugin also answers). */
export const ACTIVITY_ROUTES: { prefix: string; routes: RouteSpec[] }[] = ['/api/v1/activity', '/api/v1/services/custom/activity'].map((prefix) => ({
  prefix,
  routes: [
    { method: 'POST', path: '', bodyKind: 'json', body: activityBody },
    { method: 'POST', path: '/', bodyKind: 'json', body: activityBody },
  ],
}));

const LEGACY_USERS = ['11', '16', '17', '999', '', '-1', '2147483648', ' 11 ', '11\u0000', '+11', 'abc'];
const LEGACY_CHANNELS = ['201', '202', '203', '401', '', '999', '2147483648', '1.0'];
const legacyMethod = (service: string, method: string, params: Record<string, readonly string[]>): RouteSpec[] => {
  const services = [service, service.toLowerCase(), service.toUpperCase()];
  return ['GET', 'POST'].flatMap((verb) => ({
    method: verb as 'GET' | 'POST',
    path: '/:service/:method',
    params: { service: services, method: [method] },
    // GET reads the query string; POST reads a form or the ASP.NET AJAX JSON body.
    ...(verb === 'GET' ? { query: params } : { body: params, bodyKind: 'json' as const }),
  }));
};

export const LEGACY_ROUTES: RouteSpec[] = [
  ...legacyMethod('VastService.asmx', 'GetVastSettings', { channelId: LEGACY_CHANNELS }),
  ...legacyMethod('RokuAppGeneratorService.asmx', 'GetChannelTubeRokuSettings', { channelId: LEGACY_CHANNELS }),
  ...legacyMethod('RokuAppGeneratorService.asmx', 'GetUserRokuApp', { userId: LEGACY_USERS }),
  ...legacyMethod('MobileAppGeneratorService.asmx', 'GetChannelMobileApp', { userId: LEGACY_USERS, channelId: LEGACY_CHANNELS }),
  ...legacyMethod('TVAppGeneratorService.asmx', 'GetUserTVApp', {
    userId: LEGACY_USERS,
    platform: ['fire-tv', 'android-tv', 'apple-tv', 'roku', 'Fire-TV', ''],
    skipImages: ['true', 'false', 'True', ' TRUE ', '1', ''],
  }),
  // The description pages, unknown services and unknown (or miscased) web methods.
  { method: 'GET', path: '/:service', params: { service: ['VastService.asmx', 'TVAppGeneratorService.asmx', 'Nope.asmx'] } },
  {
    method: 'POST',
    path: '/:service/:method',
    bodyKind: 'json',
    body: { channelId: LEGACY_CHANNELS, userId: LEGACY_USERS },
    params: { service: ['VastService.asmx', 'Nope.asmx', 'vastservice.ASMX'], method: ['getvastsettings', 'GetVastSettingsx', 'js', 'jsdebug', 'GetUserTVApp'] },
  },
];

/** Routes outside the four groups: app assets, health, metrics, docs. Properties: no 5xx, no leaks. */
const ASSET_ROUTE: RouteSpec = {
  method: 'GET',
  path: '/assets/apps/:appId/:role',
  params: { appId: ['301', '301', '302', '303', '0', '2147483648'], role: ['logo', 'icon', 'logoIos', 'avatarHd', 'headerLogo', 'nope'] },
  query: { v: ['abc', '', '0123456789'] },
};

export const OTHER_ROUTES: RouteSpec[] = [
  // The only one that reads the database with what the URL says: drawn more often.
  ASSET_ROUTE,
  ASSET_ROUTE,
  ASSET_ROUTE,
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/docs/json' },
  { method: 'GET', path: '/docs/openapi.json' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/studio/:screen', params: { screen: ['', 'channels', 'index.html', 'assets', '..%2Fpackage.json'] } },
];
