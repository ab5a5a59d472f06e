// JSON bodies as Fastify parses them, except that:
// - an empty body is no body: apps send `Content-Type: application/json` on body-less POSTs
//   (logout, favorites) and expect success;
// - a body nesting arrays and objects deeper than MAX_JSON_DEPTH is refused before it is parsed:
//   JSON.parse builds every level (a 32 MiB `[[[[...]]]]` cost 7 s of CPU), and whatever walks the
//   value afterwards (validation, a NUL check, a store) recurses once per level.
import type { FastifyInstance } from 'fastify';
import { RefusedInput } from './refused-input.ts';

/** No body a client of this service sends nests past a dozen levels (a catalog import: 6). */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP = `nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Where the string opened at `from` closes: the next quote not escaped by an odd run of backslashes (-1: none). */
function closingQuote(text: string, from: number): number {
  for (let at = text.indexOf('"', from + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * Whether JSON text nests deeper than `max`. One pass over the text without parsing it (string
 * contents are skipped with indexOf, so a long string costs little): linear in the length.
 * Malformed text is not judged here; JSON.parse refuses it.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(new RefusedInput('too_deep', 'body', [], TOO_DEEP), undefined);
    return parseJson(request, text, done);
  });
}
