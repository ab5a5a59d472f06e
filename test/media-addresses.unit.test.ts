// The address classification behind every fetch of a creator-given URL (src/media/addresses.ts).
import { describe, expect, it } from 'vitest';
import { classifyAddress, originOf } from '../src/media/addresses.ts';

describe('address classification', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['169.254.169.254', 'link_local'],
    ['169.254.0.1', 'link_local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.5', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:82a::200e', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    // IPv4-mapped and -compatible forms reach the IPv4 address, dotted or hex.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:a9fe:a9fe', 'link_local'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    // NAT64 of a private address is the private address; NAT64 of a public one is public.
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'reserved'],
    // 6to4 embeds the IPv4 address too.
    ['2002:7f00:1::1', 'loopback'],
    ['2002:0808:0808::1', 'public'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378::1', 'reserved'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('a name or garbage is no address', () => {
    for (const text of ['localhost', 'example.com', '1.2.3', '1.2.3.256', '::ffff:1.2.3.999', '1:2:3:4:5:6:7:8:9', '']) expect(classifyAddress(text)).toBe('invalid');
  });
});

describe('allowed origins', () => {
  it('keeps scheme, host and port only', () => {
    expect(originOf('http://127.0.0.1:8500')).toBe('http://127.0.0.1:8500');
    expect(originOf('http://127.0.0.1:8500/')).toBe('http://127.0.0.1:8500');
    expect(originOf('HTTPS://Media.Example.COM:443')).toBe('https://media.example.com');
    expect(originOf('http://[::1]:9000')).toBe('http://[::1]:9000');
  });

  it('refuses what is not an origin alone', () => {
    for (const entry of ['ftp://x.example', 'http://x.example/path', 'http://x.example/?q=1', 'http://u:p@x.example', 'x.example', '']) expect(originOf(entry)).toBeNull();
  });
});
