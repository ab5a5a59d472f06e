#!/usr/bin/env node
// Start-and-serve smoke test on whichever Node runs it (`npm run test:node24` runs it on Node 24
// LTS, beside the unit project): `channelnet serve` on a new embedded data directory answers
// /readyz, an API route and the console, then stops on SIGTERM. Plain JavaScript: no tsx needed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/channelnet.mjs', import.meta.url));
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'channelnet-smoke-'));
const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_ON_EMPTY: 'false', LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;
const child = spawn(process.execPath, [BIN, 'serve'], { env });
let output = '';
const exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));
try {
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" within 90 s:\n${output}`)), 90_000);
    child.stdout.on('data', (d) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on('data', (d) => (output += d));
    void exited.then((code) => reject(new Error(`serve exited (${code}):\n${output}`)));
  });
  const checks = [
    ['/readyz', 200, ''],
    ['/api/v1/services/custom/users/1/settings', 404, 'User is required'],
    ['/studio/', 200, '<div id="root">'],
  ];
  for (const [route, status, text] of checks) {
    const response = await fetch(new URL(route, url));
    const body = await response.text();
    if (response.status !== status || !body.includes(text)) throw new Error(`${route}: ${response.status} ${body.slice(0, 200)}`);
  }
  process.stdout.write(`serve smoke on Node ${process.version}: ${checks.length} routes answered\n`);
} finally {
  child.kill('SIGTERM');
  await exited;
  await rm(dataDir, { recursive: true, force: true });
}
