#!/usr/bin/env node
// The production build: src/ bundled by esbuild into dist/src/cli.js (packages stay external,
// resolved from node_modules), with a source map. Runs in well under a second, so `channelnet`
// builds it on start when it is missing or older than any source file (`npm install && npm start`
// works on a fresh clone). The bundle sits two levels deep, like src/db/connect.ts, so the
// migrations path that module computes from import.meta.url ('../../drizzle') stays right.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ENTRY = path.join(ROOT, 'src', 'cli.ts');
export const OUTPUT = path.join(ROOT, 'dist', 'src', 'cli.js');

/** Newest modification time (ms) of the sources the bundle is made of, and of this build script. */
function newestSource() {
  let newest = statSync(fileURLToPath(import.meta.url)).mtimeMs;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  walk(path.join(ROOT, 'src'));
  return Math.max(newest, statSync(path.join(ROOT, 'package.json')).mtimeMs);
}

export function isStale() {
  try {
    return statSync(OUTPUT).mtimeMs < newestSource();
  } catch {
    return true;
  }
}

/**
 * Builds dist/. Each file is written under a temporary name and renamed into place, so processes
 * starting at the same time (a cluster, parallel tests) never load a half-written bundle.
 */
export async function build() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    outfile: OUTPUT,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(path.dirname(OUTPUT), { recursive: true });
  // The map first: a bundle is only ever renamed in after its map.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('.js')) - Number(b.path.endsWith('.js')));
  for (const file of files) {
    const temporary = `${file.path}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  return OUTPUT;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await build();
  process.stdout.write(`built ${path.relative(ROOT, OUTPUT)} in ${Math.round(performance.now() - started)} ms\n`);
}
