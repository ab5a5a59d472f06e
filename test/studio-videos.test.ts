import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

const newVideo = { title: 'Fresh', durationSeconds: 90, providerName: 'YouTube', providerVideoId: 'fresh1' };

describe.each(BACKENDS)('Studio videos on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  it('refuses no token, an app token (401) and a viewer (403)', async () => {
    expect((await s.t.request({ url: '/api/v1/studio/videos' })).statusCode).toBe(401);
    const app = await s.call('GET', '/videos', { token: s.tokens.app });
    expect(app.statusCode).toBe(401);
    const viewer = await s.call('GET', '/videos', { token: s.tokens.victor });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual({ success: false, error: { code: 'forbidden', message: expect.any(String) } });
  });

  it("lists the owner's videos only, paginated and searchable", async () => {
    const page = (await s.call('GET', '/videos?per_page=2')).json().data;
    expect(page).toMatchObject({ page: 1, perPage: 2, total: 3 });
    expect(page.items.map((v: any) => v.id)).toEqual([5001, 5002]);
    const found = (await s.call('GET', '/videos?q=concert')).json().data;
    expect(found.items.map((v: any) => v.id)).toEqual([5003]);
    expect(found.items[0].renditions).toHaveLength(2);
    expect((await s.call('GET', '/videos', { token: s.tokens.olga })).json().data.items.map((v: any) => v.id)).toEqual([6001]);
  });

  it('creates a video with an assigned id, answers it with an ETag, and audits nothing else', async () => {
    const created = await s.call('POST', '/videos', { body: newVideo });
    expect(created.statusCode, created.body).toBe(201);
    const video = created.json().data;
    expect(video).toMatchObject({ ...newVideo, ownerId: 11, description: null, thumbnailUrl: '', renditions: [] });
    expect(video.id).toBeGreaterThan(6001);
    const read = await s.call('GET', `/videos/${video.id}`);
    expect(read.headers.etag).toBe(created.headers.etag);
    // GET adds the video's HLS ingest (null: not an HLS video); the ETag stays the video's own.
    expect(read.json().data).toEqual({ ...video, hls: null });
  });

  it('refuses bad bodies with 422 details in the import wording, creating nothing', async () => {
    const before = (await s.call('GET', '/videos')).json().data.total;
    const bad = await s.call('POST', '/videos', { body: { ...newVideo, durationSeconds: -1, colour: 'x', categoryId: 99 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('invalid_request');
    expect(bad.json().error.details).toEqual(
      expect.arrayContaining([
        { path: 'durationSeconds', message: 'must be at least 1 second' },
        { path: 'colour', message: 'unknown field' },
      ]),
    );
    const badRef = await s.call('POST', '/videos', { body: { ...newVideo, categoryId: 99 } });
    expect(badRef.statusCode).toBe(422);
    expect(badRef.json().error.details).toEqual([{ path: 'categoryId', message: 'unknown category 99' }]);
    const foreignOwner = await s.call('POST', '/videos', { body: { ...newVideo, ownerId: 16 } });
    expect(foreignOwner.statusCode).toBe(422);
    expect((await s.call('GET', '/videos')).json().data.total).toBe(before);
  });

  it('refuses an id already in use, whoever holds it, with the same answer', async () => {
    const mine = await s.call('POST', '/videos', { body: { ...newVideo, id: 5001 } });
    const hers = await s.call('POST', '/videos', { body: { ...newVideo, id: 6001 } });
    expect(mine.statusCode).toBe(409);
    expect(hers.statusCode).toBe(409);
    expect(hers.json().error.code).toBe('id_taken');
    expect(hers.json().error.message.replace('6001', 'N')).toBe(mine.json().error.message.replace('5001', 'N'));
  });

  it('bulk-creates in one transaction: one bad item creates none', async () => {
    const before = (await s.call('GET', '/videos')).json().data.total;
    const bad = await s.call('POST', '/videos', { body: [newVideo, { ...newVideo, title: 5 }] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details).toEqual([{ path: '[1].title', message: 'expected string, got number' }]);
    expect((await s.call('GET', '/videos')).json().data.total).toBe(before);
    const ok = await s.call('POST', '/videos', { body: [newVideo, { ...newVideo, providerVideoId: 'fresh2' }] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.items).toHaveLength(2);
    expect((await s.call('GET', '/videos')).json().data.total).toBe(before + 2);
  });

  it('a retried POST with the same Idempotency-Key creates nothing new', async () => {
    const headers = { 'idempotency-key': 'create-once-1' };
    const first = await s.call('POST', '/videos', { body: { ...newVideo, title: 'Idempotent' }, headers });
    const again = await s.call('POST', '/videos', { body: { ...newVideo, title: 'Idempotent' }, headers });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const onces = (await s.call('GET', '/videos?q=Idempotent')).json().data.items;
    expect(onces).toHaveLength(1);
    const other = await s.call('POST', '/videos', { body: { ...newVideo, title: 'Twice' }, headers });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
  });

  it('PATCH changes fields, honours If-Match and keeps id fixed', async () => {
    const read = await s.call('GET', '/videos/5002');
    const etag = read.headers.etag as string;
    const patched = await s.call('PATCH', '/videos/5002', { body: { title: 'Weather' }, headers: { 'if-match': etag } });
    expect(patched.statusCode, patched.body).toBe(200);
    const { hls: _hls, ...readVideo } = read.json().data;
    expect(patched.json().data).toEqual({ ...readVideo, title: 'Weather' });
    expect(patched.headers.etag).not.toBe(etag);
    const stale = await s.call('PATCH', '/videos/5002', { body: { title: 'Lost update' }, headers: { 'if-match': etag } });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('precondition_failed');
    expect((await s.call('GET', '/videos/5002')).json().data.title).toBe('Weather');
    expect((await s.call('PATCH', '/videos/5002', { body: { id: 77 } })).statusCode).toBe(422);
    // The change reaches the REST API's channel library at once.
    const rest = await s.t.request({ url: '/api/v1/rest/channels/201', headers: { authorization: `Bearer ${s.tokens.alice}` } });
    expect(rest.json().data.videos.map((v: any) => v.title)).toContain('Weather');
  });

  it("another owner's video answers 404 exactly as a missing one", async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const hers = await s.call(method, '/videos/6001', method === 'PATCH' ? { body: { title: 'x' } } : {});
      const none = await s.call(method, '/videos/999999', method === 'PATCH' ? { body: { title: 'x' } } : {});
      expect(hers.statusCode).toBe(404);
      expect(hers.body).toBe(none.body);
    }
  });

  it('refuses to delete a video in use, saying where; deletes an unused one', async () => {
    const used = await s.call('DELETE', '/videos/5001');
    expect(used.statusCode).toBe(409);
    expect(used.json().error.code).toBe('in_use');
    expect(used.json().error.message).toContain('channel 201');
    // A block is named by its start as the calendar shows it, never by its id (issue 36 item 7).
    expect(used.json().error.message).toContain('the block at 2026-11-21 08:00 of channel 201');
    expect(used.json().error.message).not.toMatch(/block 9001/);
    const usage = (await s.call('GET', '/videos/5001/usage')).json().data;
    expect(usage.libraryChannelIds).toEqual([201]);
    expect(usage.scheduleBlocks).toContainEqual({ channelId: 201, blockId: 9001, startTime: '2026-11-21T08:00:00', loopDaily: false });
    const created = (await s.call('POST', '/videos', { body: { ...newVideo, title: 'Doomed' } })).json().data;
    const gone = await s.call('DELETE', `/videos/${created.id}`);
    expect(gone.statusCode).toBe(204);
    expect((await s.call('GET', `/videos/${created.id}`)).statusCode).toBe(404);
  });

  it('records every change in the audit trail', async () => {
    const { sql } = await import('drizzle-orm');
    const result: any = await s.t.database.db.execute(sql`select action, resource, fields from studio_audit where owner_id = 11 order by id`);
    const rows = result.rows as { action: string; resource: string; fields: string[] }[];
    expect(rows.some((r) => r.action === 'update' && r.resource === 'videos/5002' && r.fields.includes('title'))).toBe(true);
    expect(rows.some((r) => r.action === 'delete')).toBe(true);
  });
});
