// One rule for every URL the service stores (docs/security.md: URLs the service stores). Pure.
// A stored URL is later fetched by the service (an HLS ingest, an oEmbed thumbnail), by every app
// (thumbnails, streams, ad tags) or shown as a link, so what it may name is decided once, here:
// - http or https only; a thumbnail https only (apps load it inside https pages and TV shells);
// - no space, control or quote character (" ' < > ` \): stored text ends up in XML, M3U
//   attributes and HTML, where a quote would end the attribute. Braces, brackets and | stay:
//   ad servers' tags carry macros such as {{CACHEBUSTER}}, [TIMESTAMP] or a|b in their query;
// - no host that is this machine, a private, link-local (cloud metadata), multicast or otherwise
//   reserved address written as an address, nor a name that only a local network resolves
//   (localhost and *.localhost, *.local, *.internal such as metadata.google.internal, a name
//   without a dot), unless the operator allowed that origin (MEDIA_FETCH_ALLOW_ORIGINS);
// The fetch side (safe-fetch.ts) checks the address a public-looking name resolves to, on every
// redirect: a name cannot be checked here, before it is fetched.
import { ADDRESS_CLASS_WORDS, classifyAddress } from './addresses.ts';

const UNSAFE_RE = /[\u0000-\u0020\u007f"'<>`\\]/;
const LOCAL_NAME_RE = /(?:^|\.)(?:localhost|local|internal|home\.arpa)$/i;

/** Why `host` (a URL's hostname, IPv6 in brackets) is not a public host, or null. */
export function hostProblem(host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  const kind = classifyAddress(bare);
  if (kind !== 'invalid') return kind === 'public' ? null : ADDRESS_CLASS_WORDS[kind];
  if (LOCAL_NAME_RE.test(bare)) return 'a name only a local network resolves';
  if (!bare.includes('.')) return 'a name without a domain (only a local network resolves it)';
  return null;
}

export interface UrlRule {
  /** https only (thumbnails). */
  httpsOnly?: boolean;
  /** Origins the operator allowed whatever their host (`http://127.0.0.1:8500`). */
  allowed?: ReadonlySet<string>;
}

/** Why `v` may not be stored as a URL, in words, or null. */
export function storedUrlProblem(v: string, rule: UrlRule = {}): string | null {
  const shown = JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (v === '') return 'must not be empty';
  if (UNSAFE_RE.test(v)) return `bad URL ${shown} (spaces, control characters and quotes must be percent-encoded)`;
  const url = URL.parse(v);
  if (url === null) return `bad URL ${shown} (want ${rule.httpsOnly ? 'https://' : 'http:// or https://'})`;
  if (rule.httpsOnly ? url.protocol !== 'https:' : url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `URL scheme ${JSON.stringify(url.protocol)} is not allowed (want ${rule.httpsOnly ? 'https://' : 'http:// or https://'})`;
  }
  if (url.hostname === '') return `bad URL ${shown} (no host)`;
  if (url.username || url.password) return `bad URL ${shown} (a user name or password in a URL is not stored)`;
  if (rule.allowed?.has(url.origin)) return null;
  const problem = hostProblem(url.hostname);
  return problem === null
    ? null
    : `${url.host} is ${problem}: apps and the service would reach into a private network (an operator may allow an origin: MEDIA_FETCH_ALLOW_ORIGINS)`;
}
