// Once per run, before any test file, three things that would otherwise be done per file:
// - builds the console (the console tests load it; `channelnet serve` in spawned processes would
//   otherwise each build it);
// - migrates one PGlite and writes its data directory to a temporary file, which every PGlite test
//   database then loads (test/support/db.ts): initdb and migrations cost about 5 s of CPU, which
//   each test file used to pay in its own process;
// - on PostgreSQL (when TEST_DATABASE_URL is set) migrates one template database; each test then
//   copies it with CREATE DATABASE ... TEMPLATE, which takes milliseconds. The template's name is
//   unique per run, so runs sharing one server do not drop each other's;
// - starts the Chromium the console tests connect to (test/support/chromium.ts), in place of one
//   browser start per console test file.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/connect.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './support/chromium.ts';
import { migratedPgliteDump } from './support/pglite-template.ts';
import { databaseUrlFor } from './support/postgres.ts';
// @ts-expect-error: a plain .mjs script without types
import { buildConsole, isConsoleStale } from '../bin/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    /** A tarball of a migrated PGlite data directory (PGlite's dumpDataDir). */
    pgliteTemplate: string;
    /** The shared Chromium's playwright endpoint; empty when there is no Chromium to start. */
    browserEndpoint: string;
  }
}

async function admin(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const runId = `${process.pid}_${Date.now().toString(36)}`;

async function pgliteTemplate(): Promise<string> {
  const file = path.join(tmpdir(), `channelnet-pglite-template-${runId}.tar`);
  writeFileSync(file, Buffer.from(await (await migratedPgliteDump()).arrayBuffer()));
  return file;
}

async function postgresTemplate(adminUrl: string): Promise<string> {
  const name = `channelnet_template_${runId}`;
  await admin(adminUrl, `create database ${name}`);
  const template = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, name), poolSize: 1 });
  await template.migrate();
  await template.close();
  return name;
}

/** Without Chromium installed the console tests fail with their own message (support/console.ts). */
function browserServer(): Promise<BrowserServer | undefined> {
  if (!existsSync(CHROMIUM)) return Promise.resolve(undefined);
  return chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, host: '127.0.0.1' });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const [, pgliteFile, postgresName, browser] = await Promise.all([
    isConsoleStale() ? buildConsole() : undefined,
    pgliteTemplate(),
    adminUrl ? postgresTemplate(adminUrl) : undefined,
    browserServer(),
  ]);
  project.provide('pgliteTemplate', pgliteFile);
  project.provide('browserEndpoint', browser?.wsEndpoint() ?? '');
  if (postgresName) project.provide('templateDatabase', postgresName);
  return async () => {
    await browser?.close();
    rmSync(pgliteFile, { force: true });
    if (adminUrl && postgresName) await admin(adminUrl, `drop database if exists ${postgresName} with (force)`);
  };
}
