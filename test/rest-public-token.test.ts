// Issue 37, item 3, from the attacker's side: a TV archive app token ships in every copy of a TV
// app, so whoever unpacks one holds it. Through REST it must not hand out the provider id (a
// YouTube id is the video) of a video only private channels hold, as the Custom API does not for
// a locked private channel. A sign-in token acts as the owner and sees everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_TOKEN, OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

const REST = '/api/v1/rest';
/** Only the private channel 202 holds it: in its library, its VOD and a block. */
const SECRET = { id: 5009, providerVideoId: 'privateYTid' };

function catalog() {
  const c: any = smallCatalog();
  c.videos.push({ id: SECRET.id, ownerId: 11, title: 'Members only', durationSeconds: 1800, providerName: 'YouTube', providerVideoId: SECRET.providerVideoId, categoryId: 2 });
  const music = c.channels.find((ch: any) => ch.id === 202);
  music.videoIds = [5003, SECRET.id];
  music.vodVideoIds = [5003, SECRET.id];
  music.timezone = 'UTC';
  music.schedules = [{ id: 9101, startTime: '2026-11-21T15:00:00', videoIds: [SECRET.id, 5001] }];
  return c;
}

describe.each(BACKENDS)('REST with a public app token on %s', (backend) => {
  let t: TestApp;
  let signIn: string;
  beforeAll(async () => {
    t = await testApp(backend, catalog());
    signIn = (await t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username: OWNER.username, password: OWNER.password } })).json().data.authToken;
  });
  afterAll(() => t?.close());

  const get = (url: string, token: string) => t.request({ url: `${REST}${url}`, headers: { authorization: `Bearer ${token}` }, now: '2026-11-21T15:10:00Z' });
  const urls = ['/channels', '/channels/202', '/channels/202/schedules?date=2026-11-21', '/channels/now'];

  it('names no provider id of a video only private channels hold, on any route, first or kept', async () => {
    for (const url of urls) {
      for (const round of [1, 2]) {
        const answer = await get(url, APP_TOKEN);
        expect(answer.statusCode, url).toBe(200);
        expect(answer.body, `${url} (${round})`).not.toContain(SECRET.providerVideoId);
        // Still listed: enough to sell it.
        expect(answer.body, url).toContain('Members only');
      }
    }
  });

  it('withholds only that: a video a public channel also holds keeps its provider id', async () => {
    const schedule = (await get('/channels/202/schedules?date=2026-11-21', APP_TOKEN)).json().data;
    const text = JSON.stringify(schedule);
    expect(text).toContain('abcdefghijk'); // 5001 plays in the public channel 201 too
    const list = (await get('/channels', APP_TOKEN)).json().data;
    const music = list.find((c: any) => c.channelTubeId === 202);
    const secret = JSON.stringify(music).includes('"providerVideoId":""');
    expect(secret).toBe(true);
    expect(JSON.stringify(music)).toContain('concert-1'); // 5003 is on air in 201 as a live stream
  });

  it('a sign-in token, acting as the owner, sees the provider id (and the app token never gets its kept answer)', async () => {
    for (const url of urls.slice(0, 3)) {
      const owner = await get(url, signIn);
      expect(owner.body, url).toContain(SECRET.providerVideoId);
      expect((await get(url, APP_TOKEN)).body, url).not.toContain(SECRET.providerVideoId);
    }
  });
});
