import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { docsAt, isDocumented } from '../src/groups.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';

describe('API documentation', () => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    database = await freshDatabase('pglite');
    app = await buildApp({ database, config: { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves a valid OpenAPI 3.1 document at /docs/openapi.json', async () => {
    const response = await app.inject('/docs/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route of the REST API, the Custom Services API and activity ingestion', async () => {
    const document = (await app.inject('/docs/openapi.json')).json();
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries<Record<string, unknown>>(document.paths)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const toOpenApi = (url: string) => url.replace(/:(\w+)/g, '{$1}');
    const expected = listRoutes(app).filter((r) => isDocumented(r.url) && r.method !== 'HEAD');
    expect(expected.length).toBeGreaterThanOrEqual(9);
    for (const route of expected) expect(documented).toContain(`${route.method} ${toOpenApi(route.url)}`);
  });

  it("documents each operation's failures in its group's envelope, and the Bearer where it is checked", async () => {
    const document = (await app.inject('/docs/openapi.json')).json();
    const operations = Object.entries<Record<string, any>>(document.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['429', '500', '503']));
      expect(op.responses['503'].description, where).toMatch(/unreachable|shedding/);
      if (path.includes('{')) expect(Object.keys(op.responses), where).toContain('404');
      if (op.security) expect(Object.keys(op.responses), where).toContain('401');
    }
    const op = (method: string, path: string) => document.paths[path][method];
    expect(op('get', '/api/v1/rest/channels').security).toEqual([{ bearer: [] }]);
    expect(op('post', '/api/v1/rest/auth/login').security).toBeUndefined();
    expect(op('get', '/api/v1/studio/channels').security).toEqual([{ bearer: [] }]);
    expect(op('get', '/api/v1/services/custom/users/{id}/settings').security).toBeUndefined();
    // A failure body is one shared schema, referred to by each operation (inline it was 1.2 MB).
    const failure = op('get', '/api/v1/studio/channels').responses['422'].content['application/json'].schema;
    expect(failure).toEqual({ $ref: '#/components/schemas/Failure' });
    expect(document.components.schemas.Failure.properties.error.properties.details).toBeDefined();
    expect(op('get', '/api/v1/services/custom/users/{id}/settings').responses['404'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CustomFailure' });
    expect(JSON.stringify(document).length).toBeLessThan(600_000);
  });

  it("answers failures as documented, in each group's envelope", async () => {
    const cases = [
      ['/api/v1/rest/channels', 401],
      ['/api/v1/studio/channels', 401],
      ['/api/v1/services/custom/users/nobody/settings', 404],
      ['/api/v1/live/not-a-key/channels.m3u', 404],
    ] as const;
    for (const [url, status] of cases) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(status);
      const parsed = docsAt(url)!.failure.safeParse(response.json());
      expect(parsed.success, `${url}: ${response.body}`).toBe(true);
    }
  });

  it('serves the interactive page at /docs', async () => {
    const response = await app.inject('/docs/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});

/** Every registered route, from Fastify's own tree (children print their path relative to the parent). */
function listRoutes(app: Awaited<ReturnType<typeof buildApp>>): Array<{ method: string; url: string }> {
  const found: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + match[2]!;
    stack.push(url);
    for (const method of match[3]!.split(', ')) found.push({ method, url: url.replace(/\/$/, '') || '/' });
  }
  return found;
}
