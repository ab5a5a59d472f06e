// Writes of one owner racing each other: each is one transaction under the owner's write lock,
// so a video deleted while a library names it never leaves a dangling reference, and two
// editors of one block holding the same ETag cannot both win.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

const video = { title: 'Racer', durationSeconds: 60, providerName: 'YouTube', providerVideoId: 'race' };

describe.each(BACKENDS)('racing Studio writes on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];

  it('a video deleted while a library adds it: one of the two is refused, never a dangling reference', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const id = (await s.call('POST', '/videos', { body: video })).json().data.id;
      const [deleted, added] = await Promise.all([s.call('DELETE', `/videos/${id}`), s.call('PUT', '/channels/202/library', { body: { videoIds: [5003, id] } })]);
      outcomes.add(`${deleted.statusCode}/${added.statusCode}`);
      if (deleted.statusCode === 204) {
        expect(added.statusCode).toBe(422);
        expect(added.json().error.details).toEqual([{ path: 'videoIds[1]', message: `unknown video ${id}` }]);
      } else {
        expect(deleted.statusCode).toBe(409);
        expect(deleted.json().error.code).toBe('in_use');
        expect(added.statusCode).toBe(200);
      }
      const dangling = await rows(sql`select cv.video_id from channel_videos cv left join videos v on v.id = cv.video_id where v.id is null`);
      expect(dangling).toEqual([]);
      await s.call('PUT', '/channels/202/library', { body: { videoIds: [5003] } });
    }
    expect([...outcomes].every((o) => o === '204/422' || o === '409/200')).toBe(true);
  });

  it('two editors holding one ETag: the first write wins, the second gets 412 and changes nothing', async () => {
    const read = await s.call('GET', '/channels/201/schedules/9001');
    const etag = read.headers.etag as string;
    const [a, b] = await Promise.all([
      s.call('PATCH', '/channels/201/schedules/9001', { body: { published: false }, headers: { 'if-match': etag } }),
      s.call('PATCH', '/channels/201/schedules/9001', { body: { startTime: '2026-11-21T07:00:00' }, headers: { 'if-match': etag } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 412]);
    const after = (await s.call('GET', '/channels/201/schedules/9001')).json().data;
    const winner = a.statusCode === 200 ? a : b;
    expect(after).toEqual(winner.json().data);
  });
});
