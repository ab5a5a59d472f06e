// Which network addresses a creator-given URL may reach (docs/security.md: Fetching creator-given
// URLs). Pure: the address is classified as written (after DNS, by safe-fetch.ts), so a DNS name,
// a decimal or hex IPv4 (the URL parser already turned those into dotted form) or an IPv6 form
// that embeds an IPv4 address cannot smuggle a private address past the check.

/** Why an address may not be fetched; `public` means it may. */
export type AddressClass =
  | 'public'
  | 'unspecified' // 0.0.0.0/8, ::
  | 'loopback' // 127/8, ::1
  | 'private' // 10/8, 172.16/12, 192.168/16, 100.64/10 (CGNAT), fc00::/7
  | 'link_local' // 169.254/16 (cloud metadata 169.254.169.254 included), fe80::/10
  | 'multicast' // 224/4, ff00::/8
  | 'broadcast' // 255.255.255.255
  | 'reserved' // documentation, benchmarking, IETF, 240/4, NAT64 local-use, site-local, Teredo
  | 'invalid'; // not an IP address at all

interface Range4 {
  base: number;
  bits: number;
  kind: Exclude<AddressClass, 'public' | 'invalid'>;
}

const v4 = (dotted: string, bits: number, kind: Range4['kind']): Range4 => ({ base: parse4(dotted)!, bits, kind });

/** Most specific first: the first range holding an address names its class. */
const RANGES4: readonly Range4[] = [
  v4('255.255.255.255', 32, 'broadcast'),
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'private'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link_local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

/** A dotted IPv4 address as an unsigned 32-bit number, or null. */
function parse4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function classify4(n: number): AddressClass {
  for (const range of RANGES4) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(n / size) === Math.floor(range.base / size)) return range.kind;
  }
  return 'public';
}

const IPV6_RE = /^(?=.*:)[0-9a-f:]*(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})?$/i;

/** An IPv6 address as its eight 16-bit groups (an embedded dotted IPv4 tail included), or null. */
export function parse6(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // Checked here, not by node:net's isIP: the console's contracts import this module (no Node built-ins there).
  if (!IPV6_RE.test(address) || address.split('::').length > 2) return null;
  // A dotted IPv4 tail (::ffff:10.0.0.1) becomes its two hex groups.
  let badTail = false;
  const head = address.replace(/(\d+\.\d+\.\d+\.\d+)$/, (dotted) => {
    const n = parse4(dotted);
    if (n === null) badTail = true;
    return `${Math.floor((n ?? 0) / 65536).toString(16)}:${((n ?? 0) % 65536).toString(16)}`;
  });
  if (badTail || head.split(':').some((g) => g.length > 4)) return null;
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const groups = (s: string | undefined) =>
    s
      ? s
          .split(':')
          .filter((g) => g !== '')
          .map((g) => parseInt(g, 16))
      : [];
  const l = groups(left);
  const r = groups(right);
  if (right === undefined) return l.length === 8 ? l : null;
  const zeros = 8 - l.length - r.length;
  return zeros < 0 ? null : [...l, ...new Array<number>(zeros).fill(0), ...r];
}

const embedded4 = (g: number[]) => g[6]! * 65536 + g[7]!;
const allZero = (g: number[], from: number, to: number) => g.slice(from, to).every((x) => x === 0);

function classify6(g: number[]): AddressClass {
  if (allZero(g, 0, 8)) return 'unspecified';
  if (allZero(g, 0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the deprecated compatible form) reach the IPv4 address.
  if (allZero(g, 0, 5) && (g[5] === 0xffff || g[5] === 0)) return classify4(embedded4(g));
  // NAT64 (64:ff9b::/96) reaches the IPv4 address; its local-use /48 only the operator's network.
  if (g[0] === 0x64 && g[1] === 0xff9b && allZero(g, 2, 6)) return classify4(embedded4(g));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'reserved';
  // 6to4 (2002::/16) carries the IPv4 address in its next 32 bits.
  if (g[0] === 0x2002) return classify4(g[1]! * 65536 + g[2]!);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xffc0) === 0xfe80) return 'link_local';
  if ((first & 0xffc0) === 0xfec0) return 'reserved'; // site-local (deprecated, still routed privately)
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && (g[1] === 0 || g[1] === 0xdb8)) return 'reserved'; // Teredo, documentation
  if (first === 0x100 && allZero(g, 1, 4)) return 'reserved'; // discard-only 100::/64
  return 'public';
}

/** The class of an IPv4 or IPv6 address as text (brackets and a zone index allowed). */
export function classifyAddress(address: string): AddressClass {
  const n = parse4(address);
  if (n !== null) return classify4(n);
  const groups = parse6(address);
  return groups === null ? 'invalid' : classify6(groups);
}

/** What each class is, in a creator's words. */
export const ADDRESS_CLASS_WORDS: Readonly<Record<Exclude<AddressClass, 'public'>, string>> = {
  unspecified: 'an unspecified address',
  loopback: 'this machine (loopback)',
  private: 'a private network address',
  link_local: 'a link-local address (cloud metadata lives there)',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  invalid: 'no valid address',
};

/**
 * The origin of an allow-list entry (`http://127.0.0.1:8500`), or null when it is not an http(s)
 * origin alone (a path, query, fragment or user name is refused: an origin is what is allowed).
 */
export function originOf(entry: string): string | null {
  const url = URL.parse(entry.trim());
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) return null;
  return url.origin;
}
