// Issue 26, the edge: what an outsider (and a signed-in owner) can make the service spend before
// any rule is applied. Each test sends what an attacker can send and asserts the status and the
// CPU it cost the process (PGlite's work included, since it runs in this process), never wall time:
// - identity before bytes: an anonymous, bad-token or viewer request to the Studio (and to REST's
//   protected routes) is answered before its body is read;
// - bodies bounded per route, an import's entities and entries counted before validation;
// - JSON nesting bounded before JSON.parse in every group;
// - refusal details capped (100 and a count);
// - NUL refused at the edge of every group that stores what it is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_ENTITIES, MAX_IMPORT_LIST_ENTRIES } from '../src/editing/import-size.ts';
import { MAX_DETAILS } from '../src/editing/refusals.ts';
import { MAX_JSON_DEPTH } from '../src/http/json-body.ts';
import { BULK_VIDEOS_BODY_LIMIT, IMPORT_BODY_LIMIT, STUDIO_BODY_LIMIT } from '../src/studio/limits.ts';
import { cpuOf } from './fuzz/property.ts';
import { BACKENDS } from './support/db.ts';
import { STUDIO, studioTest, type StudioTest } from './support/studio.ts';
import { expectCpuUnder } from './support/cpu-bounds.ts';

/** The budgets: an outsider's request, an owner's request. */
const ANONYMOUS_CPU_MS = 200;
const OWNER_CPU_MS = 2000;

const CATALOG = { format: 'channel-network-catalog', version: 1 } as const;
const JSON_TYPE = { 'content-type': 'application/json' };
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe.each(BACKENDS)('the edge of the service on %s (issue 26)', (kind) => {
  let s: StudioTest;
  /** A raw request with a text body and the given token (none: anonymous); its answer and CPU. */
  const send = async (method: string, url: string, payload: string | undefined, token?: string) => {
    const headers: Record<string, string> = { ...JSON_TYPE, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
    const heapBefore = process.memoryUsage().heapUsed;
    const { result, cpuMs } = await cpuOf(() => s.t.request({ method: method as never, url, headers, ...(payload === undefined ? {} : { payload }) }));
    return { status: result.statusCode, body: result.json(), cpuMs, heapGrowth: process.memoryUsage().heapUsed - heapBefore };
  };
  const videoCount = async () => (await s.call('GET', '/videos?per_page=1')).json().data.total as number;

  beforeAll(async () => {
    s = await studioTest(kind);
    // Compile once what every first request compiles (schemas, serializers): not the attack's cost.
    for (const token of [undefined, s.tokens.alice]) {
      await send('POST', `${STUDIO}/import?dryRun=1`, JSON.stringify(CATALOG), token);
      await send('POST', `${STUDIO}/videos`, '{}', token);
    }
  }, 120_000);
  afterAll(async () => {
    await s?.t.close();
  });

  describe('identity before bytes', () => {
    // A catalog of a million empty channels: 3 MB. It cost 44-68 s of CPU and 3.9 GB when the
    // token was checked after validation.
    const million = JSON.stringify({ ...CATALOG, channels: Array.from({ length: 1_000_000 }, () => ({})) });

    it("answers an anonymous, a bad-token and a viewer's 3 MB import without reading it", async () => {
      for (const [token, status] of [
        [undefined, 401],
        ['00000000-0000-4000-8000-000000000000', 401],
        [s.tokens.app, 401],
        [s.tokens.victor, 403],
      ] as const) {
        const answer = await send('POST', `${STUDIO}/import`, million, token);
        expect([answer.status, answer.body.error.code], String(token)).toEqual([status, status === 401 ? 'unauthorized' : 'forbidden']);
        expectCpuUnder(answer.cpuMs, ANONYMOUS_CPU_MS, String(token));
        expect(answer.heapGrowth, String(token)).toBeLessThan(64 * 1024 * 1024);
      }
    });

    it("answers an anonymous 32 MiB nested array 401 and an owner's 413, cheaply", async () => {
      const nested = deep(16 * 1024 * 1024);
      const anonymous = await send('POST', `${STUDIO}/videos`, nested);
      expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthorized']);
      expectCpuUnder(anonymous.cpuMs, ANONYMOUS_CPU_MS);
      const owner = await send('POST', `${STUDIO}/videos`, nested, s.tokens.alice);
      expect([owner.status, owner.body.error.code]).toEqual([413, 'payload_too_large']);
      expectCpuUnder(owner.cpuMs, ANONYMOUS_CPU_MS);
    });

    it('refuses an anonymous body to a protected REST route before parsing it (401, not a parse error)', async () => {
      const answer = await send('POST', '/api/v1/rest/favorites/201', '{"unterminated": [');
      expect([answer.status, answer.body.error.code]).toEqual([401, 'unauthorized']);
      const studio = await send('PATCH', `${STUDIO}/videos/5001`, '{"unterminated": [');
      expect([studio.status, studio.body.error.code]).toEqual([401, 'unauthorized']);
    });
  });

  describe('bodies bounded per route, for a signed-in owner', () => {
    it("refuses a body over its route's limit with 413, before parsing it", async () => {
      const over = (limit: number) => JSON.stringify({ title: 'x'.repeat(limit) });
      for (const [method, url, limit] of [
        ['POST', '/channels', STUDIO_BODY_LIMIT],
        ['PATCH', '/videos/5001', STUDIO_BODY_LIMIT],
        ['POST', '/videos', BULK_VIDEOS_BODY_LIMIT],
        ['POST', '/import', IMPORT_BODY_LIMIT],
      ] as const) {
        const answer = await send(method, `${STUDIO}${url}`, over(limit), s.tokens.alice);
        expect([answer.status, answer.body.error.code], url).toEqual([413, 'payload_too_large']);
        expectCpuUnder(answer.cpuMs, ANONYMOUS_CPU_MS, url);
      }
    });

    it('refuses an import of too many entities or entries before validating them', async () => {
      const before = await videoCount();
      // 200,000 empty channels fit in 1 MiB; validating them used to cost seconds and a million details.
      const many = JSON.stringify({ ...CATALOG, channels: Array.from({ length: 200_000 }, () => ({})) });
      const answer = await send('POST', `${STUDIO}/import`, many, s.tokens.alice);
      expect(answer.status).toBe(422);
      expect(answer.body.error.details).toEqual([{ path: '(root)', message: expect.stringContaining(`at most ${MAX_IMPORT_ENTITIES}`) }]);
      // Parsing the MiB and counting it; validating it took seconds.
      expectCpuUnder(answer.cpuMs, OWNER_CPU_MS / 4);
      const entries = JSON.stringify({ ...CATALOG, channels: [{ videoIds: Array.from({ length: MAX_IMPORT_LIST_ENTRIES + 1 }, () => 5001) }] });
      const tooLong = await send('POST', `${STUDIO}/import`, entries, s.tokens.alice);
      expect(tooLong.body.error.details).toEqual([{ path: '(root)', message: expect.stringContaining(`at most ${MAX_IMPORT_LIST_ENTRIES}`) }]);
      expect(await videoCount()).toBe(before);
    });

    it("imports the largest document the caps admit within an owner's budget", async () => {
      const videos = MAX_IMPORT_ENTITIES / 2;
      const channels = MAX_IMPORT_ENTITIES - videos;
      const perChannel = Math.floor((MAX_IMPORT_LIST_ENTRIES - 1) / channels);
      const document = {
        ...CATALOG,
        videos: Array.from({ length: videos }, (_, i) => ({ id: 700_000 + i, ownerId: 11, title: 'v', durationSeconds: 60, providerName: 'Custom', providerVideoId: 'v' })),
        channels: Array.from({ length: channels }, (_, c) => ({
          id: 700_000 + c,
          ownerId: 11,
          name: 'c',
          url: `edge-${c}`,
          categoryId: 1,
          videoIds: Array.from({ length: perChannel }, (_, k) => 700_000 + ((c + k) % videos)),
        })),
      };
      const payload = JSON.stringify(document);
      expect(payload.length).toBeLessThan(IMPORT_BODY_LIMIT);
      const answer = await send('POST', `${STUDIO}/import`, payload, s.tokens.alice);
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
      console.log(`import at the caps: ${Math.round(answer.cpuMs)} ms of CPU on ${kind}`);
      expectCpuUnder(answer.cpuMs, OWNER_CPU_MS);
    }, 60_000);
  });

  describe('JSON nesting bounded before parsing, in every group', () => {
    const tooDeep = deep(MAX_JSON_DEPTH + 1);

    it("refuses a body nested deeper than the bound in the group's own envelope", async () => {
      const studio = await send('POST', `${STUDIO}/videos`, tooDeep, s.tokens.alice);
      expect([studio.status, studio.body.error.code, studio.body.error.message]).toEqual([400, 'invalid_request', expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`)]);
      const rest = await send('POST', '/api/v1/rest/auth/login', tooDeep);
      expect([rest.status, rest.body.error.message]).toEqual([400, expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`)]);
      const custom = await send('POST', '/api/v1/services/custom/auth/login', tooDeep);
      expect([custom.status, custom.body.data.errors.body]).toEqual([422, [expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`)]]);
      const activity = await send('POST', '/api/v1/activity', tooDeep);
      expect([activity.status, activity.body.errors.body]).toEqual([422, [expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`)]]);
      // A body as deep as the bound is parsed (and then judged by its content).
      expect((await send('POST', `${STUDIO}/videos`, deep(MAX_JSON_DEPTH), s.tokens.alice)).status).toBe(422);
    });

    it("costs little for the deepest body a group takes (the Custom API's 1 MiB)", async () => {
      const answer = await send('POST', '/api/v1/services/custom/auth/login', deep(512 * 1024));
      expect(answer.status).toBe(422);
      expectCpuUnder(answer.cpuMs, ANONYMOUS_CPU_MS);
    });
  });

  it('answers at most 100 details and counts the rest', async () => {
    const before = await videoCount();
    // 1,000 empty videos: 4 missing fields each.
    const answer = await send('POST', `${STUDIO}/videos`, JSON.stringify(Array.from({ length: 1000 }, () => ({}))), s.tokens.alice);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toHaveLength(MAX_DETAILS);
    expect(answer.body.error.detailsOmitted).toBe(4000 - MAX_DETAILS);
    expect(answer.body.error.message).toBe('Invalid request: [0].title: required (and 3999 more)');
    expect(await videoCount()).toBe(before);
  });

  describe('NUL characters, which PostgreSQL cannot store', () => {
    it('refuses NUL in a Studio body or query with a 422 naming the field, and stores nothing', async () => {
      const before = await videoCount();
      const video = { title: 'a\u0000b', durationSeconds: 60, providerName: 'YouTube', providerVideoId: 'x' };
      const created = await send('POST', `${STUDIO}/videos`, JSON.stringify(video), s.tokens.alice);
      expect([created.status, created.body.error.details]).toEqual([422, [{ path: 'title', message: 'must not contain NUL (U+0000) characters' }]]);
      const bulk = await send(
        'POST',
        `${STUDIO}/videos`,
        JSON.stringify([
          { ...video, title: 'ok' },
          { ...video, title: 'ok', renditions: [{ url: '\u0000' }] },
        ]),
        s.tokens.alice,
      );
      expect(bulk.body.error.details).toEqual([{ path: '[1].renditions[0].url', message: 'must not contain NUL (U+0000) characters' }]);
      const key = await send('PATCH', `${STUDIO}/videos/5001`, JSON.stringify({ ['ti\u0000tle']: 'x' }), s.tokens.alice);
      expect([key.status, key.body.error.details[0].path]).toEqual([422, '["ti\\u0000tle"]']);
      const query = await send('GET', `${STUDIO}/videos?q=news%00`, undefined, s.tokens.alice);
      expect([query.status, query.body.error.details]).toEqual([422, [{ path: 'querystring.q', message: 'must not contain NUL (U+0000) characters' }]]);
      expect(await videoCount()).toBe(before);
    });

    it('refuses NUL in REST and Custom API bodies in their envelopes', async () => {
      const rest = await send('POST', '/api/v1/rest/auth/login', JSON.stringify({ username: 'alice\u0000', password: 'x' }));
      expect([rest.status, rest.body]).toEqual([
        400,
        { success: false, error: { code: 'invalid_request', message: 'Invalid request: /username: must not contain NUL (U+0000) characters' } },
      ]);
      const custom = await send('POST', '/api/v1/services/custom/auth/login', JSON.stringify({ email: 'a\u0000@example.com', password: 'x' }));
      expect([custom.status, custom.body.data.errors]).toEqual([422, { email: ['The email may not contain NUL characters.'] }]);
    });
  });
});
