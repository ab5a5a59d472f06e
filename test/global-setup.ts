// Migrates one template database per test run on PostgreSQL (when TEST_DATABASE_URL is set);
// each test then copies it with CREATE DATABASE ... TEMPLATE, which takes milliseconds.
import pg from 'pg';
import { openDatabase } from '../src/db/connect.ts';
import { databaseUrlFor, TEMPLATE_DATABASE } from './support/postgres.ts';

export default async function setup(): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const template = await openDatabase({ databaseUrl: databaseUrlFor(adminUrl, TEMPLATE_DATABASE), poolSize: 1 });
  await template.migrate();
  await template.close();
}
