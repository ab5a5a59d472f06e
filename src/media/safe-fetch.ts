// Fetching a URL a creator gave (an HLS playlist, later anything else): the service's one SSRF
// surface, so every fetch of such a URL goes through here (docs/security.md: Fetching
// creator-given URLs). Only http(s); bounded bytes and time; redirects followed by hand, at most
// MAX_REDIRECTS, each one checked again; every address the name resolves to must be public
// (src/media/addresses.ts) unless the operator allowed the URL's origin
// (MEDIA_FETCH_ALLOW_ORIGINS), and the connection goes to the address that was checked (the
// lookup is pinned), so a DNS answer that changes between check and connect (rebinding) cannot
// switch it. Refusals are codes with a message in a creator's words.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ADDRESS_CLASS_WORDS, classifyAddress } from './addresses.ts';

/** A playlist of a 10-hour video at 2 s segments is ~1 MB; 4 MiB leaves room for long URIs. */
export const MAX_FETCH_BYTES = 4 * 1024 * 1024;
/** The whole fetch (every redirect, connect, headers and body): a playlist on a working origin takes well under a second. */
export const FETCH_TIMEOUT_MS = 5_000;
/** Redirects followed; a CDN's sign-in hop or a moved folder needs one or two. */
export const MAX_REDIRECTS = 3;

export type FetchRefusalCode =
  'bad_url' | 'scheme_not_allowed' | 'address_not_allowed' | 'dns_failed' | 'too_many_redirects' | 'timeout' | 'too_large' | 'http_status' | 'network_error';

export interface FetchRefusal {
  ok: false;
  code: FetchRefusalCode;
  message: string;
  /** The URL being fetched when it was refused (after redirects). */
  url: string;
}

export interface Fetched {
  ok: true;
  /** The final URL, after redirects: relative URIs in the body resolve against it. */
  url: string;
  contentType: string;
  body: string;
}

export type FetchResult = Fetched | FetchRefusal;

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (dns.lookup with all: true, the system's resolver). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  /** Origins the operator allowed (`http://127.0.0.1:8500`), exact scheme, host and port: their addresses are not checked. */
  allowOrigins?: readonly string[];
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Tests inject names; default: the system resolver. */
  resolve?: Resolver;
}

/** A fetch function as the ingest takes it (tests may give their own). */
export type TextFetcher = (url: string) => Promise<FetchResult>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const refuse = (code: FetchRefusalCode, message: string, url: string): FetchRefusal => ({ ok: false, code, message, url });

/** A fetcher bound to the options (the ingest's and the tests' way in). */
export function safeFetcher(options: SafeFetchOptions = {}): TextFetcher {
  return (url) => safeFetchText(url, options);
}

/** GETs `url` as text within the bounds, following up to maxRedirects redirects, or says why not. */
export async function safeFetchText(url: string, options: SafeFetchOptions = {}): Promise<FetchResult> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await follow(url, options, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return refuse('timeout', `The server took longer than ${timeoutMs / 1000} s to answer.`, url);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function follow(start: string, options: SafeFetchOptions, signal: AbortSignal): Promise<FetchResult> {
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let current = start;
  for (let hop = 0; ; hop++) {
    const target = await checkedTarget(current, options);
    if (!target.ok) return target;
    const answer = await get(target.url, target.pinned, options.maxBytes ?? MAX_FETCH_BYTES, signal);
    if (answer.kind === 'refused') return refuse(answer.code, answer.message, current);
    if (answer.kind === 'redirect') {
      if (hop >= maxRedirects) return refuse('too_many_redirects', `The address redirected more than ${maxRedirects} times.`, current);
      const next = URL.parse(answer.location, current);
      if (!next) return refuse('bad_url', 'The server redirected to something that is not a URL.', current);
      current = next.href;
      continue;
    }
    return { ok: true, url: current, contentType: answer.contentType, body: answer.body };
  }
}

interface Target {
  ok: true;
  url: URL;
  /** The checked address the connection must use; null for an IP literal or an allowed origin. */
  pinned: ResolvedAddress | null;
}

/** The URL parsed, its scheme allowed and its addresses checked (all of them), or a refusal. */
async function checkedTarget(text: string, options: SafeFetchOptions): Promise<Target | FetchRefusal> {
  const url = URL.parse(text);
  if (!url) return refuse('bad_url', 'This is not a URL.', text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('scheme_not_allowed', `Only http:// and https:// addresses are read (not ${url.protocol}).`, text);
  if (url.hostname === '') return refuse('bad_url', 'This URL names no host.', text);
  if (url.username || url.password) return refuse('bad_url', 'Addresses with a user name or password are not read.', text);
  const allowed = (options.allowOrigins ?? []).includes(url.origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (classifyAddress(host) !== 'invalid') {
    // An IP literal: no DNS, the address is the one connected to.
    return allowed ? { ok: true, url, pinned: null } : addressCheck(url, [{ address: host, family: host.includes(':') ? 6 : 4 }]);
  }
  if (allowed) return { ok: true, url, pinned: null };
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return refuse('dns_failed', `The name ${host} could not be resolved.`, text);
  }
  if (addresses.length === 0) return refuse('dns_failed', `The name ${host} has no address.`, text);
  return addressCheck(url, addresses);
}

function addressCheck(url: URL, addresses: ResolvedAddress[]): Target | FetchRefusal {
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind !== 'public') {
      return refuse(
        'address_not_allowed',
        `${url.host} leads to ${ADDRESS_CLASS_WORDS[kind]} (${address}), which the service does not read from unless its operator allows that origin (MEDIA_FETCH_ALLOW_ORIGINS).`,
        url.href,
      );
    }
  }
  return { ok: true, url, pinned: addresses[0]! };
}

type Answer = { kind: 'body'; contentType: string; body: string } | { kind: 'redirect'; location: string } | { kind: 'refused'; code: FetchRefusalCode; message: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A lookup that answers only the checked address, whatever DNS says now. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

function get(url: URL, pinned: ResolvedAddress | null, maxBytes: number, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, {
      signal,
      agent: false,
      headers: { 'user-agent': 'channelnet-media-fetch', accept: '*/*', 'accept-encoding': 'identity' },
      ...(pinned ? { lookup: pinnedLookup(pinned) } : {}),
    });
    request.on('error', (error) =>
      signal.aborted ? reject(error) : resolve({ kind: 'refused', code: 'network_error', message: `The server could not be reached (${networkWords(error)}).` }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location) {
        response.resume();
        resolve({ kind: 'redirect', location: response.headers.location });
        return;
      }
      if (status < 200 || status > 299) {
        response.resume();
        resolve({ kind: 'refused', code: 'http_status', message: `The server answered HTTP ${status}.` });
        return;
      }
      const tooLarge = (): Answer => ({ kind: 'refused', code: 'too_large', message: `The answer is larger than ${maxBytes.toLocaleString('en-US')} bytes.` });
      if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
        request.destroy();
        resolve(tooLarge());
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          request.destroy();
          resolve(tooLarge());
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (error) =>
        signal.aborted ? reject(error) : resolve({ kind: 'refused', code: 'network_error', message: `The answer was cut off (${networkWords(error)}).` }),
      );
      response.on('end', () => resolve({ kind: 'body', contentType: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }));
    });
  });
}

function networkWords(error: unknown): string {
  const code = (error as { code?: string }).code;
  return typeof code === 'string' ? code : 'connection failed';
}
