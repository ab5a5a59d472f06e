// Property: owner B (olga) never reads, changes or learns the existence of anything of owner A
// (alice) through any Studio route. Every route the Studio group registers is exercised (a
// route whose path parameter this test cannot fill fails it, so a new route cannot slip by):
// olga sends it naming alice's ids, in the path and in a generated body, and again naming ids
// that exist nowhere. The two answers must be the same (status, and body once the ids are
// blanked out), no answer is a 5xx, and alice's slice of the database is unchanged.
import { sql } from 'drizzle-orm';
import Fastify, { type RouteOptions } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCache } from '../src/cache/catalog-cache.ts';
import { blobReader, exportAccounts, exportApps, exportChannels, exportVideos } from '../src/catalog/export.ts';
import { loadConfig } from '../src/config.ts';
import { GROUPS } from '../src/groups.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { BACKENDS, freshDatabase } from './support/db.ts';
import { STUDIO, studioTest, type StudioTest } from './support/studio.ts';

const MISSING = 999_999;

/** Alice's ids by kind; `missing` stands for an id that exists nowhere. */
interface Ids {
  channel: number;
  video: number;
  block: number;
  liveStream: number;
  appToken: number;
  collection: number;
  invite: number;
}

async function studioRoutes(): Promise<{ method: string; url: string }[]> {
  const database = await freshDatabase('pglite');
  const routes: RouteOptions[] = [];
  const app = Fastify({ logger: false });
  app.addHook('onRoute', (route) => void routes.push(route));
  const { cache, stop } = await CatalogCache.start(database, { maxEntries: 10, maxBytes: 100_000 });
  const config = { ...loadConfig({}), CHANNELNET_TEST_CLOCK: true, LOG_LEVEL: 'silent' as const };
  await GROUPS.find((g) => g.name === 'studio')!.register(app, { database, config, cache, timelines: new ScheduleTimelines(10) });
  await app.ready();
  await app.close();
  await stop();
  await database.close();
  return routes
    .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({ method: String(method), url: r.url })))
    .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.url.startsWith(STUDIO))
    .map((r) => ({ ...r, url: r.url.slice(STUDIO.length) }));
}

/** Path parameters: alice's id, or the same kind of id that exists nowhere. Non-secret ones are the same for both. */
function fillPath(url: string, ids: Ids | 'missing'): string {
  const pick = (key: keyof Ids) => String(ids === 'missing' ? MISSING : ids[key]);
  return url.replace(/:(\w+)/g, (_m, name: string) => {
    switch (name) {
      case 'channelId':
        return pick('channel');
      case 'videoId':
        return pick('video');
      case 'blockId':
        return pick('block');
      case 'liveStreamId':
        return pick('liveStream');
      case 'tokenId':
      case 'id':
        return pick('appToken');
      case 'collectionId':
        return pick('collection');
      case 'inviteId':
        return pick('invite');
      case 'platform':
        return 'mobile';
      case 'date':
        return '2026-11-21';
      default:
        throw new Error(`the authorization test cannot fill :${name} in ${url}; teach fillPath`);
    }
  });
}

type Template = unknown;
const KINDS = ['channel', 'video', 'block', 'liveStream'] as const;

/** A body naming ids by kind (placeholders), instantiated once with alice's ids and once with missing ones. */
const idRef = fc.constantFrom(...KINDS).map((kind) => ({ $id: kind }));
const leaf = fc.oneof(idRef, fc.string({ maxLength: 8 }), fc.integer({ min: -2, max: 3 }), fc.boolean(), fc.constant(null), fc.constant('2026-11-21T08:00:00'));
const bodyTemplate: fc.Arbitrary<Template> = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(
    fc.constantFrom(
      'videoIds',
      'vodVideoIds',
      'videoId',
      'channelId',
      'channelIds',
      'channels',
      'title',
      'name',
      'url',
      'categoryId',
      'startTime',
      'toDates',
      'label',
      'password',
      'published',
      'allowOverlap',
      'start',
      'end',
    ),
    fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.array(fc.record({ channelId: idRef }), { maxLength: 2 })),
    { maxKeys: 4 },
  ),
  fc.array(fc.dictionary(fc.constantFrom('title', 'videoId', 'channelId'), leaf, { maxKeys: 3 }), { minLength: 1, maxLength: 2 }),
);

function instantiate(template: Template, ids: Ids | 'missing'): unknown {
  if (Array.isArray(template)) return template.map((t) => instantiate(t, ids));
  if (template !== null && typeof template === 'object') {
    const ref = (template as { $id?: keyof Ids }).$id;
    if (ref !== undefined) return ids === 'missing' ? MISSING : ids[ref];
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, instantiate(v, ids)]));
  }
  return template;
}

/** Path parameters as anyone may send them: real, missing, malformed, out of range. */
const ODD_VALUES = ['abc', '-1', '0', '2147483648', '1e3', '%20', 'mobile', 'MOBILE', 'web', '2026-02-30', '2026-11-21'];

describe.each(BACKENDS)('Studio authorization on %s', (backend) => {
  let s: StudioTest;
  let routes: { method: string; url: string }[];
  let alice: Ids;
  beforeAll(async () => {
    s = await studioTest(backend);
    routes = await studioRoutes();
    const db = s.t.database.db;
    const rows = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: { id: number }[] }).rows;
    const [live] = await rows(sql`insert into live_streams (id, channel_id, video_id, start_at, end_at, uri)
      overriding system value values (700002, 201, 5003, '2026-11-22T18:00:00Z', '2026-11-22T19:00:00Z', '') returning id::int as id`);
    // An app token of alice's with an id long enough to be told apart in answers.
    const [token] = await rows(sql`insert into auth_tokens (id, token_hash, account_id, kind, label, created_at)
      overriding system value values (700001, ${'f'.repeat(64)}, 11, 'app', 'authorization test', now()) returning id::int as id`);
    // A live guide key of alice's mobile app: olga's /apps/mobile/epg-key must neither see nor replace it.
    await db.execute(sql`insert into epg_keys (app_id, key_hash, created_at) values (301, ${'e'.repeat(64)}, now())`);
    // A collection of alice's: olga's /collections/:collectionId must neither read nor change it.
    const [collection] = await rows(sql`insert into collections (id, owner_id, name, video_ids)
      overriding system value values (700003, 11, 'authorization test', '[5001]'::jsonb) returning id::int as id`);
    // An open invite of alice's: olga's /invites/:inviteId must neither read nor revoke it.
    const [invite] = await rows(sql`insert into owner_invites (id, owner_id, token_hash, created_at, expires_at)
      overriding system value values (700004, 11, ${'d'.repeat(64)}, now(), now() + interval '7 days') returning id::int as id`);
    alice = { channel: 201, video: 5001, block: 9001, liveStream: live!.id, appToken: token!.id, collection: collection!.id, invite: invite!.id };
  }, 120_000);
  afterAll(() => s.t.close());

  /** Everything of alice's a route could touch, as one text. */
  async function aliceSlice(): Promise<string> {
    const db = s.t.database.db;
    const scope = { ownerId: 11 };
    const blobs = await blobReader(db);
    const [tokens] = (
      (await db.execute(sql`select count(*)::int as n, count(revoked_at)::int as revoked from auth_tokens where account_id = 11`)) as unknown as { rows: unknown[] }
    ).rows;
    const [keys] = (
      (await db.execute(sql`select count(*)::int as n, count(k.revoked_at)::int as revoked from epg_keys k join apps a on a.id = k.app_id where a.owner_id = 11`)) as unknown as {
        rows: unknown[];
      }
    ).rows;
    const collections = ((await db.execute(sql`select id, name, video_ids, rules from collections where owner_id = 11 order by id`)) as unknown as { rows: unknown[] }).rows;
    const invites = ((await db.execute(sql`select id, used_at, revoked_at from owner_invites where owner_id = 11 order by id`)) as unknown as { rows: unknown[] }).rows;
    return JSON.stringify([
      await exportAccounts(db, blobs, scope),
      await exportVideos(db, scope),
      await exportChannels(db, scope),
      await exportApps(db, blobs, scope),
      tokens,
      keys,
      collections,
      invites,
    ]);
  }

  const blank = (text: string, ids: number[]) => ids.reduce((out, id) => out.replace(new RegExp(`\\b${id}\\b`, 'g'), 'N'), text);

  it('finds the Studio routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(5);
    for (const route of routes) expect(() => fillPath(route.url, alice)).not.toThrow();
  });

  it("olga's token answers alice's ids exactly as ids that exist nowhere, and changes nothing of alice's", async () => {
    const before = await aliceSlice();
    const aliceIds = Object.values(alice);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), bodyTemplate, async (route, template) => {
        const send = (ids: Ids | 'missing') => {
          const body = instantiate(template, ids);
          return s.call(route.method, fillPath(route.url, ids), {
            token: s.tokens.olga,
            ...(body === undefined || route.method === 'GET' || route.method === 'DELETE' ? {} : { body }),
          });
        };
        const theirs = await send(alice);
        const nowhere = await send('missing');
        expect(theirs.statusCode, `${route.method} ${route.url}: ${theirs.body}`).toBeLessThan(500);
        expect(nowhere.statusCode, `${route.method} ${route.url}: ${nowhere.body}`).toBeLessThan(500);
        if (theirs.statusCode >= 300) {
          expect(nowhere.statusCode, `${route.method} ${route.url}`).toBe(theirs.statusCode);
          expect(blank(theirs.body, aliceIds), `${route.method} ${route.url}`).toBe(blank(nowhere.body, [MISSING]));
        }
        expect(await aliceSlice()).toBe(before);
      }),
      { numRuns: 150, seed: 1124 },
    );
  }, 300_000);

  it("the owner's own requests with odd paths and bodies are answered in the envelope, never with a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom<Ids | 'odd'>(alice, 'odd'),
        fc.constantFrom(...ODD_VALUES),
        fc.oneof(bodyTemplate, fc.jsonValue()),
        async (route, which, odd, template) => {
          const path = which === 'odd' ? route.url.replace(/:(\w+)/g, () => encodeURIComponent(odd)) : fillPath(route.url, alice);
          const body = instantiate(template, alice);
          const response = await s.call(route.method, path, route.method === 'GET' || route.method === 'DELETE' || body === undefined ? {} : { body });
          expect(response.statusCode, `${route.method} ${path}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
          if (response.statusCode >= 400) expect(response.json()).toMatchObject({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
        },
      ),
      { numRuns: 200, seed: 2411 },
    );
  }, 300_000);
});
