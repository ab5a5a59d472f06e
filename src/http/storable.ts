// PostgreSQL text and jsonb cannot hold NUL (U+0000): a NUL in a body or query value that reaches
// a query fails that query, a 500 (a Studio title did). A group whose routes store or look up what
// clients send refuses NUL once, for every route, before validation: the refusal names the first
// value (or key) holding one, and the group presents it in its validation envelope.
import type { FastifyInstance } from 'fastify';
import { RefusedInput } from './refused-input.ts';

export const NUL_PROBLEM = 'must not contain NUL (U+0000) characters';

const hasNul = (text: string): boolean => text.includes('\u0000');

/** Whether any string in `value` (object keys included) holds NUL. Iterative: depth costs no stack. */
function anyNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (hasNul(current)) return true;
    } else if (Array.isArray(current)) {
      // Not push(...current): a long array would pass more arguments than the stack holds.
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, member] of Object.entries(current)) {
        if (hasNul(key)) return true;
        pending.push(member);
      }
    }
  }
  return false;
}

type Path = (string | number)[];

/** The path of the first string (value or key) in `value` holding NUL, depth-first; undefined: none. */
export function nulPath(value: unknown): Path | undefined {
  // Paths are built only for a value known to hold NUL, so a clean body costs one walk and no paths.
  if (!anyNul(value)) return undefined;
  const pending: [unknown, Path][] = [[value, []]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (hasNul(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push([current[i], [...path, i]]);
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      const key = entries.find(([name]) => hasNul(name));
      if (key) return [...path, key[0]];
      for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i]![1], [...path, entries[i]![0]]]);
    }
  }
  return undefined;
}

/** Refuses, on every route of the group, a query or body holding NUL anywhere (a RefusedInput). */
export function refuseNul(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const inQuery = nulPath(request.query);
    if (inQuery) throw new RefusedInput('nul', 'querystring', inQuery, NUL_PROBLEM);
    const inBody = nulPath(request.body);
    if (inBody) throw new RefusedInput('nul', 'body', inBody, NUL_PROBLEM);
  });
}
