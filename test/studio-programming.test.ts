import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

// Channel 201 (alice, America/New_York): a loopDaily block 9002 at 22:00 [5002] (2 min) plays
// every day; one-off blocks 9001 and 9003 on 2026-11-21. Videos 5001 600.5 s, 5002 120.25 s,
// 5003 3600 s; olga's 6001 (channel 601). Each test works on dates of its own in December.
const P = '/channels/201/programming';
const SCHEDULES = '/channels/201/schedules';

type Block = { id: number; startTime: string; published: boolean; loopDaily: boolean; videoIds: number[] };

describe.each(BACKENDS)('Studio programming tools on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const list = async () => {
    const r = await s.call('GET', SCHEDULES);
    return { etag: r.headers.etag as string, items: r.json().data.items as Block[] };
  };
  const audit = async (resourcePrefix: string) =>
    ((await s.t.database.db.execute(sql`select action, resource from studio_audit where owner_id = 11 and resource like ${`${resourcePrefix}%`} order by id`)) as any).rows as {
      action: string;
      resource: string;
    }[];
  const SLOTS = [
    { days: [1, 2, 3, 4, 5, 6, 7], start: '06:00', videoIds: [5001, 5002], order: 'inOrder' },
    { days: [1, 2, 3, 4, 5], start: '12:00', videoIds: [5003, 5001], order: 'shuffle', seed: 3 },
    { days: [1, 2, 3, 4, 5, 6, 7], start: '18:00', videoIds: [5003], order: 'leastRecentlyAired', published: false },
  ];

  it("keeps a slot plan and a filler list with ETags, refusing bad ones and another owner's videos with details, storing nothing", async () => {
    const empty = await s.call('GET', `${P}/slots`);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().data).toEqual({ channelId: 201, timezone: 'America/New_York', slots: [] });

    const foreign = await s.call('PUT', `${P}/slots`, { body: { slots: [{ ...SLOTS[0], videoIds: [5001, 6001] }] } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.details).toEqual([{ path: 'slots[0].videoIds[1]', message: 'unknown video 6001' }]);
    const bad = await s.call('PUT', `${P}/slots`, { body: { slots: [{ days: [0], start: '6:00', videoIds: [], order: 'random' }] } });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .error.details.map((d: any) => d.path)
        .sort(),
    ).toEqual(['slots[0].days[0]', 'slots[0].order', 'slots[0].start', 'slots[0].videoIds']);
    const twice = await s.call('PUT', `${P}/slots`, { body: { slots: [SLOTS[0], { ...SLOTS[1], start: '06:00' }] } });
    expect(twice.json().error.details).toEqual([{ path: 'slots[1].start', message: 'slot 0 also starts at 06:00 on Monday, Tuesday, Wednesday, Thursday, Friday' }]);
    expect((await s.call('GET', `${P}/slots`)).headers.etag).toBe(empty.headers.etag);

    const put = await s.call('PUT', `${P}/slots`, { body: { slots: SLOTS }, headers: { 'if-match': empty.headers.etag as string } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data.slots).toEqual(SLOTS);
    const read = await s.call('GET', `${P}/slots`);
    expect(read.headers.etag).toBe(put.headers.etag);
    const stale = await s.call('PUT', `${P}/slots`, { body: { slots: [] }, headers: { 'if-match': empty.headers.etag as string } });
    expect(stale.statusCode).toBe(412);

    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [6001] } })).json().error.details).toEqual([{ path: 'videoIds[0]', message: 'unknown video 6001' }]);
    const filler = await s.call('PUT', `${P}/filler`, { body: { videoIds: [5002] } });
    expect(filler.statusCode, filler.body).toBe(200);
    expect((await s.call('GET', `${P}/filler`)).json().data).toEqual({ channelId: 201, videoIds: [5002], collectionId: null });
    expect((await audit('channels/201/programming')).map((r) => r.resource)).toEqual(['channels/201/programming/slots', 'channels/201/programming/filler']);
  });

  it('keeps slots that end and off-air slots, refuses the ones that cannot be, and previews their lengths and warnings', async () => {
    const weekdays = { days: [1, 2, 3, 4, 5], start: '19:00', videoIds: [5001], order: 'inOrder' };
    const refused = await s.call('PUT', `${P}/slots`, {
      body: {
        slots: [
          { ...weekdays, end: '19:00' },
          { days: [6], start: '01:00', videoIds: [5001], order: 'inOrder', offAir: true },
          { days: [7], start: '01:00', videoIds: [], order: 'inOrder', offAir: true, end: '02:00' },
          { ...weekdays, start: '07:00', end: '25:00' },
        ],
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details).toEqual([
      { path: 'slots[0].end', message: 'must differ from start (leave it out to run until the next slot)' },
      { path: 'slots[1].videoIds', message: 'must be empty for an off-air slot' },
      { path: 'slots[2].end', message: 'must be left out for an off-air slot (it lasts until the next slot)' },
      { path: 'slots[3].end', message: 'must be a time of day HH:mm (00:00 to 23:59)' },
    ]);
    // A preview of an unsaved plan (the 72-hour Friday of a slot without an end is the unit test's:
    // here the daily loop at 22:00 ends every slot); an end the loop comes before is warned about.
    const range = { from: '2026-12-25', to: '2026-12-25' };
    const open = (await s.call('POST', `${P}/preview`, { body: { ...range, slots: [weekdays] } })).json().data;
    expect(open.blocks[0]).toMatchObject({ startTime: '2026-12-25T19:00:00', slotEndTime: '2026-12-25T22:00:00', slotSeconds: 3 * 3600 });
    expect(open.warnings).toEqual([]);
    const plan = [
      { ...weekdays, end: '01:00' },
      { days: [1, 2, 3, 4, 5, 6, 7], start: '23:00', videoIds: [], order: 'inOrder', offAir: true },
    ];
    const ended = (await s.call('POST', `${P}/preview`, { body: { ...range, slots: plan } })).json().data;
    expect(ended.warnings).toEqual([{ slot: 0, startTime: '2026-12-25T19:00:00', message: 'ends at 22:00, 3 h before its end 01:00: a schedule block starts then' }]);
    // The daily loop at 22:00 comes first; 5001 (600.5 s) fits 17 times in 3 h.
    expect(ended.blocks).toEqual([expect.objectContaining({ slotEndTime: '2026-12-25T22:00:00', slotSeconds: 3 * 3600, durationSeconds: 17 * 600.5 })]);
    const saved = await s.call('PUT', `${P}/slots`, { body: { slots: plan } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await s.call('GET', `${P}/slots`)).json().data.slots).toEqual(plan);
    // The next tests preview the plan the first one stored.
    expect((await s.call('PUT', `${P}/slots`, { body: { slots: SLOTS } })).statusCode).toBe(200);
  });

  it('refuses another owner every programming route, as if the channel did not exist', async () => {
    const olga = { token: s.tokens.olga };
    const body = { from: '2026-12-01', to: '2026-12-02' };
    for (const [method, url, payload] of [
      ['GET', P],
      ['GET', `${P}/slots`],
      ['PUT', `${P}/slots`, { slots: [] }],
      ['GET', `${P}/filler`],
      ['PUT', `${P}/filler`, { videoIds: [] }],
      ['POST', `${P}/preview`, body],
      ['POST', `${P}/apply`, body],
      ['POST', `${P}/undo`, {}],
      ['POST', `${P}/template`, { sourceFrom: '2026-11-21', sourceDays: 1, from: '2026-12-01', to: '2026-12-02', mode: 'replace' }],
    ] as const) {
      const r = await s.call(method, url, { ...olga, ...(payload ? { body: payload } : {}) });
      expect(r.statusCode, `${method} ${url}`).toBe(404);
      expect(r.json().error.message).toBe('Channel not found.');
    }
    // Her own channel with alice's videos: unknown videos, never alice's titles or durations.
    const mixed = await s.call('POST', '/channels/601/programming/preview', { ...olga, body: { ...body, slots: [{ ...SLOTS[0], videoIds: [5001] }] } });
    expect(mixed.statusCode).toBe(422);
    expect(mixed.json().error.details).toEqual([{ path: 'slots[0].videoIds[0]', message: 'unknown video 5001' }]);
  });

  it('previews a week without writing, applies it as one audited, idempotent write, and undoes it exactly', async () => {
    const before = await list();
    const range = { from: '2026-12-07', to: '2026-12-13', fill: true };
    const preview = await s.call('POST', `${P}/preview`, { body: range });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json().data;
    expect((await list()).etag).toBe(before.etag);
    // 7 mornings, 5 weekday noons, 7 evenings.
    expect(p.totals.blocks).toBe(19);
    expect(p.blocks[0]).toMatchObject({ slot: 0, startTime: '2026-12-07T06:00:00', slotEndTime: '2026-12-07T12:00:00', published: true });
    // The evening slot runs to the loop at 22:00, not past it; 5003 (1 h) fits 4 times, filler 5002 does not fit the rest? 0 s left.
    const evening = p.blocks.find((b: any) => b.startTime === '2026-12-07T18:00:00');
    expect(evening).toMatchObject({ slotEndTime: '2026-12-07T22:00:00', endTime: '2026-12-07T22:00:00', videoIds: [5003, 5003, 5003, 5003], published: false });
    for (const b of p.blocks) expect(b.endTime <= b.slotEndTime).toBe(true);
    // Saturday's morning runs to Saturday 18:00 (no noon slot on weekends), filled with 5002.
    const saturday = p.blocks.find((b: any) => b.startTime === '2026-12-12T06:00:00');
    expect(saturday.slotEndTime).toBe('2026-12-12T18:00:00');
    expect(saturday.fillerVideos).toBeGreaterThan(0);
    expect(p.conflicts).toEqual([]);

    const stale = await s.call('POST', `${P}/apply`, { body: range, headers: { 'if-match': '"stale"' } });
    expect(stale.statusCode).toBe(412);
    const headers = { 'if-match': before.etag, 'idempotency-key': 'week-50' };
    const applied = await s.call('POST', `${P}/apply`, { body: range, headers });
    expect(applied.statusCode, applied.body).toBe(201);
    const items = applied.json().data.items as Block[];
    expect(items.map((b) => [b.startTime, b.videoIds, b.published])).toEqual(p.blocks.map((b: any) => [b.startTime, b.videoIds, b.published]));
    const retried = await s.call('POST', `${P}/apply`, { body: range, headers });
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toEqual(applied.json());
    const after = await list();
    expect(after.items.length).toBe(before.items.length + 19);
    const created = await audit(`channels/201/schedules/`);
    expect(created.filter((r) => items.some((b) => r.resource === `channels/201/schedules/${b.id}`)).map((r) => r.action)).toEqual(Array(19).fill('create'));
    // Every existing answer sees ordinary blocks: REST's day lists the generated morning.
    const rest = await s.t.request({ url: '/api/v1/rest/channels/201/schedules?date=2026-12-08', headers: { authorization: `Bearer ${s.tokens.alice}` } });
    expect(rest.statusCode).toBe(200);
    expect(JSON.stringify(rest.json())).toContain('2026-12-08T06:00:00');
    expect((await s.call('GET', P)).json().data.undo).toEqual({ kind: 'generate', at: expect.any(String), added: 19, removed: 0 });

    expect((await s.call('POST', `${P}/undo`, { body: {}, headers: { 'if-match': before.etag } })).statusCode).toBe(412);
    const undone = await s.call('POST', `${P}/undo`, { body: {}, headers: { 'if-match': after.etag } });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().data).toEqual({ removed: items.map((b) => b.id), restored: [] });
    expect((await list()).etag).toBe(before.etag);
    const again = await s.call('POST', `${P}/undo`, { body: {} });
    expect(again.statusCode).toBe(404);
  });

  it('replaces hand-made blocks of the range and restores them with their ids on undo; an edited result is not undone', async () => {
    const hand = await s.call('POST', SCHEDULES, { body: { startTime: '2026-12-15T09:00:00', videoIds: [5001] } });
    expect(hand.statusCode, hand.body).toBe(201);
    const handBlock = hand.json().data as Block;
    // Without replace the hand block stays and the morning slot stops where it starts.
    const kept = (await s.call('POST', `${P}/preview`, { body: { from: '2026-12-15', to: '2026-12-15' } })).json().data;
    expect(kept.blocks[0]).toMatchObject({ startTime: '2026-12-15T06:00:00', slotEndTime: '2026-12-15T09:00:00' });
    expect(kept.replaces).toEqual([]);
    const replaced = await s.call('POST', `${P}/apply`, { body: { from: '2026-12-15', to: '2026-12-15', replace: true } });
    expect(replaced.statusCode, replaced.body).toBe(201);
    expect(replaced.json().data.removed).toEqual([handBlock.id]);
    const undone = await s.call('POST', `${P}/undo`, { body: {} });
    expect(undone.json().data.restored).toEqual([handBlock]);
    expect((await s.call('GET', `${SCHEDULES}/${handBlock.id}`)).json().data).toEqual(handBlock);

    const second = await s.call('POST', `${P}/apply`, { body: { from: '2026-12-16', to: '2026-12-16' } });
    const first = (second.json().data.items as Block[])[0]!;
    const block = await s.call('GET', `${SCHEDULES}/${first.id}`);
    await s.call('PATCH', `${SCHEDULES}/${first.id}`, { body: { published: false }, headers: { 'if-match': block.headers.etag as string } });
    const refused = await s.call('POST', `${P}/undo`, { body: {} });
    expect(refused.statusCode).toBe(412);
    expect(refused.json().error.message).toContain(`Schedule block ${first.id} was changed`);
  });

  it('refuses a range too long or backwards, and a plan making nothing, writing nothing', async () => {
    const before = await list();
    const long = await s.call('POST', `${P}/apply`, { body: { from: '2026-12-01', to: '2027-01-15' } });
    expect(long.statusCode).toBe(422);
    expect(long.json().error.details).toEqual([{ path: 'to', message: 'a range covers at most 31 days' }]);
    const backwards = await s.call('POST', `${P}/preview`, { body: { from: '2026-12-05', to: '2026-12-01' } });
    expect(backwards.json().error.details).toEqual([{ path: 'to', message: 'must not be before from' }]);
    const nothing = await s.call('POST', `${P}/apply`, {
      body: { from: '2027-01-04', to: '2027-01-04', slots: [{ days: [2], start: '06:00', videoIds: [5001], order: 'inOrder' }] },
    });
    expect(nothing.statusCode).toBe(422);
    expect((await list()).etag).toBe(before.etag);
  });

  it('copies a day or a week over a range, skipping or replacing what is there, as one undoable write', async () => {
    // The template week: 2026-11-21 (a Saturday) holds 9001 08:00 and 9003 12:00.
    await s.call('POST', SCHEDULES, { body: { startTime: '2027-01-05T07:00:00', videoIds: [5002] } });
    const before = await list();
    const day = { sourceFrom: '2026-11-21', sourceDays: 1, from: '2027-01-04', to: '2027-01-06' };
    const skipped = await s.call('POST', `${P}/template`, { body: { ...day, mode: 'skip' }, headers: { 'if-match': before.etag, 'idempotency-key': 'tpl-1' } });
    expect(skipped.statusCode, skipped.body).toBe(201);
    expect(skipped.json().data.skippedDates).toEqual(['2027-01-05']);
    expect((skipped.json().data.items as Block[]).map((b) => b.startTime)).toEqual(['2027-01-04T08:00:00', '2027-01-04T12:00:00', '2027-01-06T08:00:00', '2027-01-06T12:00:00']);
    expect((await s.call('POST', `${P}/undo`, { body: {} })).statusCode).toBe(200);
    expect((await list()).etag).toBe(before.etag);

    const replacing = await s.call('POST', `${P}/template`, { body: { ...day, mode: 'replace' } });
    expect(replacing.statusCode, replacing.body).toBe(201);
    expect(replacing.json().data.removed).toHaveLength(1);
    expect(replacing.json().data.items).toHaveLength(6);
    expect((await s.call('POST', `${P}/undo`, { body: {} })).statusCode).toBe(200);

    // A week from Monday 2026-11-16 (only its Saturday has one-off blocks) onto two weeks: Saturdays get them.
    const week = await s.call('POST', `${P}/template`, { body: { sourceFrom: '2026-11-16', sourceDays: 7, from: '2027-02-01', to: '2027-02-14', mode: 'skip' } });
    expect(week.statusCode, week.body).toBe(201);
    expect([...new Set((week.json().data.items as Block[]).map((b) => b.startTime.slice(0, 10)))]).toEqual(['2027-02-06', '2027-02-13']);

    const onItself = await s.call('POST', `${P}/template`, { body: { sourceFrom: '2026-11-16', sourceDays: 7, from: '2026-11-20', to: '2026-11-30', mode: 'replace' } });
    expect(onItself.statusCode).toBe(422);
    expect(onItself.json().error.details[0].path).toBe('from');
  });
});

describe.each(BACKENDS)('Deleting a video a programming plan uses, on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  it('is refused saying which slots and filler use it, until they no longer do', async () => {
    // A video in no library, schedule or live stream: only the plan and the filler name it.
    const video = (await s.call('POST', '/videos', { body: { title: 'Slot only', durationSeconds: 90, providerName: 'YouTube', providerVideoId: 'slotonly1' } })).json().data;
    const slots = [
      { days: [6, 7], start: '06:00', videoIds: [5001], order: 'inOrder' },
      { days: [1, 2, 3, 4, 5], start: '18:00', videoIds: [5002, video.id], order: 'inOrder' },
    ];
    expect((await s.call('PUT', `${P}/slots`, { body: { slots } })).statusCode).toBe(200);
    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [video.id] } })).statusCode).toBe(200);

    const refused = await s.call('DELETE', `/videos/${video.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('in_use');
    expect(refused.json().error.message).toBe(
      `Video ${video.id} is still used by slot 2 (Mon–Fri 18:00) of channel 201's programming, the filler of channel 201; remove it there first.`,
    );
    const usage = (await s.call('GET', `/videos/${video.id}/usage`)).json().data;
    expect([usage.programmingSlots, usage.fillerChannelIds]).toEqual([[{ channelId: 201, slot: 2, days: [1, 2, 3, 4, 5], start: '18:00', when: 'Mon–Fri 18:00' }], [201]]);
    // Another video's usage does not list the plan (containment, not a text match on its digits).
    expect((await s.call('GET', '/videos/5003/usage')).json().data.programmingSlots).toEqual([]);

    expect((await s.call('PUT', `${P}/slots`, { body: { slots: [slots[0]] } })).statusCode).toBe(200);
    expect((await s.call('DELETE', `/videos/${video.id}`)).json().error.message).toBe(`Video ${video.id} is still used by the filler of channel 201; remove it there first.`);
    expect((await s.call('PUT', `${P}/filler`, { body: { videoIds: [] } })).statusCode).toBe(200);
    expect((await s.call('DELETE', `/videos/${video.id}`)).statusCode).toBe(204);
  });
});
