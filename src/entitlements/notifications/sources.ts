// Where a store's pushes may come from (ROKU_NOTIFY_SOURCES): Roku signs nothing in its pushes,
// so a network allow-list is the one proof of origin an owner can add. The list holds addresses
// and CIDRs (validated in src/config.ts); an empty list lets every source in.
import { BlockList, isIP } from 'node:net';

export interface SourceList {
  /** Whether a push from this client address may be read. */
  allows(address: string): boolean;
}

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d, as dual-stack sockets report it) is the IPv4 one. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

export function sourceList(entries: readonly string[]): SourceList {
  if (entries.length === 0) return { allows: () => true };
  const list = new BlockList();
  for (const entry of entries) {
    const [written, prefix] = entry.split('/') as [string, string | undefined];
    const address = prefix === undefined ? plainAddress(written) : written;
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return {
    allows(address) {
      const plain = plainAddress(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}
