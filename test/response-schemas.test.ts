// Success answers of the REST API, the Custom Services API (its compatibility trees too) and
// activity ingestion are written from response schemas by fast-json-stringify
// (src/http/serializer.ts), byte for byte as JSON.stringify wrote them, and the OpenAPI document
// shows their shapes. The route tests compare bodies; under vitest the serializer also compares
// every answer it writes with JSON.stringify's.
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { CatalogCache } from '../src/cache/catalog-cache.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { GROUPS } from '../src/groups.ts';
import { plainText } from '../src/presenters/plain-text.ts';
import { forSerializer, serializerFor } from '../src/http/serializer.ts';
import { ScheduleTimelines } from '../src/schedules/timelines.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';

/** The groups whose answers are JSON written from schemas (Legacy keeps its Newtonsoft writer). */
const SCHEMA_GROUPS = ['activity', 'rest', 'custom', 'compat', 'studio'];

/**
 * Routes that may answer 2xx without a response schema, each with the reason. None today: the
 * REST routes that send cached JSON text (/channels, the schedule) declare one for the docs, and a
 * union answer (POST /getChannelToken) declares one whose union part JSON.stringify writes.
 */
const WITHOUT_RESPONSE_SCHEMA: Record<string, string> = {};

describe('response schemas', () => {
  let database: TestDatabase;
  const routes: RouteOptions[] = [];
  let stopCache: () => Promise<void> | void = () => undefined;

  beforeAll(async () => {
    database = await freshDatabase('pglite');
    // The groups registered as src/app.ts registers them, on an app that records every route.
    const config: Config = { ...loadConfig({}), COMPAT_ROUTES: ['mobile', 'roku'], CHANNELNET_TEST_CLOCK: true, LOG_LEVEL: 'silent' };
    const app = Fastify({ logger: false });
    app.addHook('onRoute', (route) => void routes.push(route));
    const started = await CatalogCache.start(database, { maxEntries: 100, maxBytes: 1_000_000 });
    stopCache = started.stop;
    const group = { database, config, cache: started.cache, timelines: new ScheduleTimelines(10) };
    for (const entry of GROUPS.filter((g) => SCHEMA_GROUPS.includes(g.name))) await entry.register(app, group);
    await app.ready();
    await app.close();
  });
  afterAll(async () => {
    await stopCache();
    await database.close();
  });

  it('every REST, Custom, compatibility and activity route declares a 2xx response schema', () => {
    const answering = routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
    expect(answering.length).toBeGreaterThanOrEqual(40);
    const missing = answering
      .map((r) => ({ route: `${String(r.method)} ${r.url}`, response: r.schema?.response as Record<string, unknown> | undefined }))
      .filter(({ route, response }) => !Object.keys(response ?? {}).some((status) => /^2(\d\d|xx)$/.test(status)) && !(route in WITHOUT_RESPONSE_SCHEMA))
      .map(({ route }) => route);
    expect(missing).toEqual([]);
  });

  it('compiles every declared response schema into a serializer', () => {
    for (const route of routes) {
      for (const schema of Object.values((route.schema?.response ?? {}) as Record<string, unknown>)) {
        expect(() => serializerFor(schema), `${String(route.method)} ${route.url}`).not.toThrow();
      }
    }
  });
});

describe('the OpenAPI document', () => {
  let database: TestDatabase;
  let document: { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>> };

  beforeAll(async () => {
    database = await freshDatabase('pglite');
    const app = await buildApp({ database, config: { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false } });
    document = (await app.inject('/docs/openapi.json')).json();
    await app.close();
  });
  afterAll(() => database.close());

  /**
   * The schema of an operation's success answer (a 202: an accepted background job's state); a 204 (a Studio delete) has no body to show. JSON,
   * except for the XMLTV guide, a document of its own that the route declares as application/xml,
   * and the live outputs' M3U and MPEG-TS stream (audio/x-mpegurl, video/mp2t).
   */
  const successSchema = (path: string, method: string) => {
    const responses = document.paths[path]?.[method]?.responses ?? {};
    if ('204' in responses) return { type: 'null' };
    const status = ['200', '201', '202'].find((s) => s in responses);
    const content = status === undefined ? undefined : responses[status]?.content;
    return (content?.['application/json'] ?? content?.['application/xml'] ?? content?.['audio/x-mpegurl'] ?? content?.['video/mp2t'] ?? content?.['application/vnd.apple.mpegurl'])
      ?.schema;
  };

  it('shows the success shape of every documented operation', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method })));
    expect(operations.length).toBeGreaterThanOrEqual(30);
    const without = operations.filter(({ path, method }) => successSchema(path, method)?.['type'] === undefined).map(({ path, method }) => `${method} ${path}`);
    expect(without).toEqual([]);
  });

  it('spells out the resources', () => {
    const channels = successSchema('/api/v1/services/custom/users/{id}/channels', 'get') as any;
    expect(Object.keys(channels.properties.data.items.properties)).toEqual([
      'id',
      'categoryId',
      'userId',
      'name',
      'url',
      'pictureUrl',
      'isWhiteLabeled',
      'playLiveFirst',
      'privateChannel',
      'isVerified',
      'liveAvailable',
      'guideMode',
      'keepGuideOpened',
      'vodAvailable',
      'scheduleAvailable',
    ]);
    const guide = successSchema('/api/v1/services/custom/users/{id}/channels/video', 'get') as any;
    expect(Object.keys(guide.properties)).toEqual(['data', 'links', 'meta']);
    expect(guide.properties.data.items.properties.streamUrl).toEqual({ type: ['string', 'null'] });
    const login = successSchema('/api/v1/rest/auth/login', 'post') as any;
    expect(login.properties.success).toMatchObject({ type: 'boolean', enum: [true] });
    expect(Object.keys(login.properties.data.properties)).toEqual(['authToken', 'userId', 'userName', 'email', 'publicUrl']);
    const sessions = successSchema('/api/v1/rest/analytics/sessions', 'get') as any;
    expect(sessions.properties.data.properties.items.items.properties.startedAt).toMatchObject({ type: 'string', format: 'date-time' });
    // The guide is XML, documented as such (not as JSON).
    for (const path of ['/api/v1/rest/epg.xml', '/api/v1/rest/epg/{key}.xml']) {
      expect(Object.keys(document.paths[path]!.get!.responses!['200']!.content!)).toEqual(['application/xml']);
    }
    const activity = successSchema('/api/v1/activity', 'post') as any;
    expect(activity.properties.message).toMatchObject({ enum: ['Success'] });
    // How the serializer writes a string is its own business.
    expect(JSON.stringify(document)).not.toContain('unsafe');
  });
});

describe('the serializer', () => {
  const written = (schema: z.ZodType, value: unknown) => serializerFor(schema)(value);
  const same = (schema: z.ZodType, value: unknown) => expect(written(schema, value)).toBe(JSON.stringify(value));

  it('writes properties in schema order, leaving out undefined ones, as JSON.stringify does', () => {
    const schema = z.object({ a: z.string(), b: z.int().optional(), c: z.boolean(), d: z.string().optional() });
    same(schema, { a: 'x', b: undefined, c: true });
    same(schema, { a: 'x', b: 2, c: false, d: 'y' });
  });

  it('writes nullable values, numbers, dates and awkward strings as JSON.stringify does', () => {
    const schema = z.object({
      n: z.int(),
      f: z.number().nullable(),
      s: z.string().nullable(),
      o: z.object({ x: z.string() }).nullable(),
      list: z.array(z.int()),
      at: z.date(),
      maybeAt: z.date().nullable(),
    });
    same(schema, { n: 1.5, f: null, s: null, o: null, list: [], at: new Date(0), maybeAt: null });
    same(schema, {
      n: -0,
      f: 1e21,
      s: 'quote " back\\ nl\n tab\t nul\u0000 lone \ud800 pair \ud83d\ude00 ' + 'é'.repeat(60),
      o: { x: '' },
      list: [1, 2.25, -3],
      at: new Date(Date.UTC(2026, 10, 21, 15)),
      maybeAt: new Date(1),
    });
  });

  it('leaves unions and open objects to JSON.stringify', () => {
    same(z.object({ data: z.union([z.object({ message: z.string() }), z.object({ access_token: z.string(), expires_in: z.int() })]) }), {
      data: { expires_in: 3600, access_token: 't' },
    });
    same(z.object({ extra: z.record(z.string(), z.unknown()) }), { extra: { b: 1, a: [null, { z: 'x' }] } });
    expect(forSerializer({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toEqual({});
  });

  it('writes plain text, formatted by the service, as it is', () => {
    const schema = z.object({ startDate: plainText(), endDate: plainText().nullable() });
    same(schema, { startDate: '2026-11-21 07:00:00', endDate: null });
    expect(forSerializer((z.toJSONSchema(schema) as any).properties.startDate)).toEqual({ type: 'string' });
  });

  it('writes a literal as the value it is given, not the schema constant', () => {
    same(z.object({ success: z.literal(true) }), { success: false });
  });

  it('drops keys the schema does not list: a presenter must not emit one (its type forbids it)', () => {
    expect(written(z.object({ a: z.string() }), { a: 'x', b: 1 })).toBe('{"a":"x"}');
  });
});
