// A production install (issue 37, item 8): `npm ci --omit=dev` of this lockfile, with the console
// built beforehand and no web/ sources (as the Docker image has it), serves the APIs and the
// console, and carries none of the console's toolchain.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript build script, no declarations
import { CONSOLE_OUTPUT } from '../bin/build.mjs';
import { startServerProcess, type ServerProcess } from './support/processes.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
/** The console's toolchain: dev dependencies, absent from a production install. */
const TOOLCHAIN = ['vite', 'react', 'react-dom', '@mantine', '@vitejs', '@tanstack', 'hls.js', 'uplot', '@dnd-kit', 'vitest', 'typescript'];

describe('a production install (npm ci --omit=dev, the console prebuilt)', () => {
  let dir: string | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('installs without the console toolchain and serves the APIs and the console', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'channelnet-prod-'));
    const app = path.join(dir, 'app');
    await mkdir(path.join(app, 'dist'), { recursive: true });
    for (const part of ['package.json', 'package-lock.json', 'bin', 'src', 'drizzle', 'assets']) await cp(path.join(ROOT, part), path.join(app, part), { recursive: true });
    // The test run built the console (global setup); a production install is given it.
    await cp(CONSOLE_OUTPUT as string, path.join(app, 'dist', 'studio'), { recursive: true });
    // The packages are in npm's cache from the checkout's own install; the registry otherwise.
    await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, env: { ...process.env, NODE_ENV: 'production' } });
    const installed = await readdir(path.join(app, 'node_modules'));
    expect(installed).toContain('fastify');
    expect(installed.filter((name) => TOOLCHAIN.includes(name))).toEqual([]);

    server = await startServerProcess({ DATA_DIR: path.join(dir, 'data'), DEMO_ON_EMPTY: 'false', MAX_EVENT_LOOP_DELAY_MS: '0' }, [], path.join(app, 'bin', 'channelnet.mjs'));
    expect((await fetch(new URL('/readyz', server.url))).status).toBe(200);
    const page = await fetch(new URL('/studio/', server.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(server.output()).not.toMatch(/could not build/);
  }, 120_000);
});
