// The URL part of a read-model key (answers.ts): only what changes the answer. A junk query
// parameter (`&x=1`, `&x=2`, ...) that the route ignores must not make a new key, or 60 anonymous
// requests push every answer real clients share out of the read model (issue 35). So a route whose
// query schema is an object keys its declared parameters only, in a fixed order; a route that
// refuses undeclared parameters (a strict object) keys the whole URL, so the refusal still comes
// from the route; a route without a query schema keys the whole URL (its handler reads what it
// likes), and the read model's admission (answer-cache.ts) is what keeps junk out there.
import type { z } from 'zod';

interface ObjectDef {
  type: 'object';
  shape: Record<string, unknown>;
  catchall?: { _zod: { def: { type: string } } };
}

/** The object schema under refinements and pipes, or undefined. */
function objectDef(schema: unknown): ObjectDef | undefined {
  /* eslint-disable @typescript-eslint/no-unnecessary-condition -- zod's internals, read defensively: any schema may come here */
  let def = (schema as z.ZodType | undefined)?._zod?.def as { type: string; in?: unknown } | undefined;
  for (let depth = 0; def && def.type === 'pipe' && depth < 4; depth++) def = (def.in as z.ZodType | undefined)?._zod?.def as typeof def;
  return def?.type === 'object' ? (def as unknown as ObjectDef) : undefined;
  /* eslint-enable @typescript-eslint/no-unnecessary-condition */
}

/** The declared parameter names of a query schema; undefined when they cannot be said (key the whole URL). */
export function declaredQuery(schema: unknown): ReadonlySet<string> | undefined {
  const def = objectDef(schema);
  if (!def || def.catchall?._zod.def.type === 'never') return undefined;
  return new Set(Object.keys(def.shape));
}

/**
 * `url` with its query cut to the `declared` parameters, sorted by name (a parameter's repeated
 * values keep their order); the whole URL when `declared` is undefined.
 */
export function keyedUrl(url: string, declared: ReadonlySet<string> | undefined): string {
  const mark = url.indexOf('?');
  if (mark < 0 || !declared) return url;
  // Remembered per route and URL: a poll (a 304) asks the same URL over and over.
  let keys = keyed.get(declared);
  if (!keys) keyed.set(declared, (keys = new Map()));
  let key = keys.get(url);
  if (key === undefined) {
    if (keys.size >= MAX_KEYED) keys.clear();
    keys.set(url, (key = cutQuery(url, mark, declared)));
  }
  return key;
}

/** keyedUrl's answers per route (its declared set) and URL, at most MAX_KEYED per route (~0.5 MB at 200-character URLs, URL and key). */
const keyed = new WeakMap<ReadonlySet<string>, Map<string, string>>();
const MAX_KEYED = 1_000;

function cutQuery(url: string, mark: number, declared: ReadonlySet<string>): string {
  const kept: [string, string][] = [];
  for (const part of url.slice(mark + 1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const raw = eq < 0 ? part : part.slice(0, eq);
    let name = raw;
    // Decoded only when encoded: a 304 asks this of every parameter.
    if (raw.includes('%') || raw.includes('+')) {
      try {
        name = decodeURIComponent(raw.replace(/\+/g, ' '));
      } catch {
        return url; // malformed: the route refuses it, nothing is kept
      }
    }
    if (declared.has(name)) kept.push([name, part]);
  }
  kept.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return kept.length === 0 ? url.slice(0, mark) : `${url.slice(0, mark)}?${kept.map(([, part]) => part).join('&')}`;
}
