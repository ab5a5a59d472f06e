// The shipped slate (assets/slate, made by bin/make-slate.sh): read once, served from memory.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SLATE_RUNGS } from '../linear/ladder.ts';
import { SLATE_RUN } from '../linear/programme-segments.ts';

const ROOT = fileURLToPath(new URL('../../assets/slate/', import.meta.url));
let files: Map<string, Buffer> | undefined;

/** The slate segment `n` of rung `rung` ("1280x720"), or undefined when there is none. */
export function slateSegment(rung: string, n: string): Buffer | undefined {
  files ??= new Map(SLATE_RUNGS.flatMap((r) => Array.from({ length: SLATE_RUN }, (_, i) => [`${r}/${i}`, readFileSync(`${ROOT}${r}/${i}.ts`)] as const)));
  return files.get(`${rung}/${n}`);
}
