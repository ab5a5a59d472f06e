// The Custom API test catalog (the small fixture extended) and request helpers shared by the
// test/custom-*.test.ts suites. TEST_NOW is 2026-11-21T15:00:00Z: 10:00 in New York.
import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { DatabaseKind } from '../../src/db/connect.ts';
import { smallCatalog } from '../fixtures/catalog.ts';
import { testApp, type TestApp } from './app.ts';

export const BASE = '/api/v1/services/custom';
export const OWNER_ID = 11;

/**
 * Channels of alice (11): 201 News (New York; schedule, live 18:00Z, VOD 5002 5001), 202 Music
 * (private, password letmein; schedule today 09:00Z, live 16:00Z, VOD 5003), 204 Live (UTC; live 20:00Z,
 * no VOD), 205 Empty (nothing: never listed), 206 Tomorrow (schedule tomorrow only: not listed).
 * Apps: mobile 301 paid [202, 201] with a subscription for device-1 / viewer 12; androidtv 302
 * PPV [201, 202] with 5002 unlocked in 201 for device-2; roku 303 with no channels; firetv 304
 * free [204, 201]. carol (17) has nothing; dora (16) owns channel 401.
 */
export function customCatalog() {
  const catalog: any = smallCatalog();
  catalog.accounts.push(
    { id: 14, username: 'locked', email: 'locked@example.com', password: 'pw-locked', publicUrl: 'locked', status: 'locked' },
    { id: 15, username: 'pending', email: 'pending@example.com', password: 'pw-pending', publicUrl: 'pending', status: 'not_activated' },
    { id: 16, username: 'dora', email: 'dora@example.com', password: 'pw-dora', publicUrl: 'dora' },
    { id: 17, username: 'carol', email: 'carol@example.com', password: 'pw-carol', publicUrl: 'carol' },
  );
  catalog.languages.push({ id: 2, name: 'French', code: 'fr' });
  const video = (id: number) => catalog.videos.find((v: any) => v.id === id);
  video(5001).streamUrl = 'https://media.example/morning.m3u8';
  video(5002).streamUrl = 'https://media.example/weather.mp4';
  catalog.videos.push(
    { id: 5004, ownerId: 11, title: 'Live show', description: 'Tonight', durationSeconds: 3600, providerName: 'Custom', providerVideoId: 'live-1', isRRated: true },
    { id: 6001, ownerId: 16, title: 'Dora video', durationSeconds: 60, providerName: 'YouTube', providerVideoId: 'dora-1' },
  );
  const channel = (id: number) => catalog.channels.find((c: any) => c.id === id);
  Object.assign(channel(201), { subscriberCount: 10, vodVideoIds: [5002, 5001] });
  Object.assign(channel(202), {
    subscriberCount: 30,
    schedules: [{ id: 9101, startTime: '2026-11-21T09:00:00', videoIds: [5003] }],
    liveStreams: [{ videoId: 5004, start: '2026-11-21T16:00:00Z', end: '2026-11-21T17:00:00Z', uri: 'https://live.example/private' }],
  });
  catalog.channels.push(
    {
      id: 204,
      ownerId: 11,
      name: 'Alice Live',
      url: 'alice-live',
      categoryId: 2,
      languageId: 2,
      order: 3,
      subscriberCount: 50,
      liveStreams: [{ videoId: 5004, start: '2026-11-21T20:00:00Z', end: '2026-11-21T21:00:00Z', uri: 'https://live.example/2' }],
      createdAt: '2026-05-01T00:00:00Z',
    },
    { id: 205, ownerId: 11, name: 'Alice Empty', url: 'alice-empty', categoryId: 1, order: 4, createdAt: '2026-06-01T00:00:00Z' },
    {
      id: 206,
      ownerId: 11,
      name: 'Alice Tomorrow',
      url: 'alice-tomorrow',
      categoryId: 1,
      order: 5,
      schedules: [{ id: 9201, startTime: '2026-11-22T10:00:00', videoIds: [5001] }],
      createdAt: '2026-07-01T00:00:00Z',
    },
    { id: 401, ownerId: 16, name: 'Dora channel', url: 'dora', categoryId: 1, vodVideoIds: [6001], createdAt: '2026-01-01T00:00:00Z' },
  );
  const app = (id: number) => catalog.apps.find((a: any) => a.id === id);
  app(302).channels = [{ channelId: 201 }, { channelId: 202 }];
  catalog.apps.push({
    id: 304,
    ownerId: 11,
    platform: 'firetv',
    appName: 'Alice Fire TV',
    theme: { primaryColor: 'aa0000', secondaryColor: 'bb0000', backgroundColor: 'cc0000', styleColor: 'dd0000' },
    channels: [{ channelId: 204 }, { channelId: 201 }],
    createdAt: '2026-03-01T00:00:00Z',
  });
  return catalog;
}

/**
 * The test app on the Custom catalog. Load shedding on event-loop lag is off: with suites
 * running in parallel on a small machine the loop lags past its threshold and requests would
 * be shed with 503 at random (the limits suite tests shedding itself).
 */
export function customTestApp(kind: DatabaseKind, config: Partial<Config> = {}): Promise<TestApp> {
  return testApp(kind, customCatalog(), config);
}

export type Headers = Record<string, string>;

export function customClient(t: () => TestApp) {
  const get = (url: string, headers: Headers = {}, now?: string) => t().request({ method: 'GET', url: `${BASE}${url}`, headers, now });
  const post = (url: string, payload?: unknown, headers: Headers = {}, now?: string) =>
    t().request({ method: 'POST', url: `${BASE}${url}`, headers, now, ...(payload === undefined ? {} : { payload: payload as any }) });
  const login = async (email: string, password: string) => {
    const response = await post('/auth/login', { email, password });
    expect(response.statusCode).toBe(200);
    return response.json().data.access_token as string;
  };
  return { get, post, login };
}

export const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

/** The 422 body with exactly these fields in error. */
export function invalidWith(...fields: string[]) {
  return { data: { message: 'The given data was invalid.', errors: Object.fromEntries(fields.map((f) => [f, [expect.any(String)]])) } };
}

export function failureOf(status: number, message: string) {
  return { data: { message, status_code: status } };
}
