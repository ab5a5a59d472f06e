import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

// Filler that pads (issue 36 item 3, docs/programming.md): rolls and padTo on a slot, the
// channel's dead-air fallback, the preview's roles and dead air, an apply whose block holds them.
// Channel 201 (alice, America/New_York): a loopDaily block 9002 at 22:00 [5002] plays every day.
// Videos 5001 600.5 s, 5002 120.25 s, 5003 3600 s; olga's video 6001.
const P = '/channels/201/programming';

describe.each(BACKENDS)('Studio programming filler on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const collection = async (name: string, videoIds: number[], token?: string) => {
    const r = await s.call('POST', '/collections', { body: { name, videoIds }, ...(token ? { token } : {}) });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data.id as number;
  };
  // Mon 2026-12-14: 06:00-06:45, a pre-roll before the programme, padded to the quarter hour.
  const slot = (bumpers: number) => ({ days: [1], start: '06:00', videoIds: [5001], order: 'inOrder', end: '06:45', preRoll: { collectionId: bumpers }, padTo: 15 });

  it('refuses rolls, padding and fallbacks that cannot be, at their paths in words, storing nothing', async () => {
    const hers = await collection('Hers', [6001], s.tokens.olga);
    const bumpers = await collection('Bumpers', [5002]);
    const before = await s.call('GET', `${P}/slots`);
    const refused = await s.call('PUT', `${P}/slots`, {
      body: {
        slots: [
          { ...slot(bumpers), preRoll: { collectionId: hers }, padTo: 20 },
          { days: [2], start: '06:00', videoIds: [], order: 'inOrder', offAir: true, postRoll: { collectionId: bumpers } },
          { days: [3], start: '06:00', videoIds: [5001], order: 'inOrder', midRoll: { collectionId: 999_999 } },
        ],
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details).toEqual([
      { path: 'slots[0].padTo', message: 'must be 15, 30 or 60 (minutes) or null' },
      { path: 'slots[1].postRoll', message: 'must be left out for an off-air slot' },
    ]);
    const foreign = await s.call('PUT', `${P}/slots`, {
      body: {
        slots: [
          { ...slot(bumpers), preRoll: { collectionId: hers } },
          { days: [3], start: '06:00', videoIds: [5001], order: 'inOrder', midRoll: { collectionId: 999_999 } },
        ],
      },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.details).toEqual([
      { path: 'slots[0].preRoll.collectionId', message: `unknown collection ${hers}` },
      { path: 'slots[1].midRoll.collectionId', message: 'unknown collection 999999' },
    ]);
    expect((await s.call('GET', `${P}/slots`)).headers.etag).toBe(before.headers.etag);

    const fallback = await s.call('PUT', `${P}/fallback`, { body: { collectionId: hers } });
    expect(fallback.statusCode).toBe(422);
    expect(fallback.json().error.details).toEqual([{ path: 'collectionId', message: `unknown collection ${hers}` }]);
    expect((await s.call('GET', `${P}/fallback`)).json().data).toEqual({ channelId: 201, collectionId: null });

    // Padding plays the channel's filler: none yet.
    const noFiller = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-14', to: '2026-12-14', slots: [slot(bumpers)] } });
    expect(noFiller.statusCode).toBe(422);
    expect(noFiller.json().error.details).toEqual([
      { path: 'slots[0].padTo', message: "padding plays the channel's filler, and the channel has no filler list; PUT its filler (or send fillerVideoIds) first" },
    ]);
  });

  it('previews pre-roll, padding, fallback and dead air, and applies a block that holds them', async () => {
    const bumpers = await collection('Idents', [5002]);
    const spare = await collection('Spare', [5002]);
    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [5002] } })).statusCode).toBe(200);
    const put = await s.call('PUT', `${P}/slots`, { body: { slots: [slot(bumpers)] } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.slots).toEqual([slot(bumpers)]);

    // 120.25 (pre-roll) + 4 x 600.5 = 2522.25 s: 06:42:02; padding to 06:45 fits one 120.25 s filler.
    const preview = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-14', to: '2026-12-14' } });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json().data;
    expect(p.blocks).toHaveLength(1);
    expect(p.blocks[0].videoIds).toEqual([5002, 5001, 5001, 5001, 5001, 5002]);
    expect(p.blocks[0].roles).toEqual(['preRoll', 'programme', 'programme', 'programme', 'programme', 'padding']);
    expect(p.blocks[0].fillerVideos).toBe(2);
    expect(p.blocks[0].endTime).toBe('2026-12-14T06:44:02');
    expect(p.deadAir[0]).toEqual({ slot: null, startTime: '2026-12-14T00:00:00', endTime: '2026-12-14T06:00:00', seconds: 21600, reason: 'noSlot' });
    expect(p.deadAir[1]).toMatchObject({ slot: 0, startTime: '2026-12-14T06:44:02', endTime: '2026-12-14T06:45:00', reason: 'remainder' });
    // Past the slot's end the time is not its remainder: filler would not change it.
    expect(p.deadAir[2]).toMatchObject({ slot: 0, startTime: '2026-12-14T06:45:00', endTime: '2026-12-14T22:00:00', reason: 'afterEnd' });
    expect(p.totals.deadAirSeconds).toBeGreaterThan(21600);

    // The fallback fills what padding leaves of the slot (57.5 s: nothing of 120.25 s fits) and, without padding, its remainder.
    expect((await s.call('PUT', `${P}/fallback`, { body: { collectionId: spare } })).json().data).toEqual({ channelId: 201, collectionId: spare });
    const unpadded = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-14', to: '2026-12-14', slots: [{ ...slot(bumpers), padTo: null }] } });
    expect(unpadded.json().data.blocks[0].roles).toEqual(['preRoll', 'programme', 'programme', 'programme', 'programme', 'fallback']);
    const withoutFallback = await s.call('POST', `${P}/preview`, {
      body: { from: '2026-12-14', to: '2026-12-14', slots: [{ ...slot(bumpers), padTo: null }], fallbackCollectionId: null },
    });
    expect(withoutFallback.json().data.blocks[0].roles).toEqual(['preRoll', 'programme', 'programme', 'programme', 'programme']);
    expect((await s.call('GET', P)).json().data.fallbackCollectionId).toBe(spare);

    const etag = (await s.call('GET', '/channels/201/schedules')).headers.etag as string;
    const applied = await s.call('POST', `${P}/apply`, { body: { from: '2026-12-14', to: '2026-12-14' }, headers: { 'if-match': etag } });
    expect(applied.statusCode, applied.body).toBe(201);
    expect(applied.json().data.items.map((b: any) => [b.startTime, b.videoIds])).toEqual([['2026-12-14T06:00:00', [5002, 5001, 5001, 5001, 5001, 5002]]]);

    // A collection a roll or the fallback plays cannot be deleted.
    expect((await s.call('DELETE', `/collections/${bumpers}`)).statusCode).toBe(409);
    expect((await s.call('DELETE', `/collections/${spare}`)).statusCode).toBe(409);
  });
});
