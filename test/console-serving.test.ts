// How the service serves the console's files: the built page and its assets, client-side routes,
// nothing outside the build, and a plain 503 saying how to build when it is missing.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleRoutes } from '../src/http/console.ts';

function built(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'console-'));
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'assets', 'index-abc.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(path.join(path.dirname(root), 'secret.txt'), 'not for the web');
  return root;
}

describe('console files', () => {
  const apps: Array<ReturnType<typeof Fastify>> = [];
  const server = async (root: string) => {
    const app = Fastify();
    await app.register(consoleRoutes, { root });
    apps.push(app);
    return app;
  };
  afterAll(() => Promise.all(apps.map((app) => app.close())));

  it('serves the page, immutable hashed assets and the page for client-side routes', async () => {
    const app = await server(built());
    const page = await app.inject('/studio/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject('/studio/assets/index-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // A browser accepting gzip gets the copy the build compressed.
    const zipped = await app.inject({ url: '/studio/assets/index-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe('console.log(1)');
    const deep = await app.inject('/studio/channels/3');
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('id="root"');
    expect((await app.inject('/studio')).headers.location).toBe('/studio/');
    expect((await app.inject('/')).headers.location).toBe('/studio/');
  });

  it('never answers a file outside the build', async () => {
    const app = await server(built());
    for (const url of ['/studio/../secret.txt', '/studio/%2e%2e/secret.txt', '/studio/assets/..%2f..%2fsecret.txt']) {
      const response = await app.inject(url);
      expect(response.body, url).not.toContain('not for the web');
    }
  });

  it('says how to build it when the build is missing', async () => {
    const app = await server(mkdtempSync(path.join(tmpdir(), 'console-empty-')));
    const response = await app.inject('/studio/');
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
  });
});
