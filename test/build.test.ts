// The production build: bin/build.mjs bundles src/ into dist/, and the bundle alone (no tsx)
// migrates a fresh database and serves.
import { mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script, no declarations
import { build, CONSOLE_OUTPUT, isConsoleStale, isStale } from '../bin/build.mjs';
import { startServerProcess, type ServerProcess } from './support/processes.ts';

describe('production build', () => {
  let server: ServerProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('bundles the sources, and is fresh until a source changes', async () => {
    const output = (await build()) as string;
    expect(output.endsWith(path.join('dist', 'src', 'cli.js'))).toBe(true);
    expect(isStale()).toBe(false);
    // A bundle older than the sources (a checkout or an edit since) is stale.
    await utimes(output, new Date(0), new Date(0));
    expect(isStale()).toBe(true);
    await build();
    expect(isStale()).toBe(false);
  });

  it('knows when the console build is older than its sources (npm start rebuilds it then)', async () => {
    // The test run built it (global setup); only its page's time is changed, and put back, so
    // console tests running meanwhile keep their files.
    const page = path.join(CONSOLE_OUTPUT as string, 'index.html');
    const { atime, mtime } = await stat(page);
    expect(isConsoleStale()).toBe(false);
    try {
      await utimes(page, new Date(0), new Date(0));
      expect(isConsoleStale()).toBe(true);
    } finally {
      await utimes(page, atime, mtime);
    }
    expect(isConsoleStale()).toBe(false);
  });

  it('serves from the bundle, migrations included', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'channelnet-build-'));
    // No load shedding (test/support/processes.ts childEnv): /readyz answers 503 while the event loop lags.
    server = await startServerProcess({ DATA_DIR: dataDir, DEMO_ON_EMPTY: 'false' }, [], path.resolve('dist/src/cli.js'));
    expect((await fetch(new URL('/readyz', server.url))).status).toBe(200);
    const docs = await fetch(new URL('/docs/openapi.json', server.url));
    expect(docs.status).toBe(200);
    // The console the bundle serves is the built one.
    const console = await fetch(new URL('/studio/', server.url));
    expect(console.status).toBe(200);
    expect(await console.text()).toContain('<div id="root">');
  }, 60_000);
});
