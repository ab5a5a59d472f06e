// The console's one way to the server: the Studio API (/api/v1/studio) plus REST's sign-in and
// analytics, with the owner's Bearer token. Every failure becomes an ApiError carrying the
// envelope's code, message and details, so forms can put each message beside its field.
import type { Detail } from './types.ts';

const TOKEN_KEY = 'channelnet.studio.token';
export const STUDIO = '/api/v1/studio';
export const REST = '/api/v1/rest';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly Detail[] = [],
  ) {
    super(message);
  }
}

export interface Answer<T> {
  data: T;
  etag: string | undefined;
  status: number;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  ifMatch?: string | undefined;
  idempotencyKey?: string;
  query?: Record<string, string | number | boolean | undefined>;
}

export const tokenStore = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** Called when any answer is 401: the console returns to its sign-in screen. */
let onUnauthorized: () => void = () => {};
export const whenSignedOut = (listener: () => void) => {
  onUnauthorized = listener;
};

export function urlOf(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function headersOf(options: RequestOptions): Headers {
  const headers = new Headers({ accept: 'application/json' });
  const token = tokenStore.get();
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (options.body !== undefined) headers.set('content-type', 'application/json');
  if (options.ifMatch) headers.set('if-match', options.ifMatch);
  if (options.idempotencyKey) headers.set('idempotency-key', options.idempotencyKey);
  return headers;
}

async function failureOf(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; details?: Detail[] } };
    const error = body.error ?? {};
    return new ApiError(response.status, error.code ?? 'error', error.message ?? response.statusText, error.details ?? []);
  } catch {
    return new ApiError(response.status, 'error', `The server answered ${response.status} ${response.statusText}`.trim());
  }
}

/** Sends one request under `path` (a full API path) and unwraps `{ success, data }`. */
export async function call<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), {
      method: options.method ?? 'GET',
      headers: headersOf(options),
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'network', 'The server could not be reached. Check the connection and try again.');
  }
  if (response.status === 401) onUnauthorized();
  if (!response.ok) throw await failureOf(response);
  const etag = response.headers.get('etag') ?? undefined;
  if (response.status === 204) return { data: undefined as T, etag, status: 204 };
  const body = (await response.json()) as { data: T };
  return { data: body.data, etag, status: response.status };
}

/** The Studio API: `studio('/videos', ...)`. */
export const studio = <T>(path: string, options?: RequestOptions) => call<T>(`${STUDIO}${path}`, options);

/** The REST API (sign-in, analytics). */
export const rest = <T>(path: string, options?: RequestOptions) => call<T>(`${REST}${path}`, options);

/** Downloads a file answer (CSV, the catalog export) with the Bearer token, as a Blob. */
export async function download(path: string, query?: RequestOptions['query'], accept?: string): Promise<Blob> {
  const headers = headersOf({});
  if (accept) headers.set('accept', accept);
  const response = await fetch(urlOf(path, query), { headers });
  if (!response.ok) throw await failureOf(response);
  return response.blob();
}

/** A fresh Idempotency-Key per user action, so a retried create never makes two. */
export const newIdempotencyKey = () => crypto.randomUUID();
