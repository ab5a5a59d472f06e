#!/usr/bin/env node
// Runs the compiled bundle (dist/src/cli.js), building it first when it is missing or older than
// the sources (see build.mjs). CHANNELNET_TSX=1 runs the TypeScript sources through tsx instead
// (development); so does a stale bundle that cannot be rebuilt (a read-only install), with a warning.
import { pathToFileURL } from 'node:url';
import { build, isStale, OUTPUT } from './build.mjs';

async function compiled() {
  if (!isStale()) return OUTPUT;
  try {
    return await build();
  } catch (error) {
    process.stderr.write(`channelnet: could not build ${OUTPUT} (${error instanceof Error ? error.message : String(error)}); running the sources through tsx\n`);
    return undefined;
  }
}

const bundle = process.env.CHANNELNET_TSX === '1' ? undefined : await compiled();
if (bundle) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
