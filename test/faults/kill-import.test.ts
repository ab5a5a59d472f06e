// Fault: `channelnet import` is killed (kill -9) halfway through writing a big catalog. The
// import writes in one transaction (src/catalog/import.ts), so the database must be exactly
// as before: the same export, the same row count in every table.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCatalog } from '../../src/catalog/export.ts';
import { importCatalog } from '../../src/catalog/import.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { smallCatalog } from '../fixtures/catalog.ts';
import { freshDatabase, type TestDatabase } from '../support/db.ts';
import { BIN, childEnv } from '../support/processes.ts';
import { bigCatalog } from './big-catalog.ts';
import { databaseName, killHard, poll, PollAbort, tableCounts } from './support.ts';

/** About 5,000 videos, 1,000 channels and 40,000 channel rows: seconds of writing on PostgreSQL. */
const SIZE = { owners: 20, channelsPerOwner: 50, videosPerOwner: 250, videosPerChannel: 30 };
/** PGlite writes more slowly: a quarter of that. */
const PGLITE_SIZE = { ...SIZE, owners: 5 };
/** Tables the import writes after accounts and videos: seeing one written means the transaction is well under way. */
const HALFWAY = /^\s*(insert into|delete from) "(channels|channel_videos|channel_vod_videos|channel_vast_settings|channel_roku_settings|schedule_blocks)"/i;

describe.runIf(process.env.TEST_DATABASE_URL)('fault: kill -9 of an import halfway (PostgreSQL)', () => {
  let database: TestDatabase;
  let watcher: pg.Client;
  let importer: ChildProcess | undefined;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    watcher = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await watcher.connect();
    dir = mkdtempSync(join(tmpdir(), 'channelnet-kill-import-'));
    file = join(dir, 'big.json');
    writeFileSync(file, JSON.stringify(bigCatalog(SIZE)));
  });
  afterAll(async () => {
    await killHard(importer);
    await watcher?.end();
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Backends of the test database that hold a transaction id, i.e. have written in an open transaction. */
  const writers = async () =>
    (
      await watcher.query<{ pid: number; state: string; query: string }>(
        `select pid, state, left(query, 200) as query from pg_stat_activity
          where datname = $1 and backend_xid is not null and state in ('active', 'idle in transaction')`,
        [databaseName(database.url!)],
      )
    ).rows;

  it('leaves the database exactly as it was', { timeout: 120_000 }, async () => {
    const imported = await importCatalog(database.db, smallCatalog(), { replace: false, now: new Date() });
    expect(imported.ok).toBe(true);
    const before = await exportCatalog(database.db);
    const countsClient = new pg.Client({ connectionString: database.url });
    await countsClient.connect();
    try {
      const countsBefore = await tableCounts(countsClient);

      const started = performance.now();
      const child = spawn(process.execPath, [BIN, 'import', file], { env: childEnv({ DATABASE_URL: database.url! }) });
      importer = child;
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      // Wait until the import's transaction is writing the tables that come after accounts and videos.
      let firstWriteMs: number | undefined;
      const seen = await poll(
        'the import transaction writing channel rows',
        async () => {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new PollAbort(`the import ended (${child.exitCode ?? child.signalCode}) before it was killed; make the catalog bigger:\n${output}`);
          const now = await writers();
          if (now.length > 0) firstWriteMs ??= Math.round(performance.now() - started);
          return now.find((w) => HALFWAY.test(w.query));
        },
        { attempts: 6_000, intervalMs: 10 },
      );
      const writingAfterMs = Math.round(performance.now() - started);
      const exit = await killHard(child);
      expect(exit).toEqual({ code: null, signal: 'SIGKILL' });

      // PostgreSQL aborts the transaction once it sees the client gone (at the latest when the
      // statement it is running tries to answer); wait for that, then look.
      const killedAt = performance.now();
      await poll('the killed transaction gone', async () => (await writers()).length === 0, { attempts: 300, intervalMs: 50 });
      const goneMs = Math.round(performance.now() - killedAt);
      expect(await exportCatalog(database.db)).toEqual(before);
      expect(await tableCounts(countsClient)).toEqual(countsBefore);
      console.info(
        `kill-import (PostgreSQL): transaction writing from ${firstWriteMs} ms, killed at ${writingAfterMs} ms during "${seen.value.query.slice(0, 40)}…" ` +
          `(${seen.value.state}); transaction gone ${goneMs} ms after the kill; export unchanged`,
      );
    } finally {
      await countsClient.end();
    }
  });
});

// PGlite needs no server, but this variant spawns processes and takes seconds, so it runs with
// the other fault tests (CI sets TEST_DATABASE_URL).
describe.runIf(process.env.TEST_DATABASE_URL)('fault: kill -9 of an import halfway (PGlite data directory)', () => {
  let importer: ChildProcess | undefined;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'channelnet-kill-import-pglite-'));
  });
  afterAll(async () => {
    await killHard(importer);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the data directory as it was, and the next process takes over the stale lock', { timeout: 120_000 }, async () => {
    const dataDir = join(dir, 'data');
    const file = join(dir, 'big.json');
    writeFileSync(file, JSON.stringify(bigCatalog(PGLITE_SIZE)));
    const first = await openDatabase({ dataDir });
    let before: Awaited<ReturnType<typeof exportCatalog>>;
    try {
      await first.migrate();
      expect((await importCatalog(first.db, smallCatalog(), { replace: false, now: new Date() })).ok).toBe(true);
      before = await exportCatalog(first.db);
    } finally {
      await first.close();
    }

    // PGlite writes relation files as its small buffer pool fills, before the commit: changes
    // to several relations' files, free space maps among them, mean rows are being inserted.
    const untouched = relationFiles(dataDir);
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'import', file], { env: childEnv({ DATA_DIR: dataDir }) });
    importer = child;
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const seen = await poll(
      'the import writing rows into the data directory',
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new PollAbort(`the import ended (${child.exitCode ?? child.signalCode}) before it was killed; make the catalog bigger:\n${output}`);
        const changed = [...relationFiles(dataDir)].filter(([name, stamp]) => untouched.get(name) !== stamp).map(([name]) => name);
        const relations = new Set(changed.map((name) => name.replace(/_(fsm|vm)$/, '')));
        return relations.size >= 3 && changed.some((name) => name.endsWith('_fsm')) && changed;
      },
      { attempts: 3_000, intervalMs: 20 },
    );
    const writingAfterMs = Math.round(performance.now() - started);
    expect(await killHard(child)).toEqual({ code: null, signal: 'SIGKILL' });
    // The dead process's lock is still there; opening must take it over, then find the data as it was.
    expect(existsSync(join(dataDir, 'channelnet.lock'))).toBe(true);

    const reopenedAt = performance.now();
    const again = await openDatabase({ dataDir });
    try {
      expect(await exportCatalog(again.db)).toEqual(before);
    } finally {
      await again.close();
    }
    expect(existsSync(join(dataDir, 'channelnet.lock'))).toBe(false);
    console.info(
      `kill-import (PGlite): killed ${writingAfterMs} ms after the start, with ${seen.value.length} relation files changed; ` +
        `reopened and exported in ${Math.round(performance.now() - reopenedAt)} ms; export unchanged`,
    );
  });
});

/** Size and modification time of each relation file (base/<database>/<relfilenode>[_fsm|_vm]). */
function relationFiles(dataDir: string): Map<string, string> {
  const files = new Map<string, string>();
  const base = join(dataDir, 'base');
  for (const database of readdirSync(base)) {
    for (const name of readdirSync(join(base, database))) {
      if (!/^\d+(_fsm|_vm)?$/.test(name)) continue;
      const stat = statSync(join(base, database, name));
      files.set(`${database}/${name}`, `${stat.size}:${stat.mtimeMs}`);
    }
  }
  return files;
}
