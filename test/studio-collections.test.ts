import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

// alice (11): videos 5001 'Morning news' (YouTube, 600.5 s, category 1), 5002 'Weather "live" &
// <more>' (Vimeo, 120.25 s, category 1), 5003 'Concert' (Custom, 3600 s, category 2); channel 201
// in America/New_York. olga (16): video 6001, channel 601. Each test names collections of its own.
const P = '/channels/201/programming';

describe.each(BACKENDS)('Studio collections on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const create = (body: unknown, token?: string) => s.call('POST', '/collections', { body, ...(token ? { token } : {}) });
  const audit = async () =>
    ((await s.t.database.db.execute(sql`select action, resource from studio_audit where owner_id = 11 and resource like 'collections/%' order by id`)) as any).rows as {
      action: string;
      resource: string;
    }[];

  it('keeps manual collections in order with ETags, and refuses foreign videos, duplicate names and half-made bodies, storing nothing', async () => {
    const made = await create({ name: 'Mornings', videoIds: [5002, 5001] });
    expect(made.statusCode, made.body).toBe(201);
    const collection = made.json().data;
    expect(collection).toMatchObject({ name: 'Mornings', kind: 'manual', videoIds: [5002, 5001], rules: null, usedBy: [] });
    const read = await s.call('GET', `/collections/${collection.id}`);
    expect(read.headers.etag).toBe(made.headers.etag);
    expect(read.json().data).toEqual(collection);

    const refused = [
      await create({ name: 'Foreign', videoIds: [5001, 6001] }),
      await create({ name: ' mornings ', videoIds: [5003] }),
      await create({ name: 'Both', videoIds: [5001], rules: { minSeconds: 60 } }),
      await create({ name: '', videoIds: [5001] }),
      await create({ name: 'Upside down', rules: { minSeconds: 600, maxSeconds: 60 } }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([422, 422, 422, 422, 422]);
    expect(refused[0]!.json().error.details).toEqual([{ path: 'videoIds[1]', message: 'unknown video 6001' }]);
    expect(refused[1]!.json().error.details).toEqual([{ path: 'name', message: "you already have a collection named 'mornings'" }]);
    expect(refused[2]!.json().error.details).toEqual([{ path: 'videoIds', message: 'send either videoIds (a manual collection) or rules (a smart one)' }]);
    expect(refused[3]!.json().error.details.map((d: any) => d.path)).toEqual(['name']);
    expect(refused[4]!.json().error.details).toEqual([{ path: 'rules.maxSeconds', message: 'must not be below minSeconds (600)' }]);
    expect((await s.call('GET', '/collections')).json().data.map((c: any) => c.name)).toEqual(['Mornings']);

    const renamed = await s.call('PUT', `/collections/${collection.id}`, { body: { name: 'Early', videoIds: [5001] }, headers: { 'if-match': made.headers.etag as string } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Early', videoIds: [5001] });
    const stale = await s.call('PUT', `/collections/${collection.id}`, { body: { name: 'Late', videoIds: [5001] }, headers: { 'if-match': made.headers.etag as string } });
    expect(stale.statusCode).toBe(412);
    expect(await audit()).toEqual([
      { action: 'create', resource: `collections/${collection.id}` },
      { action: 'update', resource: `collections/${collection.id}` },
    ]);
  });

  it("resolves a smart collection against the owner's videos only, by every rule, in catalog order", async () => {
    const smart = async (name: string, rules: object) => {
      const r = await create({ name, rules });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data;
    };
    expect((await smart('Everything', {})).videoIds).toEqual([5001, 5002, 5003]);
    expect((await smart('News category', { categoryIds: [1] })).videoIds).toEqual([5001, 5002]);
    expect((await smart('Vimeo and Custom', { providerNames: ['vimeo', 'CUSTOM'] })).videoIds).toEqual([5002, 5003]);
    expect((await smart('Five to fifteen minutes', { minSeconds: 300, maxSeconds: 900 })).videoIds).toEqual([5001]);
    const quoted = await smart('Quoted weather', { titleContains: 'WEATHER "LIVE"' });
    expect(quoted).toMatchObject({ kind: 'smart', videoIds: [5002], rules: { titleContains: 'WEATHER "LIVE"' } });
    // olga's video matches her own rules, never alice's collection; alice's collections are not hers to see.
    const olgas = await create({ name: 'Everything', rules: {} }, s.tokens.olga);
    expect(olgas.statusCode, olgas.body).toBe(201);
    expect(olgas.json().data.videoIds).toEqual([6001]);
    expect((await s.call('GET', `/collections/${quoted.id}`, { token: s.tokens.olga })).statusCode).toBe(404);
    expect((await s.call('PUT', `/collections/${quoted.id}`, { token: s.tokens.olga, body: { name: 'Mine', rules: {} } })).statusCode).toBe(404);
    expect((await s.call('DELETE', `/collections/${quoted.id}`, { token: s.tokens.olga })).statusCode).toBe(404);
    expect((await s.call('GET', '/collections', { token: s.tokens.olga })).json().data.map((c: any) => c.id)).toEqual([olgas.json().data.id]);
  });

  it('plays a collection from a slot: generation reads what it holds, and it cannot be deleted while a slot plays it', async () => {
    const concerts = (await create({ name: 'Long ones', rules: { minSeconds: 3000 } })).json().data;
    const manual = (await create({ name: 'Short ones', videoIds: [5002, 5001] })).json().data;
    const foreign = (await create({ name: 'Hers', rules: {} }, s.tokens.olga)).json().data;
    const slot = (start: string, collectionId: number) => ({ days: [1, 2, 3, 4, 5, 6, 7], start, videoIds: [], order: 'inOrder', collectionId });

    const bad = await s.call('PUT', `${P}/slots`, {
      body: { slots: [slot('08:00', foreign.id), { ...slot('09:00', manual.id), videoIds: [5001] }, { days: [1], start: '10:00', videoIds: [], order: 'inOrder' }] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toEqual([
      { path: 'slots[1].videoIds', message: 'must be empty when the slot plays a collection' },
      { path: 'slots[2].videoIds', message: 'must not be empty (or name a collectionId)' },
    ]);
    const unknown = await s.call('PUT', `${P}/slots`, { body: { slots: [slot('08:00', foreign.id)] } });
    expect(unknown.json().error.details).toEqual([{ path: 'slots[0].collectionId', message: `unknown collection ${foreign.id}` }]);

    const put = await s.call('PUT', `${P}/slots`, {
      body: {
        slots: [
          { ...slot('08:00', concerts.id), end: '10:00' },
          { ...slot('20:00', manual.id), end: '20:15' },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.slots[0]).toEqual({ ...slot('08:00', concerts.id), end: '10:00' });
    const preview = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-14', to: '2026-12-14' } });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.blocks.map((b: any) => [b.startTime, b.videoIds])).toEqual([
      // The slot's two hours hold the one long video twice; the quarter hour 5002, 5001 and 5002 again.
      ['2026-12-14T08:00:00', [5003, 5003]],
      ['2026-12-14T20:00:00', [5002, 5001, 5002]],
    ]);

    // A smart collection plays what it matches when generated: a new long video joins it.
    const added = await s.call('POST', '/videos', {
      body: { title: 'Opera', durationSeconds: 3300, providerName: 'Custom', providerVideoId: 'opera-1', streamUrl: 'https://media.example/opera.m3u8' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const opera = added.json().data.id as number;
    const later = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-15', to: '2026-12-16' } });
    expect(
      later
        .json()
        .data.blocks.filter((b: any) => b.startTime.endsWith('08:00:00'))
        .map((b: any) => b.videoIds),
    ).toEqual([
      [5003, opera],
      [5003, opera],
    ]);

    const inUse = await s.call('DELETE', `/collections/${manual.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.message).toBe("The collection 'Short ones' is still played by slot 2 (every day 20:00) of channel 201's programming; give them other videos first.");
    expect((await s.call('GET', `/collections/${manual.id}`)).json().data.usedBy).toEqual([{ channelId: 201, slot: 2, when: 'every day 20:00' }]);
    const videoInUse = await s.call('DELETE', '/videos/5002');
    expect(videoInUse.statusCode).toBe(409);
    expect(videoInUse.json().error.message).toContain("the collection 'Short ones'");
    expect((await s.call('GET', '/videos/5002/usage')).json().data.collections).toEqual([{ id: manual.id, name: 'Short ones' }]);

    // The filler may play a collection too: 'Short ones' fills what the long videos leave.
    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [5002], collectionId: manual.id } })).json().error.details).toEqual([
      { path: 'videoIds', message: 'must be empty when the filler plays a collection' },
    ]);
    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [], collectionId: foreign.id } })).json().error.details).toEqual([
      { path: 'collectionId', message: `unknown collection ${foreign.id}` },
    ]);
    const filler = await s.call('PUT', `${P}/filler`, { body: { videoIds: [], collectionId: manual.id } });
    expect(filler.statusCode, filler.body).toBe(200);
    expect(filler.json().data).toEqual({ channelId: 201, videoIds: [], collectionId: manual.id });
    const filled = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-18', to: '2026-12-18', fill: true } });
    expect(filled.statusCode, filled.body).toBe(200);
    // Two hours of 5003 (and opera) leave 300 s: two 120.25 s Weather clips fill them best.
    expect(filled.json().data.blocks[0]).toMatchObject({ startTime: '2026-12-18T08:00:00', fillerVideos: expect.any(Number) });
    expect(filled.json().data.totals.fillerVideos).toBeGreaterThan(0);
    expect((await s.call('GET', `/collections/${manual.id}`)).json().data.fillerChannelIds).toEqual([201]);
    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [] } })).json().data).toEqual({ channelId: 201, videoIds: [], collectionId: null });

    // A random slot: each occurrence plays one of two collections, drawn by weight from its seed.
    const randomSlot = {
      days: [1, 2, 3, 4, 5, 6, 7],
      start: '12:00',
      end: '13:00',
      videoIds: [],
      order: 'inOrder',
      seed: 7,
      collections: [
        { collectionId: manual.id, weight: 1 },
        { collectionId: concerts.id, weight: 3 },
      ],
    };
    const refusedRandom = await s.call('PUT', `${P}/slots`, {
      body: {
        slots: [
          { ...randomSlot, collections: [{ collectionId: manual.id, weight: 1 }] },
          {
            ...randomSlot,
            start: '14:00',
            end: '15:00',
            collections: [
              { collectionId: manual.id, weight: 0 },
              { collectionId: foreign.id, weight: 1 },
            ],
          },
        ],
      },
    });
    expect(refusedRandom.json().error.details).toEqual([
      { path: 'slots[0].collections', message: 'must name at least 2 collections (a slot of one plays it with collectionId)' },
      { path: 'slots[1].collections[0].weight', message: 'must be 1 to 100' },
    ]);
    expect(
      (
        await s.call('PUT', `${P}/slots`, {
          body: {
            slots: [
              {
                ...randomSlot,
                collections: [
                  { collectionId: manual.id, weight: 1 },
                  { collectionId: foreign.id, weight: 1 },
                ],
              },
            ],
          },
        })
      ).json().error.details,
    ).toEqual([{ path: 'slots[0].collections[1].collectionId', message: `unknown collection ${foreign.id}` }]);
    const random = await s.call('PUT', `${P}/slots`, { body: { slots: [randomSlot] } });
    expect(random.statusCode, random.body).toBe(200);
    expect(random.json().data.slots).toEqual([randomSlot]);
    const drawn = async () => (await s.call('POST', `${P}/preview`, { body: { from: '2026-12-21', to: '2026-12-27' } })).json().data.blocks.map((b: any) => b.videoIds[0]);
    const first = await drawn();
    // Each day draws one collection: a block opening with 5003 or the opera is 'Long ones', one opening with 5002 or 5001 'Short ones'.
    // The same seed draws the same week, and over a week (weights 1 and 3) both are drawn.
    expect(first).toHaveLength(7);
    expect(await drawn()).toEqual(first);
    const long = first.filter((id: number) => id === 5003 || id === opera).length;
    expect([long > 0, long < 7]).toEqual([true, true]);
    expect((await s.call('GET', `/collections/${concerts.id}`)).json().data.usedBy).toEqual([{ channelId: 201, slot: 1, when: 'every day 12:00' }]);
    const seededAgain = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-21', to: '2026-12-27', slots: [{ ...randomSlot, seed: 8 }] } });
    expect(seededAgain.statusCode, seededAgain.body).toBe(200);

    // Once no slot plays it, it goes; a slot plan that still named it would be refused.
    expect((await s.call('PUT', `${P}/slots`, { body: { slots: [{ ...slot('08:00', concerts.id), end: '10:00' }] } })).statusCode).toBe(200);
    const gone = await s.call('DELETE', `/collections/${manual.id}`);
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await s.call('GET', `/collections/${manual.id}`)).statusCode).toBe(404);
    const emptied = await s.call('PUT', `/collections/${concerts.id}`, { body: { name: 'Long ones', rules: { minSeconds: 100_000 } } });
    expect(emptied.json().data.videoIds).toEqual([]);
    const nothing = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-17', to: '2026-12-17' } });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().error.details).toEqual([
      { path: 'slots (the stored plan)[0].collectionId', message: `collection ${concerts.id} holds no videos now; add some or pick another` },
    ]);
  });
});
