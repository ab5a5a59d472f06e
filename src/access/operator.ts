// The operator's secret (src/operator-link.ts): what the server's operator route asks for, the
// header that carries it, and its constant-time check.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const OPERATOR_HEADER = 'x-channelnet-operator';

export const newOperatorSecret = () => randomBytes(32).toString('base64url');

/** Whether a request's secret is the server's (constant time; no secret set: never). */
export function isOperatorSecret(expected: string | undefined, given: unknown): boolean {
  if (expected === undefined || typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
