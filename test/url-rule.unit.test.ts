// One rule for every stored URL (src/media/url-rule.ts; docs/security.md: URLs the service stores),
// from the attacker's side: what a creator, a catalog file or a provider's oEmbed answer may not
// make the service store, and what stays allowed.
import { describe, expect, it } from 'vitest';
import { thumbnailUrl, url } from '../src/catalog/fields.ts';
import { hostProblem, storedUrlProblem } from '../src/media/url-rule.ts';

describe('stored URLs', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/',
    'http://127.0.0.1:8080/x.m3u8',
    'http://[::1]/x',
    'http://[::ffff:10.0.0.1]/x',
    'http://0x7f000001/x', // the URL parser writes it 127.0.0.1
    'http://2130706433/x',
    'http://10.1.2.3/x',
    'http://192.168.1.1/router',
    'http://100.64.0.1/x',
    'http://224.0.0.1/x',
    'http://0.0.0.0/x',
    'http://localhost:3000/x',
    'http://api.localhost/x',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://printer.local/x',
    'http://intranet/x',
  ])('refuses %s: a host in a private network', (v) => {
    expect(storedUrlProblem(v)).toMatch(/private network/);
    expect(url.safeParse(v).success).toBe(false);
  });

  it.each([
    ['javascript:alert(1)', /scheme/],
    ['file:///etc/passwd', /scheme/],
    ['data:text/html,<b>', /percent-encoded/],
    ['https://cdn.example/a"onerror="x', /quotes/],
    ["https://cdn.example/a'b", /quotes/],
    ['https://cdn.example/<script>', /quotes/],
    ['https://cdn.example/a b', /spaces/],
    ['https://cdn.example/a\nb', /control/],
    ['https://user:pass@cdn.example/a', /user name/],
    ['https://', /bad URL/],
  ])('refuses %s in words', (v, words) => {
    expect(storedUrlProblem(v)).toMatch(words);
  });

  it('keeps public http(s) URLs, IDN and ports included', () => {
    for (const v of ['https://cdn.example/v/1.m3u8', 'http://media.example:8080/a.mp4', 'https://xn--bcher-kva.example/a', 'https://8.8.8.8/a', 'https://[2606:4700::1111]/a']) {
      expect(storedUrlProblem(v), v).toBeNull();
    }
  });

  it('keeps ad-server macros in a query ({{CACHEBUSTER}}, [TIMESTAMP], a|b)', () => {
    expect(storedUrlProblem('https://vast.example/tag?cb={{CACHEBUSTER}}&ts=[TIMESTAMP]&kv=a|b')).toBeNull();
  });

  it('thumbnails are https only', () => {
    expect(thumbnailUrl.safeParse('https://i.ytimg.com/vi/x/hqdefault.jpg').success).toBe(true);
    expect(thumbnailUrl.safeParse('').success).toBe(true);
    const http = thumbnailUrl.safeParse('http://i.ytimg.com/vi/x/hqdefault.jpg');
    expect(http.success).toBe(false);
    expect(http.error?.issues[0]?.message).toContain('want https://');
  });

  it('an origin the operator allowed is stored whatever its host; only that origin', () => {
    const allowed = new Set(['http://127.0.0.1:8500']);
    expect(storedUrlProblem('http://127.0.0.1:8500/v/master.m3u8', { allowed })).toBeNull();
    expect(storedUrlProblem('http://127.0.0.1:8501/v/master.m3u8', { allowed })).toMatch(/private network/);
    expect(storedUrlProblem('https://127.0.0.1:8500/v/master.m3u8', { allowed })).toMatch(/private network/);
  });

  it('classifies names and addresses', () => {
    expect(hostProblem('cdn.example')).toBeNull();
    expect(hostProblem('[fe80::1]')).toMatch(/link-local/);
    expect(hostProblem('LOCALHOST')).toMatch(/local network/);
    expect(hostProblem('home.arpa')).toMatch(/local network/);
  });
});
