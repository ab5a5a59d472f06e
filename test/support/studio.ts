// A Studio API test app: the small fixture catalog (alice, owner 11; victor, a viewer) plus a
// second owner, olga (16), with a channel, a video and an app of her own; signed-in tokens of each.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Config } from '../../src/config.ts';
import type { DatabaseKind } from '../../src/db/connect.ts';
import { APP_TOKEN, OWNER, VIEWER, smallCatalog } from '../fixtures/catalog.ts';
import { testApp, type TestApp } from './app.ts';

export const STUDIO = '/api/v1/studio';
export const OLGA = { id: 16, username: 'olga', email: 'olga@example.com', password: 'olga password' };

export function studioCatalog() {
  const catalog: any = smallCatalog();
  catalog.accounts.push({ ...OLGA, publicUrl: 'olga' });
  catalog.videos.push({ id: 6001, ownerId: 16, title: 'Olga video', durationSeconds: 300, providerName: 'YouTube', providerVideoId: 'olga1' });
  catalog.channels.push({
    id: 601,
    ownerId: 16,
    name: 'Olga channel',
    url: 'olga-one',
    categoryId: 1,
    timezone: 'Europe/Berlin',
    videoIds: [6001],
    schedules: [{ id: 9601, startTime: '2026-11-21T10:00:00', videoIds: [6001] }],
    createdAt: '2026-01-01T00:00:00Z',
  });
  catalog.apps.push({ id: 601, ownerId: 16, platform: 'roku', appName: 'Olga Roku', createdAt: '2026-01-01T00:00:00Z' });
  return catalog;
}

export interface StudioTest {
  t: TestApp;
  tokens: { alice: string; olga: string; victor: string; app: string };
  call(method: string, url: string, options?: { body?: unknown; token?: string; headers?: Record<string, string>; now?: string }): Promise<LightMyRequestResponse>;
}

export async function studioTest(kind: DatabaseKind, catalog: unknown = studioCatalog(), config: Partial<Config> = {}): Promise<StudioTest> {
  const t = await testApp(kind, catalog, config);
  const login = async (username: string, password: string) => {
    const response = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username, password } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.authToken as string;
  };
  const tokens = {
    alice: await login(OWNER.username, OWNER.password),
    olga: await login(OLGA.username, OLGA.password),
    victor: await login(VIEWER.username, VIEWER.password),
    app: APP_TOKEN,
  };
  return {
    t,
    tokens,
    call: (method, url, options = {}) =>
      t.request({
        method: method as never,
        url: `${STUDIO}${url}`,
        ...(options.body === undefined ? {} : { payload: options.body as never }),
        headers: { authorization: `Bearer ${options.token ?? tokens.alice}`, ...options.headers },
        ...(options.now ? { now: options.now } : {}),
      }),
  };
}
