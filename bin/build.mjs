#!/usr/bin/env node
// The production build: src/ bundled by esbuild into dist/src/cli.js (packages stay external,
// resolved from node_modules), with a source map. Runs in well under a second, so `channelnet`
// builds it on start when it is missing or older than any source file (`npm install && npm start`
// works on a fresh clone). The bundle sits two levels deep, like src/db/connect.ts, so the
// migrations path that module computes from import.meta.url ('../../drizzle') stays right.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ENTRY = path.join(ROOT, 'src', 'cli.ts');
export const OUTPUT = path.join(ROOT, 'dist', 'src', 'cli.js');

/** The Studio console (web/), built by Vite into dist/studio, served at /studio. */
export const CONSOLE_SOURCE = path.join(ROOT, 'web');
export const CONSOLE_OUTPUT = path.join(ROOT, 'dist', 'studio');

/** Newest modification time (ms) of the files under `dirs` matching `pattern`, this script and package.json. */
function newestOf(dirs, pattern) {
  let newest = Math.max(statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(path.join(ROOT, 'package.json')).mtimeMs);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (pattern.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(dir);
  return newest;
}

const olderThan = (file, newest) => {
  try {
    return statSync(file).mtimeMs < newest;
  } catch {
    return true;
  }
};

export const isStale = () => olderThan(OUTPUT, newestOf([path.join(ROOT, 'src')], /\.(ts|mts|json)$/));

// The console's types come from src/catalog (shared schemas), so those count as its sources too.
// An install without web/ (the Docker image, a production install) runs the console it was given.
export const isConsoleStale = () =>
  existsSync(CONSOLE_SOURCE) && olderThan(path.join(CONSOLE_OUTPUT, 'index.html'), newestOf([CONSOLE_SOURCE, path.join(ROOT, 'src', 'catalog')], /\.(ts|tsx|css|html|json|svg)$/));

/**
 * Brotli and gzip copies of the console's text files next to them, which the server sends to
 * browsers that accept them (@fastify/static's preCompressed): the first script goes from about
 * 290 KB to under 90 KB on the wire, compressed once at build time rather than per request.
 */
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) precompress(file);
    else if (/\.(js|css|html|svg|json)$/.test(entry.name)) {
      const bytes = readFileSync(file);
      writeFileSync(`${file}.br`, brotliCompressSync(bytes));
      writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    }
  }
}

/**
 * Builds the console with Vite into a temporary directory and swaps it in, so a server starting
 * meanwhile never serves half a build. Takes a few seconds; `channelnet serve` runs it when stale.
 */
export async function buildConsole() {
  const vite = await import('vite').catch(() => undefined);
  // The console's toolchain (Vite, React, Mantine) is a dev dependency: `npm ci --omit=dev` serves a
  // console built beforehand (`npm run build` where dev dependencies are installed).
  if (!vite) throw new Error('its toolchain is not installed (a production install: run `npm run build` where dev dependencies are, then copy dist/studio)');
  const viteBuild = vite.build;
  const temporary = `${CONSOLE_OUTPUT}.${randomBytes(4).toString('hex')}.tmp`;
  await viteBuild({ configFile: path.join(CONSOLE_SOURCE, 'vite.config.ts'), logLevel: 'warn', build: { outDir: temporary, emptyOutDir: true } });
  precompress(temporary);
  rmSync(CONSOLE_OUTPUT, { recursive: true, force: true });
  renameSync(temporary, CONSOLE_OUTPUT);
  return CONSOLE_OUTPUT;
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
  if (!process.argv.includes('--server-only')) {
    const consoleStarted = performance.now();
    await buildConsole();
    process.stdout.write(`built ${path.relative(ROOT, CONSOLE_OUTPUT)} in ${Math.round(performance.now() - consoleStarted)} ms\n`);
  }
}
