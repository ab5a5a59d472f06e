// The `channelnet` command as a user runs it: real processes on a real data directory.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallCatalog } from './fixtures/catalog.ts';
import { runChannelnet, startServerProcess } from './support/processes.ts';

/** `channelnet serve`, with no load shedding as every test process (test/support/processes.ts childEnv). */
const serve = (env: Record<string, string>) => startServerProcess(env);

const channelnet = (args: string[], extra: Record<string, string>) => runChannelnet(args, extra);

// Each test starts channelnet processes that open PGlite (the first creates and migrates its data
// directory): seconds each on an idle machine, past 30 s among the other test files.
describe('channelnet CLI on the embedded database', { timeout: 120_000 }, () => {
  let dir: string;
  let dataDir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'channelnet-cli-'));
    dataDir = join(dir, 'data');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a bad catalog with its JSON paths, exits non-zero and loads nothing', async () => {
    const bad: any = smallCatalog();
    bad.channels[0].timezone = 'Mars/Olympus';
    bad.videos[1].durationSecs = 5;
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const result = await channelnet(['import', file], { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('channels[0].timezone: unknown time zone "Mars/Olympus"');
    expect(result.stderr).toContain('videos[1].durationSecs: unknown field');
    const exported = await channelnet(['export'], { DATA_DIR: dataDir });
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout).accounts).toEqual([]);
  });

  it('imports a catalog and exports it again', async () => {
    const file = join(dir, 'good.json');
    writeFileSync(file, JSON.stringify(smallCatalog()));
    const result = await channelnet(['import', file], { DATA_DIR: dataDir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('accounts 3');
    const out = join(dir, 'export.json');
    expect((await channelnet(['export', '--out', out], { DATA_DIR: dataDir })).code).toBe(0);
    const exported = JSON.parse(readFileSync(out, 'utf8'));
    expect(exported.channels.map((c: { id: number }) => c.id)).toEqual([201, 202, 203]);
  });

  it('serves, refuses a second process on the same data directory, and stops cleanly on SIGTERM', async () => {
    const server = await serve({ DATA_DIR: dataDir });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const second = await channelnet(['migrate'], { DATA_DIR: dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/in use by process \d+/);
    expect(await server.stop()).toBe(0);
    // The lock went with the server: the data directory opens again.
    expect((await channelnet(['migrate'], { DATA_DIR: dataDir })).code).toBe(0);
  });

  it('loads the demo catalog into an empty database and prints the demo logins', async () => {
    const server = await serve({ DATA_DIR: join(dir, 'demo-data') });
    expect(server.output()).toContain('demo / demo@channelnet.example / demo1234');
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it('stops with a message naming a bad configuration value', async () => {
    const result = await channelnet(['config'], { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT');
  });

  it('prints usage for an unknown command', async () => {
    const result = await channelnet(['frobnicate'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('channelnet serve on PostgreSQL', () => {
  it('migrates a fresh database, loads the demo and answers /readyz', async () => {
    const { freshDatabase } = await import('./support/db.ts');
    const database = await freshDatabase('postgres');
    try {
      const server = await serve({ DATABASE_URL: database.url! });
      expect(server.output()).toContain('(database: postgres)');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await server.stop()).toBe(0);
    } finally {
      await database.close();
    }
  });

  it('exits with a clear message when the database is unreachable', async () => {
    const result = await channelnet(['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ECONNREFUSED|connect/);
  });
});
