// The one way verifiers talk to a store: fetch with a deadline, never throwing. Transport
// failures become a reason string (-> 'unavailable'); HTTP statuses are left to each store,
// because the same status means different things at different stores (Amazon's 496...).
import type { StoreCredentials } from './types.ts';

export type StoreResponse = { ok: true; status: number; json: unknown; text: string } | { ok: false; reason: string };

/** `json` is undefined when the body is not JSON; callers decide whether that matters. */
export async function callStore(url: string, init: RequestInit, timeoutMs: number): Promise<StoreResponse> {
  try {
    // The signal also bounds reading the body: a store that sends headers and then stalls times out too.
    const response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return { ok: true, status: response.status, json: parseJson(text), text };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: `no answer within ${timeoutMs} ms` };
    return { ok: false, reason: `request failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain JSON object, or undefined: store answers are untrusted input. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Epoch milliseconds as a number or numeric string (Apple's *_ms fields are strings). */
export function dateFromMs(value: unknown): Date | null {
  const ms = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? new Date(ms) : null;
}

export function credential(credentials: StoreCredentials, key: string): string | undefined {
  return str(credentials[key]);
}

/** The first of `keys` missing from the credentials, to name it in the verdict. */
export function missingCredential(credentials: StoreCredentials, keys: readonly string[]): string | undefined {
  return keys.find((key) => credential(credentials, key) === undefined);
}

/** PEM keys pasted into JSON often arrive with literal "\n"; crypto needs real newlines. */
export function pem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
