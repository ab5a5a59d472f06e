// Configuration comes from environment variables only, validated once at start:
// a bad value stops the process with a message naming the variable.
import { isIP } from 'node:net';
import { z } from 'zod';
import { originOf } from './media/addresses.ts';

const flag = z.enum(['0', '1', 'true', 'false', '']).transform((v) => v === '1' || v === 'true');

const storeUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
  .optional();

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR block, or one of the named ranges Fastify's trustProxy knows. */
function isProxyEntry(entry: string): boolean {
  return PROXY_NAMES.has(entry) || isAddressOrCidr(entry);
}

/** An IPv4 or IPv6 address, alone or with a prefix length (CIDR). */
function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * `false`/`0`: no proxy (the socket address is the client); a whole number N: N proxies in front
 * (the address the N-th appended is the client); else a comma-separated list of proxy addresses
 * or CIDRs, which are skipped from the right. `true` trusted the client-written left-most entry,
 * so it is refused rather than guessed at.
 */
export type TrustProxy = false | number | string[];
const trustProxy = z.string().transform((text, ctx): TrustProxy => {
  const value = text.trim().toLowerCase();
  if (value === 'false' || value === '0') return false;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (value === 'true') {
    ctx.addIssue({
      code: 'custom',
      message: '`true` would trust any X-Forwarded-For a client writes; give the number of proxies in front (1 for one load balancer) or their addresses/CIDRs, comma-separated',
    });
    return z.NEVER;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `not a hop count, address or CIDR: ${bad.join(', ')}` });
    return z.NEVER;
  }
  return entries;
});

/**
 * Addresses and CIDRs, comma-separated (ROKU_NOTIFY_SOURCES); unset or empty: any source.
 * Named ranges are refused: an allow-list of a store's servers is written out.
 */
const sourceList = z.string().transform((text, ctx): string[] => {
  const entries = text
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `not an address or CIDR: ${bad.join(', ')}` });
    return z.NEVER;
  }
  return entries;
});

/**
 * Origins (`http://127.0.0.1:8500`: scheme, host and port, no path), comma-separated, that
 * creator-given media URLs may reach whatever their address (MEDIA_FETCH_ALLOW_ORIGINS).
 */
const originList = z.string().transform((text, ctx): string[] => {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const origins = entries.map(originOf);
  const bad = entries.filter((_, i) => origins[i] === null);
  if (bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `not an http(s) origin (scheme://host:port, no path): ${bad.join(', ')}` });
    return z.NEVER;
  }
  return [...new Set(origins as string[])];
});

const bytes = z.coerce
  .number()
  .int()
  .min(1024)
  .max(64 * 1024 * 1024);

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The service's public base URL (https://tv.example.com, or with a path prefix), used where an
   * answer carries absolute links (Custom API pagination). Unset: such links are relative.
   * Never taken from the request's Host header, which a caller chooses.
   */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s?#]+$/, 'must be an http:// or https:// URL without query or fragment')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Route trees for older shipped app templates (docs/custom.md: Shipped clients): `mobile`, `roku`,
   * comma-separated; unset: none (the spec's host has no platform-specific trees).
   */
  COMPAT_ROUTES: z
    .string()
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter((name) => name !== ''),
      ),
    ])
    .pipe(z.array(z.enum(['mobile', 'roku'])))
    .default([]),
  DATA_DIR: z.string().min(1).default('./data'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Per-request log lines halve throughput; operators turn them on when they need them. */
  LOG_REQUESTS: flag.default(false),
  /** Lets the X-Test-Now header set "now" per request. Never in production. */
  CHANNELNET_TEST_CLOCK: flag.default(false),
  /** Load the demo catalog when the database is empty (npm start). */
  DEMO_ON_EMPTY: flag.default(true),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Behind a load balancer: which X-Forwarded-For hops to trust (docs/security.md: Client addresses and proxies). */
  TRUST_PROXY: trustProxy.default(false),
  /** A request still unanswered after this long gets a 503 (0: no limit). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Open connections per process; more are closed as they arrive (0: no limit). */
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(10_000),
  /** Longer than a load balancer's idle timeout (often 60 s), so it closes first. */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1).default(72_000),
  BODY_LIMIT_REST: bytes.default(64 * 1024),
  /** Store receipts (base64 app receipts) can be large. */
  BODY_LIMIT_CUSTOM: bytes.default(1024 * 1024),
  BODY_LIMIT_ACTIVITY: bytes.default(64 * 1024),
  BODY_LIMIT_LEGACY: bytes.default(64 * 1024),
  RATE_LIMIT_ENABLED: flag.default(true),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Requests per window per client address on every route without its own limit. */
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(1200),
  /** Login attempts per window per client address (failed logins are also limited per account). */
  RATE_LIMIT_LOGIN_MAX: z.coerce.number().int().min(1).default(20),
  /** Activity events per window per device (user_id); a player sends one a minute. */
  RATE_LIMIT_ACTIVITY_MAX: z.coerce.number().int().min(1).default(30),
  /** Activity events per window per client address, whatever user_id they carry (many players may share a NAT). */
  RATE_LIMIT_ACTIVITY_ADDRESS_MAX: z.coerce.number().int().min(1).default(600),
  /**
   * Requests per window per client address to the store notification URLs (/api/v1/stores): each
   * costs a signature check or a call to the store. Stores retry what is refused (docs/entitlements.md: Store notifications).
   */
  RATE_LIMIT_NOTIFY_MAX: z.coerce.number().int().min(1).default(300),
  /** Shed load (503) when the event loop lags more than this (0: off). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /** Shed load (503) when more requests than this wait for a database connection (0: off). */
  MAX_DB_POOL_WAITING: z.coerce.number().int().min(0).default(100),
  /**
   * Activity events that may wait for a group-commit batch per process, and their request bytes;
   * past either an event is refused with 503 and Retry-After (docs/activity.md). 10,000 is about
   * two seconds of the heartbeat write ceiling: a longer line would only answer after players gave up.
   */
  ACTIVITY_QUEUE_MAX: z.coerce.number().int().min(1).default(10_000),
  ACTIVITY_QUEUE_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(16 * 1024 * 1024),
  /** Cached catalog answers per process (0: no cache). */
  CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).default(20_000),
  /** Bytes of cached catalog answers per process, keys included (0: no cache); see src/cache/size.ts. */
  CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /**
   * Bytes of rendered XMLTV channel-days kept per process (docs/xmltv.md); a guide of more than 3/4
   * of it is refused (0: guides are not kept, and a guide is limited to what one request may
   * render). 128 MiB holds a 200-channel week (58 MB) twice over; a 200-channel fortnight (116 MB)
   * needs 160 MiB or more.
   */
  GUIDE_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(128 * 1024 * 1024),
  /** Days from today kept rendered ahead of requests for every app with an XMLTV key (0: no warming; guides are still prepared when asked). */
  GUIDE_WARM_DAYS: z.coerce.number().int().min(0).max(14).default(7),
  /**
   * Bytes of encoded viewer read answers kept per process (src/cache/answer-cache.ts: the read
   * model, served without computing or encoding them again; 0: nothing kept, every answer computed).
   */
  ANSWER_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(32 * 1024 * 1024),
  /**
   * The longest `max-age` of a public answer (seconds): answers change at known instants (a day's
   * end, a live stream's end), which bound it too, and at edits, which only this bounds downstream.
   */
  ANSWER_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /**
   * How long a process keeps a Bearer token's check (seconds; 0: read every request). A logout or
   * revocation reaches every process at once through the change channel; this bounds it should one
   * miss it (src/access/bearer-cache.ts).
   */
  TOKEN_CACHE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** Compiled schedule entries kept per process (0: compile every request); SCHEDULE_CACHE_BYTES bounds them too. */
  SCHEDULE_CACHE_ENTRIES: z.coerce.number().int().min(0).default(1_000_000),
  /**
   * Heap bytes of compiled channel-days kept per process (~100 bytes an entry, measured; 0: compile
   * every request). 48 MiB holds a 200-channel network's fortnight of 144-entry days; the lower of
   * this and SCHEDULE_CACHE_ENTRIES bounds the cache. Shown in /metrics as channelnet_cache_bytes.
   */
  SCHEDULE_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(48 * 1024 * 1024),
  METRICS_ENABLED: flag.default(true),
  DOCS_ENABLED: flag.default(true),
  /**
   * Apple root certificates that StoreKit 2 signed transactions must chain to: file paths
   * (DER as Apple ships AppleRootCA-G3.cer, or PEM), comma-separated, read once at start. Unset:
   * signed transactions are refused as unverifiable (legacy receipts still go to verifyReceipt).
   */
  APPLE_ROOT_CERTIFICATES: z.string().optional(),
  // Store base URLs: unset means the store's real server; tests and staging point them elsewhere.
  /** App Store Server API (default https://api.storekit.itunes.apple.com). */
  STORE_APPLE_API_URL: storeUrl,
  /** App Store Server API sandbox (default https://api.storekit-sandbox.itunes.apple.com). */
  STORE_APPLE_SANDBOX_API_URL: storeUrl,
  /** verifyReceipt for legacy receipts (default https://buy.itunes.apple.com/verifyReceipt). */
  STORE_APPLE_VERIFY_RECEIPT_URL: storeUrl,
  /** verifyReceipt sandbox (default https://sandbox.itunes.apple.com/verifyReceipt). */
  STORE_APPLE_VERIFY_RECEIPT_SANDBOX_URL: storeUrl,
  /** Play Developer API (default https://androidpublisher.googleapis.com). */
  STORE_GOOGLE_API_URL: storeUrl,
  /** OAuth token endpoint when the service account names none (default https://oauth2.googleapis.com/token). */
  STORE_GOOGLE_TOKEN_URL: storeUrl,
  /** Amazon RVS (default https://appstore-sdk.amazon.com). */
  STORE_AMAZON_URL: storeUrl,
  /** Amazon RVS Cloud Sandbox (default https://appstore-sdk.amazon.com/sandbox). */
  STORE_AMAZON_SANDBOX_URL: storeUrl,
  /** Roku Pay web services (default https://apipub.roku.com). */
  STORE_ROKU_URL: storeUrl,
  /**
   * oEmbed endpoints the Studio asks about a pasted YouTube or Vimeo URL (title, duration,
   * thumbnail); '' asks nobody (an offline installation: the creator types them). Only these are
   * ever fetched, with the URL rebuilt from the parsed video id.
   */
  OEMBED_YOUTUBE_URL: z.union([z.literal(''), storeUrl.unwrap()]).default('https://www.youtube.com/oembed'),
  OEMBED_VIMEO_URL: z.union([z.literal(''), storeUrl.unwrap()]).default('https://vimeo.com/api/oembed.json'),
  /**
   * The YouTube Data API v3 key (issue 36 item 5): with one, `/videos/lookup` fills YouTube
   * durations from `videos.list` and imports playlists and channel uploads; '' (the default) asks
   * nothing of the Data API. A secret: `channelnet config` masks it.
   */
  YOUTUBE_API_KEY: z.string().default(''),
  /** The YouTube Data API's base (tests point it at a local server); only this address is asked. */
  YOUTUBE_API_URL: storeUrl.unwrap().default('https://www.googleapis.com/youtube/v3'),
  /** Vimeo's API base, for showcase imports; only this address is asked. */
  VIMEO_API_URL: storeUrl.unwrap().default('https://api.vimeo.com'),
  /** A Vimeo API access token (an app's unauthenticated token reads public showcases); '' : no showcase import. A secret. */
  VIMEO_API_TOKEN: z.string().default(''),
  /** One YouTube or Vimeo API call not answered within this long counts as down; the review asks the creator instead. */
  PROVIDER_API_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5_000),
  /**
   * Origins whose media (HLS playlists) the service reads even where they resolve to a loopback,
   * private or link-local address (an origin on the operator's own network; tests). Unset: every
   * creator-given URL must resolve to a public address (docs/security.md: Fetching creator-given URLs).
   */
  MEDIA_FETCH_ALLOW_ORIGINS: originList.default([]),
  /** A provider that has not answered within this long is "unavailable"; the creator fills in the rest. */
  OEMBED_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(4_000),
  /** A store that has not answered within this long counts as down (ok false, store_unavailable). */
  STORE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Google's OIDC signing keys, for Pub/Sub push tokens (default https://www.googleapis.com/oauth2/v3/certs). */
  STORE_GOOGLE_OIDC_CERTS_URL: storeUrl,
  /**
   * Amazon SNS certificate and SubscribeURL addresses must start with this (tests, staging);
   * unset: only https://sns.<region>.amazonaws.com is trusted.
   */
  STORE_AMAZON_SNS_URL_PREFIX: storeUrl,
  /** How often each process looks for store notifications due (retries; rows of a process that died); 0: only when one arrives. */
  STORE_NOTIFICATION_POLL_MS: z.coerce.number().int().min(0).default(5_000),
  /**
   * A worker's hold on a notification it is applying; if its process dies, another takes the
   * notification once this has passed. Keep it above twice STORE_TIMEOUT_MS (a re-read's longest).
   */
  STORE_NOTIFICATION_LEASE_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Run `stores reconcile` this often in the server (one instance at a time); 0: only from the CLI. */
  STORE_RECONCILE_MINUTES: z.coerce.number().int().min(0).default(0),
  /**
   * Where Roku Pay pushes may come from (addresses/CIDRs, comma-separated; the client address as
   * TRUST_PROXY resolves it); unset: anywhere. A push from elsewhere is refused before it is read.
   */
  ROKU_NOTIFY_SOURCES: sourceList.default([]),
  /** The ffmpeg the HDHomeRun tuner runs (docs/linear.md: The tuner); not found: the tuner routes answer 503, nothing else needs it. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** Streams each tuner (one per live key) plays at once per process: its TunerCount; one more is 503. */
  TUNER_COUNT: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * Where the tuner's ffmpeg reads a channel's live HLS: a URL template with {key} and {channelId}.
   * Unset: the channel's master playlist on this same server, over the address the request came in on.
   */
  TUNER_SOURCE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL (with {key} and {channelId})')
    .optional(),
  /** An expired auto-renewing subscription is re-checked with its store at most this often, on status calls. */
  SUBSCRIPTION_RECHECK_SECONDS: z.coerce.number().int().min(0).default(3600),
  /**
   * Who may become an owner without the CLI (docs/studio.md, Onboarding): `invite` (default) by an
   * owner's one-time invite link, `open` also by signing up from the console, `closed` neither.
   */
  SIGNUP: z.enum(['open', 'invite', 'closed']).default('invite'),
  /** The longest an invite link lasts, in days (and its default lifetime, unless shorter: 7). */
  INVITE_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
});

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Empty strings count as unset, as most deployment tools write them. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const relevant = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = configSchema.safeParse(relevant);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** The configuration with secrets masked, for `channelnet config`. */
export function describeConfig(config: Config): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [key, SECRET_VALUES.has(key) && value !== '' ? '****' : typeof value === 'string' ? maskUrlSecrets(value) : value]),
  );
}

/** Variables that are secrets whole (not URLs with a secret inside). */
const SECRET_VALUES = new Set(['YOUTUBE_API_KEY', 'VIMEO_API_TOKEN']);

/** Query parameters known to carry no secret; every other one's value is masked. */
const HARMLESS_URL_PARAMS = new Set(['sslmode', 'ssl', 'application_name', 'connect_timeout', 'target_session_attrs', 'host', 'port', 'dbname', 'user']);
const URL_RE = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?([^?#]*)(\?[^#]*)?(#.*)?$/is;

/**
 * A URL with its secrets replaced by `****`: the password of `user:password@` and the value of
 * every query parameter not known to be harmless (`?password=`, `sslkey=`, `token=`...). Text that
 * is not a URL is returned as it is.
 */
export function maskUrlSecrets(text: string): string {
  const match = URL_RE.exec(text);
  if (!match) return text;
  const [, scheme, userinfo = '', rest, query = '', fragment = ''] = match;
  const colon = userinfo.indexOf(':');
  const user = colon < 0 ? userinfo : `${userinfo.slice(0, colon)}:****@`;
  const params = query
    .slice(1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0 || HARMLESS_URL_PARAMS.has(decodeName(part.slice(0, eq)))) return part;
      return `${part.slice(0, eq)}=****`;
    });
  return `${scheme}${user}${rest}${query && `?${params.join('&')}`}${fragment}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}
