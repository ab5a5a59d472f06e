// Who may compute scrypt, and when. Each computation takes 128 MiB and most of a second of a core,
// so at most MAX_RUNNING run at once (memory, and the libuv pool that also serves file and DNS
// work); the rest wait in arrival order. A check a caller asks for (a login, a channel password) is
// bounded: at most MAX_WAITING checks wait in the process, and one network at most
// MAX_PER_NETWORK running or waiting; beyond either it is refused at once, computing nothing, so
// failed logins cannot delay a good one by more than MAX_RUNNING + MAX_WAITING others' checks (one
// address: by its own MAX_PER_NETWORK). Hashing a new password (an owner's or the CLI's own work)
// waits without bound.
import { isIP } from 'node:net';

const MAX_RUNNING = 2;
/** Checks waiting for a slot, process-wide: at most about two seconds' work at the default cost. */
export const MAX_WAITING = 8;
/** Checks of one IPv4 address or IPv6 /64 running or waiting at once. */
export const MAX_PER_NETWORK = 2;

let running = 0;
const waiting: (() => void)[] = [];
const perNetwork = new Map<string, number>();
let refused = 0;

/** scrypt computations running and waiting now. */
export function passwordChecksInProgress(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

/** Checks refused at once since the process started (tests). */
export function passwordChecksRefused(): number {
  return refused;
}

/**
 * The network an address counts for: an IPv4 address itself, an IPv6 address its /64 (one
 * subscriber holds a whole /64, so its addresses are one caller).
 */
export function networkOf(address: string): string {
  if (isIP(address) !== 6 || /^::ffff:\d/i.test(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Waits for a slot; `from` (a caller's address) makes the wait bounded: false when refused. */
export async function takeSlot(from?: string): Promise<boolean> {
  const network = from === undefined ? undefined : networkOf(from);
  if (network !== undefined) {
    const busy = running >= MAX_RUNNING && waiting.length >= MAX_WAITING;
    if (busy || (perNetwork.get(network) ?? 0) >= MAX_PER_NETWORK) {
      refused++;
      return false;
    }
    perNetwork.set(network, (perNetwork.get(network) ?? 0) + 1);
  }
  if (running < MAX_RUNNING) running++;
  else await new Promise<void>((resume) => waiting.push(resume));
  return true;
}

/** Gives the slot taken with `takeSlot(from)` back: it passes to the longest waiter. */
export function releaseSlot(from?: string): void {
  if (from !== undefined) {
    const network = networkOf(from);
    const left = (perNetwork.get(network) ?? 1) - 1;
    if (left > 0) perNetwork.set(network, left);
    else perNetwork.delete(network);
  }
  const next = waiting.shift();
  if (next)
    next(); // the slot passes on: `running` stays the same
  else running--;
}
