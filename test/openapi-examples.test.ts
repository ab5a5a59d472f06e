// The OpenAPI document's examples are the docs' curl examples (issue 37 item 7): the committed file
// is what the docs say now, each example sits on the operation the docs call, and each one is valid
// against that operation's schema. test/docs-examples.test.ts runs the same examples against the
// service, so an example that went stale fails there.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { attachExamples, DOCS_EXAMPLES, MAX_EXAMPLES_PER_PLACE, templateOf } from '../src/http/openapi-examples.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';
import { docsExamples, OPENAPI_EXAMPLES_FILE, openApiExamples, openApiExamplesJson } from './support/docs-examples.ts';

type Media = { schema?: object; examples?: Record<string, { summary: string; value: unknown }> };
type Operation = { requestBody?: { content: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

/** Every example in the document: where it sits, its schema and its value. */
function examplesIn(document: Document) {
  const found: Array<{ where: string; key: string; schema: object | undefined; value: unknown }> = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const places = [['request', op.requestBody?.content] as const, ...Object.entries(op.responses).map(([status, r]) => [status, r.content] as const)];
      for (const [place, content] of places) {
        for (const [type, media] of Object.entries(content ?? {})) {
          for (const [key, example] of Object.entries(media.examples ?? {}))
            found.push({ where: `${method.toUpperCase()} ${path} ${place} ${type}`, key, schema: media.schema, value: example.value });
        }
      }
    }
  }
  return found;
}

describe('the OpenAPI examples are the docs examples', () => {
  it('the committed file is what the docs say now (else: npx tsx scripts/openapi-examples.ts)', () => {
    expect(readFileSync(OPENAPI_EXAMPLES_FILE, 'utf8')).toBe(openApiExamplesJson());
    expect(DOCS_EXAMPLES.length).toBeGreaterThanOrEqual(8);
  });

  it('takes requests unless refused, and answers written as JSON (the extraction itself)', () => {
    const markdown = [
      'Example: two steps.',
      '```sh',
      `ID=$(curl -s localhost:8080/api/v1/studio/videos -H 'content-type: application/json' -d '{"title":"a"}' | jq -r .data.id)`,
      `curl -s -X PATCH "localhost:8080/api/v1/studio/videos/$ID?x=1" -H 'content-type: application/json' -d '{"title":"b"}'`,
      '# {"success":true,"data":{"id":1,...}}',
      `curl -s localhost:8080/api/v1/studio/videos -H 'content-type: application/json' -d '{"title":""}'`,
      '# 422 {"success":false,"error":{"code":"invalid_request","message":"Invalid ..."}}',
      `curl -s localhost:8080/api/v1/studio/categories -d 'name=x'`,
      '```',
    ].join('\n');
    const examples = openApiExamples(docsExamples('docs/studio.md', markdown));
    expect(examples).toEqual([
      { name: 'studio.md example 1 step 1', summary: 'docs/studio.md, example 1 (two steps), step 1', method: 'post', path: '/api/v1/studio/videos', request: { title: 'a' } },
      {
        name: 'studio.md example 1 step 2',
        summary: 'docs/studio.md, example 1 (two steps), step 2',
        method: 'patch',
        path: '/api/v1/studio/videos/{ID}',
        request: { title: 'b' },
      },
      {
        name: 'studio.md example 1 step 3',
        summary: 'docs/studio.md, example 1 (two steps), step 3; `...` elides text',
        method: 'post',
        path: '/api/v1/studio/videos',
        response: { status: 422, body: { success: false, error: { code: 'invalid_request', message: 'Invalid ...' } } },
      },
    ]);
  });

  it('finds the operation as the router does: a fixed segment before a parameter', () => {
    const paths = ['/v/{videoId}', '/v/lookup', '/v/{videoId}/usage', '/c/{channelId}/s/{blockId}'];
    expect(templateOf(paths, '/v/lookup')).toBe('/v/lookup');
    expect(templateOf(paths, '/v/7')).toBe('/v/{videoId}');
    expect(templateOf(paths, '/v/7/usage')).toBe('/v/{videoId}/usage');
    expect(templateOf(paths, '/c/1/s/2')).toBe('/c/{channelId}/s/{blockId}');
    expect(templateOf(paths, '/c/1/t/2')).toBeUndefined();
    const op = () => ({ requestBody: { content: { 'application/json': {} } }, responses: { '201': { content: { 'application/json': {} } }, '409': { content: {} } } });
    const document = { paths: { '/v/{videoId}': { post: op() } } };
    const many = Array.from({ length: 5 }, (_, i) => ({ name: `e${i}`, summary: 's', method: 'post', path: '/v/1', request: { i }, response: { body: { i } } }));
    expect(attachExamples(document, many)).toBe(2 * MAX_EXAMPLES_PER_PLACE);
    const answers = document.paths['/v/{videoId}'].post.responses['201'].content['application/json'] as { examples?: object };
    expect(Object.keys(answers.examples ?? {})).toEqual(['e0', 'e1', 'e2']);
  });
});

describe('the served document carries them', () => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let document: Document;
  beforeAll(async () => {
    database = await freshDatabase('pglite');
    app = await buildApp({ database, config: { CHANNELNET_TEST_CLOCK: false, LOG_LEVEL: 'silent', LOG_REQUESTS: false, MAX_EVENT_LOOP_DELAY_MS: 0 } });
    await app.ready();
    document = (await app.inject('/docs/openapi.json')).json();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('every docs example on the operation it calls', () => {
    const found = examplesIn(document);
    // Each committed request and answer is placed (none lost to an unknown path or status).
    const committed = DOCS_EXAMPLES.reduce((n, e) => n + (e.request === undefined ? 0 : 1) + (e.response ? 1 : 0), 0);
    expect(found.length).toBe(committed);
    expect(found.length).toBeGreaterThanOrEqual(9);
    const operations = new Set(found.map((f) => f.where.split(' ').slice(0, 2).join(' ')));
    expect([...operations].sort()).toEqual([
      'PATCH /api/v1/studio/videos/{videoId}',
      'POST /api/v1/rest/auth/login',
      'POST /api/v1/studio/categories',
      'POST /api/v1/studio/channels',
      'POST /api/v1/studio/channels/{channelId}/schedules',
      'POST /api/v1/studio/videos',
    ]);
    const at = (path: string, method: string) => document.paths[path]![method]!;
    expect(at('/api/v1/studio/categories', 'post').responses['201']!.content!['application/json']!.examples).toEqual({
      'studio.md example 1 step 2': {
        summary: expect.stringMatching(/^docs\/studio\.md, example 1 \(a creator .*\), step 2$/),
        value: { success: true, data: { id: 10000000, name: 'News' } },
      },
    });
    expect(Object.keys(at('/api/v1/studio/channels/{channelId}/schedules', 'post').responses['409']!.content!['application/json']!.examples!)).toEqual([
      'studio.md example 1 step 6',
    ]);
    // Examples sit on their own operation only (the Failure body is one schema, its media objects are not shared).
    expect(at('/api/v1/studio/channels', 'post').responses['409']!.content!['application/json']!.examples).toBeUndefined();
    expect(JSON.stringify(document).length).toBeLessThan(600_000);
  });

  it("every example is valid against its operation's schema", () => {
    const ajv = new Ajv2020({ strictSchema: false, allErrors: true });
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
    const found = examplesIn(document);
    expect(found.length).toBeGreaterThan(0);
    for (const { where, key, schema, value } of found) {
      expect(schema, where).toBeDefined();
      // The operation's schema with the document's components beside it, for its $refs.
      const validate = ajv.compile({ allOf: [schema], components: document.components });
      expect(validate(value), `${where} ${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    // The check itself: a wrong answer is refused.
    const failure = ajv.compile({ $ref: '#/components/schemas/Failure', components: document.components });
    expect(failure({ success: false, error: { code: 'x' } })).toBe(false);
  });
});
