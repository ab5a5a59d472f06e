// Property-based fuzzing of every route of every interface group (issue 9 item 4). Each
// property sends generated requests to one shared app and checks, for every answer: no 5xx
// (legacy: a 500 only as its plain-text ASMX page, which ASMX answers by design for a missing or
// unconvertible parameter), the group's envelope, and no database change from a rejected
// request. Fixed seed and bounded runs (world.ts): the same requests on every run and in CI.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/db.ts';
import { anyPath, authChoice, bodyFor, otherHeaders, requestFor, type FuzzRequest, type Method } from './arbitraries.ts';
import { checkRequest, printStats } from './property.ts';
import { checkRawRequest, listening, rawRequest } from './raw.ts';
import {
  ACTIVITY_ROUTES,
  CUSTOM_PREFIX,
  CUSTOM_ROUTES,
  LEGACY_PREFIX,
  LEGACY_ROUTES,
  OTHER_ROUTES,
  REST_PREFIX,
  REST_ROUTES,
  STORES_PREFIX,
  STORES_ROUTES,
  STUDIO_PREFIX,
  STUDIO_ROUTES,
} from './routes.ts';
import { buildWorld, changedTables, fuzzParameters, type FuzzWorld } from './world.ts';

const PROPERTY_TIMEOUT_MS = 240_000;

describe.each(BACKENDS)('fuzzing every route on %s', (kind) => {
  let world: FuzzWorld;
  beforeAll(async () => {
    world = await buildWorld(kind);
  });
  afterAll(async () => {
    await world?.close();
  });

  const run = async (requests: fc.Arbitrary<FuzzRequest>, runs: number) => {
    const catalog = await world.catalogSnapshot();
    await fc.assert(
      fc.asyncProperty(requests, (request) => checkRequest(world, request)),
      fuzzParameters(kind, runs),
    );
    printStats(expect.getState().currentTestName ?? '');
    // Only imports write the catalog: no request, accepted or not, may have changed it.
    expect(changedTables(catalog, await world.catalogSnapshot())).toEqual([]);
  };

  it('REST /api/v1/rest/*: { success, data | error }', () => run(requestFor(REST_PREFIX, REST_ROUTES), 200), PROPERTY_TIMEOUT_MS);

  it('Custom /api/v1/services/custom/*: { data } or { data, links, meta }', () => run(requestFor(CUSTOM_PREFIX, CUSTOM_ROUTES), 250), PROPERTY_TIMEOUT_MS);

  it('activity (both paths): { message }', () => run(fc.oneof(...ACTIVITY_ROUTES.map(({ prefix, routes }) => requestFor(prefix, routes))), 150), PROPERTY_TIMEOUT_MS);

  it('Legacy /WebServices/*.asmx/*: ASMX wrappers or plain-text pages', () => run(requestFor(LEGACY_PREFIX, LEGACY_ROUTES), 200), PROPERTY_TIMEOUT_MS);

  it('store notifications /api/v1/stores/*: the REST envelope, nothing unsigned kept', () => run(requestFor(STORES_PREFIX, STORES_ROUTES), 150), PROPERTY_TIMEOUT_MS);

  it('assets, health, metrics, docs (outside the groups): never a 5xx, nothing leaked', () => run(requestFor('', OTHER_ROUTES), 150), PROPERTY_TIMEOUT_MS);

  it(
    'any path, any method: each group answers in its envelope',
    () => {
      const requests = fc.record({
        method: fc.constantFrom<Method>('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        url: anyPath,
        auth: authChoice(),
        headers: otherHeaders(),
        body: bodyFor({ payload: [{}] }, 'json'),
      });
      return run(requests, 150);
    },
    PROPERTY_TIMEOUT_MS,
  );

  // Last: the Studio's accepted writes change the catalog (that is their job), so the catalog check
  // of the properties above would not hold after it; a rejected Studio request still changes nothing.
  it(
    'Studio /api/v1/studio/*: { success, data | error }, rejected writes change nothing',
    async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(STUDIO_PREFIX, STUDIO_ROUTES), (request) => checkRequest(world, request)),
        fuzzParameters(kind, 200),
      );
      printStats(expect.getState().currentTestName ?? '');
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'raw bytes on a socket (unencoded request lines, obs-text headers): the group envelope',
    async () => {
      const port = await listening(world);
      await fc.assert(
        fc.asyncProperty(rawRequest, (request) => checkRawRequest(world, port, request)),
        fuzzParameters(kind, 80),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
