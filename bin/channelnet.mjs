#!/usr/bin/env node
// Runs the compiled bundle (dist/src/cli.js), building it first when it is missing or older than
// the sources (see build.mjs). CHANNELNET_TSX=1 runs the TypeScript sources through tsx instead
// (development); so does a stale bundle that cannot be rebuilt (a read-only install), with a warning.
import { pathToFileURL } from 'node:url';
import { build, buildConsole, isConsoleStale, isStale, OUTPUT } from './build.mjs';

async function compiled() {
  if (!isStale()) return OUTPUT;
  try {
    return await build();
  } catch (error) {
    process.stderr.write(`channelnet: could not build ${OUTPUT} (${error instanceof Error ? error.message : String(error)}); running the sources through tsx\n`);
    return undefined;
  }
}

// `serve` also builds the Studio console when it is missing or stale; a failed build leaves the
// APIs running (the console's URL then says it is not built).
async function consoleBuilt() {
  if (process.argv[2] !== 'serve' || process.env.CHANNELNET_SKIP_CONSOLE_BUILD === '1' || !isConsoleStale()) return;
  try {
    await buildConsole();
  } catch (error) {
    process.stderr.write(`channelnet: could not build the Studio console (${error instanceof Error ? error.message : String(error)})\n`);
  }
}

await consoleBuilt();
const bundle = process.env.CHANNELNET_TSX === '1' ? undefined : await compiled();
if (bundle) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
