// The whole demo catalog rebuilt from an empty database through the Studio API alone (after
// `channelnet owner create` made its owners): every REST, Custom and legacy answer about the
// catalog then equals the answer of the imported demo catalog. Viewer state is not the Studio's
// (favorites, purchases, viewer accounts), so answers that depend on it are not compared. Nor
// are a channel's verified badge and subscriber count: the operator sets those (here in SQL, as
// the catalog import would), and the Studio refuses an owner's value for them.
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../src/catalog/owners.ts';
import { DEMO_LOGINS, demoCatalog } from '../src/demo/catalog.ts';
import { TEST_NOW, testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const demo: any = demoCatalog(new Date(TEST_NOW));
const OWNER_LOGINS = DEMO_LOGINS.filter((l) => l.role === 'owner');
const owners = demo.accounts.filter((a: any) => OWNER_LOGINS.some((l) => l.username === a.username));
const DATES = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-24'];
const TV_PLATFORMS = ['fire-tv', 'android-tv', 'apple-tv', 'roku'];
const PLATFORM_IDS = ['ios', 'android', 'roku', 'fire-tv', 'apple-tv', 'android-tv'];

async function signIn(t: TestApp, username: string): Promise<string> {
  const password = DEMO_LOGINS.find((l) => l.username === username)!.password;
  const response = await t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username, password } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.authToken;
}

/** Builds the demo network in `t` through the Studio API; returns each owner's sign-in token. */
async function rebuild(t: TestApp): Promise<Map<number, string>> {
  for (const account of owners) {
    const created = await createOwner(
      t.database.db,
      {
        id: account.id,
        username: account.username,
        email: account.email,
        password: account.password,
        publicUrl: account.publicUrl,
        fullName: account.fullName ?? null,
        publicName: account.publicName ?? null,
      },
      new Date(TEST_NOW),
    );
    expect(created).toEqual({ ok: true, id: account.id });
  }
  const tokens = new Map<number, string>();
  for (const account of owners) tokens.set(account.id, await signIn(t, account.username));
  const studio = async (ownerId: number, method: string, url: string, body: unknown) => {
    const response = await t.request({ method: method as never, url: `/api/v1/studio${url}`, payload: body as never, headers: { authorization: `Bearer ${tokens.get(ownerId)}` } });
    expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 500)}`).toBeLessThan(300);
    return response;
  };
  const first = owners[0].id;
  for (const category of demo.categories) await studio(first, 'POST', '/categories', category);
  for (const language of demo.languages) await studio(first, 'POST', '/languages', language);
  for (const account of owners) {
    const videos = demo.videos.filter((v: any) => v.ownerId === account.id);
    if (videos.length > 0) await studio(account.id, 'POST', '/videos', videos);
    for (const { isVerified, subscriberCount, ...channel } of demo.channels.filter((c: any) => c.ownerId === account.id)) {
      await studio(account.id, 'POST', '/channels', channel);
      await t.database.db.execute(sql`update channels set is_verified = ${isVerified ?? false}, subscriber_count = ${subscriberCount ?? 0} where id = ${channel.id}`);
    }
    for (const app of demo.apps.filter((a: any) => a.ownerId === account.id)) await studio(account.id, 'PUT', `/apps/${app.platform}`, app);
    if (account.branding) await studio(account.id, 'PUT', '/branding', account.branding);
  }
  return tokens;
}

/** Every catalog answer of the three public groups, by request, for the demo's owners and channels. */
function catalogRequests(): { url: string; owner?: number; headers?: Record<string, string> }[] {
  const requests: { url: string; owner?: number; headers?: Record<string, string> }[] = [];
  for (const account of owners) {
    const id = account.id;
    const channels = demo.channels.filter((c: any) => c.ownerId === id).map((c: any) => c.id);
    requests.push({ url: '/api/v1/rest/channels', owner: id });
    for (const platform of ['mobile', 'roku', 'firetv', 'appletv', 'androidtv']) requests.push({ url: `/api/v1/rest/apps/${platform}`, owner: id });
    for (const channel of channels) {
      requests.push({ url: `/api/v1/rest/channels/${channel}`, owner: id });
      for (const date of DATES) requests.push({ url: `/api/v1/rest/channels/${channel}/schedules?date=${date}`, owner: id });
      for (const platform of ['web', 'roku', 'firetv', 'ios', 'android']) requests.push({ url: `/api/v1/services/custom/channels/${channel}/vast?platform=${platform}` });
      requests.push({ url: `/WebServices/VastService.asmx/GetVastSettings?channelId=${channel}` });
      requests.push({ url: `/WebServices/RokuAppGeneratorService.asmx/GetChannelTubeRokuSettings?channelId=${channel}` });
      requests.push({ url: `/WebServices/MobileAppGeneratorService.asmx/GetChannelMobileApp?userId=${id}&channelId=${channel}` });
    }
    const custom = `/api/v1/services/custom/users/${id}`;
    requests.push({ url: `${custom}/settings` }, { url: `${custom}/categories` }, { url: `${custom}/languages` });
    for (const platform of PLATFORM_IDS) {
      const headers = { 'platform-id': platform };
      requests.push(
        { url: `${custom}/app_settings`, headers },
        { url: `${custom}/channels`, headers },
        { url: `${custom}/channels/video?channels_ids=${channels.join(',')}&dates=${DATES.join(',')}`, headers },
        { url: `${custom}/channels/vod?channels_ids=${channels.join(',')}`, headers },
      );
    }
    requests.push({ url: `/WebServices/RokuAppGeneratorService.asmx/GetUserRokuApp?userId=${id}` });
    for (const platform of TV_PLATFORMS) requests.push({ url: `/WebServices/TVAppGeneratorService.asmx/GetUserTVApp?userId=${id}&platform=${platform}` });
  }
  return requests;
}

describe.each(BACKENDS)('the demo catalog rebuilt through the Studio API on %s', (backend) => {
  let imported: TestApp;
  let rebuilt: TestApp;
  let importedTokens: Map<number, string>;
  let rebuiltTokens: Map<number, string>;
  beforeAll(async () => {
    imported = await testApp(backend, demo);
    rebuilt = await testApp(backend, { format: 'channel-network-catalog', version: 1 });
    importedTokens = new Map();
    for (const account of owners) importedTokens.set(account.id, await signIn(imported, account.username));
    rebuiltTokens = await rebuild(rebuilt);
  }, 240_000);
  afterAll(async () => {
    await imported?.close();
    await rebuilt?.close();
  });

  it('answers every catalog request as the imported demo catalog does', async () => {
    const answer = (t: TestApp, tokens: Map<number, string>, r: { url: string; owner?: number; headers?: Record<string, string> }): Promise<LightMyRequestResponse> =>
      t.request({ url: r.url, headers: { ...r.headers, ...(r.owner ? { authorization: `Bearer ${tokens.get(r.owner)}` } : {}) } });
    const requests = catalogRequests();
    expect(requests.length).toBeGreaterThan(150);
    let compared = 0;
    for (const request of requests) {
      const [want, got] = [await answer(imported, importedTokens, request), await answer(rebuilt, rebuiltTokens, request)];
      expect(`${got.statusCode} ${got.body}`, request.url).toBe(`${want.statusCode} ${want.body}`);
      if (want.statusCode === 200) compared++;
    }
    // Most of them are real answers, not refusals that would match trivially.
    expect(compared).toBeGreaterThan(requests.length * 0.6);
  }, 240_000);
});
