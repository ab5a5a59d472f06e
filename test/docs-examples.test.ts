// The docs' curl examples are executed (issue 37 item 7): every ```sh block of docs/*.md that
// calls this service is run, command by command, against a fresh service holding only the owner
// the example signs in as, and each `# ...` line under a command is the answer it must get: an
// optional status, then the body, where `...` stands for any text. A stale example (a field
// renamed, a rule's words changed) fails here instead of misleading an app developer.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../src/catalog/owners.ts';
import { BACKENDS } from './support/db.ts';
import { testApp, type TestApp } from './support/app.ts';
import { docsExamples, matchesExpected, parseCurl, type DocsExample } from './support/docs-examples.ts';

const DOCS = path.resolve(import.meta.dirname, '..', 'docs');
const EXAMPLES: DocsExample[] = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .flatMap((name) => docsExamples(`docs/${name}`, readFileSync(path.join(DOCS, name), 'utf8')));
/** What the examples are written against: a new owner on a new service, the day before "tomorrow" in them. */
const OWNER = { username: 'nora', email: 'nora@example.com', password: 'a good password' };
const NOW = '2026-11-24T12:00:00Z';

describe('the docs examples parse', () => {
  it('finds the examples, and every command in them is one this test can run', () => {
    expect(EXAMPLES.length).toBeGreaterThan(0);
    for (const example of EXAMPLES) for (const step of example.steps) expect(() => parseCurl(step.command), `${example.where}: ${step.command}`).not.toThrow();
  });

  it('reads a command and compares an answer as written (the check itself)', () => {
    const call = parseCurl(`curl -s -X PATCH localhost:8080/api/v1/studio/videos/7 -H "authorization: Bearer $TOKEN" -H 'If-Match: "x"' -d '{"a":1}'`, new Map([['TOKEN', 't0']]));
    expect(call).toEqual({ method: 'PATCH', path: '/api/v1/studio/videos/7', headers: { authorization: 'Bearer t0', 'if-match': '"x"' }, body: '{"a":1}' });
    expect(parseCurl(`curl -s localhost:8080/x -d '{}'`).method).toBe('POST');
    expect(() => parseCurl(`curl -s localhost:8080/x --data-binary @file`)).toThrow(/unknown curl argument/);
    expect(matchesExpected('{"a":1,...}', 200, '{"a":1,"b":2}')).toBe(true);
    expect(matchesExpected('{"a":1,...}', 201, '{"a":2,"b":2}')).toBe(false);
    expect(matchesExpected('409 {"m":"x (...) y"}', 409, '{"m":"x (1) y"}')).toBe(true);
    expect(matchesExpected('409 {"m":"x (...) y"}', 422, '{"m":"x (1) y"}')).toBe(false);
    expect(matchesExpected('{"a":1}', 400, '{"a":1}')).toBe(false);
  });
});

describe.each(BACKENDS)('the docs examples run on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, { format: 'channel-network-catalog', version: 1 });
    const created = await createOwner(t.database.db, OWNER, new Date(NOW));
    expect(created.ok).toBe(true);
  }, 60_000);
  afterAll(() => t?.close());

  for (const example of EXAMPLES) {
    it(`${example.where}: ${example.title}`, async () => {
      const vars = new Map<string, string>();
      for (const step of example.steps) {
        const call = parseCurl(step.command, vars);
        const response = await t.request({
          method: call.method as never,
          url: call.path,
          headers: call.headers,
          ...(call.body === undefined ? {} : { payload: call.body }),
          now: NOW,
        });
        if (call.assign) {
          vars.set(call.assign.name, String(call.assign.pick(response.json())));
          continue;
        }
        if (!step.expected) continue;
        const seen = `${response.statusCode} ${response.body}`;
        expect(matchesExpected(step.expected, response.statusCode, response.body), `${step.command}\nexpected: ${step.expected}\ngot:      ${seen}`).toBe(true);
      }
    });
  }
});
