// Migrates one template database per test run on PostgreSQL (when TEST_DATABASE_URL is set);
// each test then copies it with CREATE DATABASE ... TEMPLATE, which takes milliseconds. The
// template's name is unique per run, so runs sharing one server do not drop each other's.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/connect.ts';
import { databaseUrlFor } from './support/postgres.ts';
// @ts-expect-error: a plain .mjs script without types
import { buildConsole, isConsoleStale } from '../bin/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
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

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // Once per run, before any test: the console tests load it, and `channelnet serve` in spawned
  // processes would otherwise each build it.
  if (isConsoleStale()) await buildConsole();
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const name = `channelnet_template_${process.pid}_${Date.now().toString(36)}`;
  await admin(adminUrl, `create database ${name}`);
  const template = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, name), poolSize: 1 });
  await template.migrate();
  await template.close();
  project.provide('templateDatabase', name);
  return () => admin(adminUrl, `drop database if exists ${name} with (force)`);
}
