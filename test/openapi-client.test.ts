// A typed client generated from the OpenAPI document is usable (issue 37 item 7): the document
// the service serves is turned into TypeScript types by openapi-typescript, a small client using
// openapi-fetch over those types is type-checked strictly (its calls compile, a wrong path or body
// does not), and the same calls, made with openapi-fetch against the service listening, get the
// answers the types promise.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, smallCatalog } from './fixtures/catalog.ts';
import { testApp, type TestApp } from './support/app.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The client an app developer would write: each call typed by the generated `paths`. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export async function run(baseUrl: string, username: string, password: string) {
  const client = createClient<paths>({ baseUrl });
  const login = await client.POST('/api/v1/rest/auth/login', { body: { username, password } });
  const token: string | undefined = login.data?.data.authToken;
  const headers = { authorization: 'Bearer ' + (token ?? '') };
  const channels = await client.GET('/api/v1/studio/channels', { headers });
  const names: string[] = (channels.data?.data.items ?? []).map((c) => c.name);
  const one = await client.GET('/api/v1/studio/channels/{channelId}', { params: { path: { channelId: '201' } }, headers });
  const timezone: string | undefined = one.data?.data.timezone;
  const missing = await client.GET('/api/v1/studio/channels/{channelId}', { params: { path: { channelId: '999' } }, headers });
  const code: string | undefined = missing.error?.error.code;
  return { token, names, timezone, code };
}

export async function mistakes(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  // @ts-expect-error a path the API does not have
  await client.GET('/api/v1/studio/no-such-thing');
  // @ts-expect-error the sign-in takes a username and a password
  await client.POST('/api/v1/rest/auth/login', { body: { user: 'x' } });
  const channels = await client.GET('/api/v1/studio/channels', {});
  // @ts-expect-error a channel has a name, not a nme: the answers are typed, not any
  return channels.data?.data.items.map((c) => c.nme);
}
`;

describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let origin: string;
  let dir: string;
  beforeAll(async () => {
    t = await testApp('pglite', smallCatalog(), { DOCS_ENABLED: true, CHANNELNET_TEST_CLOCK: false });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'channelnet-client-'));
  }, 60_000);
  afterAll(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('type-checks strictly: its calls compile, a wrong path or body does not', async () => {
    const document = (await (await fetch(`${origin}/docs/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
    writeFileSync(path.join(dir, 'schema.ts'), astToString(await openapiTS(document)));
    writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    const program = ts.createProgram([path.join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      // The temporary folder has no node_modules: the package is the project's own.
      baseUrl: dir,
      paths: { 'openapi-fetch': [path.join(ROOT, 'node_modules', 'openapi-fetch')] },
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const at = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
      return at + ts.flattenDiagnosticMessageText(d.messageText, '\n');
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it('gets at run time what the types say', async () => {
    const client = createClient<any>({ baseUrl: origin });
    const login = await client.POST('/api/v1/rest/auth/login', { body: { username: OWNER.username, password: OWNER.password } });
    const token = login.data.data.authToken as string;
    expect(token).toMatch(/\S/);
    const headers = { authorization: `Bearer ${token}` };
    const channels = await client.GET('/api/v1/studio/channels', { headers });
    expect(channels.data.data.items.length).toBeGreaterThan(0);
    const missing = await client.GET('/api/v1/studio/channels/{channelId}', { params: { path: { channelId: 999 } }, headers });
    expect(missing.response.status).toBe(404);
    expect(missing.error.error.code).toBe('not_found');
  });
});
