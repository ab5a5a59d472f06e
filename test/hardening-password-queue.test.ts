// Issue 26, medium item: 40 failed logins delayed a good login from 0.6 s to 7.9 s, because every
// password check waited its turn for scrypt without bound. Now a check that would wait too long
// (too many waiting in the process, or too many of one network's) is refused at once with 429 and
// Retry-After, computing nothing. No durations here: the scrypt computation is held by the test
// (replaceHasherForTests), so the order in which checks start is counted exactly.
import { scrypt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_PER_NETWORK, MAX_WAITING, networkOf, passwordChecksRefused } from '../src/access/password-slots.ts';
import { passwordChecksInProgress, replaceHasherForTests, type Hasher } from '../src/access/passwords.ts';
import { customCatalog } from './support/custom.ts';
import { testApp, type TestApp } from './support/app.ts';
import { BACKENDS } from './support/db.ts';

interface Held {
  password: string;
  released: boolean;
  release(): void;
}

/** Every computation started, in order, each held until the test releases it. */
const started: Held[] = [];
const holdingHasher: Hasher = async (password, salt, keyLength, params) => {
  const gate = new Promise<void>((resolve) => {
    const held: Held = { password, released: false, release: () => ((held.released = true), resolve()) };
    started.push(held);
  });
  await gate;
  return new Promise((resolve, reject) => scrypt(password, salt, keyLength, { ...params, maxmem: 256 * 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key))));
};

const WAIT = { timeout: 30_000, interval: 5 };

describe('networks', () => {
  it('an IPv4 address is its own network; IPv6 addresses count by /64', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('::ffff:203.0.113.7');
    expect(networkOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(networkOf('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('not an address')).toBe('not an address');
  });
});

describe.each(BACKENDS)('failed logins cannot hold up a good one (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(backend, customCatalog());
    replaceHasherForTests(holdingHasher);
  });
  afterAll(async () => {
    replaceHasherForTests(undefined);
    await t?.close();
  });
  afterEach(() => void (started.length = 0));

  const answered: LightMyRequestResponse[] = [];
  const login = (email: string, password: string, remoteAddress: string) =>
    t.request({ method: 'POST', url: '/api/v1/services/custom/auth/login', payload: { email, password }, remoteAddress }).then((r) => (answered.push(r), r));
  const startedFor = (password: string) => started.findIndex((h) => h.password === password);

  /** Releases the oldest held computation and waits for the next check to start (one is waiting). */
  async function releaseOne(): Promise<void> {
    const count = started.length;
    started.find((h) => !h.released)!.release();
    await vi.waitFor(() => expect(started.length).toBeGreaterThan(count), WAIT);
  }

  /** Releases everything until every request is answered and no check runs or waits. */
  async function drain(requests: Promise<unknown>[]): Promise<void> {
    const all = Promise.all(requests);
    let done = false;
    void all.then(() => (done = true));
    while (!done || passwordChecksInProgress().running > 0) {
      for (const held of started) if (!held.released) held.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
  }

  it('forty failed logins from one /64 run two checks; the good login from elsewhere starts after at most those two', async () => {
    answered.length = 0;
    const refusedBefore = passwordChecksRefused();
    const attacks = Array.from({ length: 40 }, (_, i) => login('alice', `wrong-${i}`, `2001:db8:1:2::${i + 1}`));
    // Every attack is computing, waiting or answered.
    await vi.waitFor(() => expect(started.length + passwordChecksInProgress().waiting + answered.length).toBe(40), WAIT);
    const waitingBefore = passwordChecksInProgress().waiting;
    const good = login('carol', 'pw-carol', '198.51.100.7');
    await vi.waitFor(() => expect(startedFor('pw-carol') >= 0 || passwordChecksInProgress().waiting > waitingBefore).toBe(true), WAIT);
    while (startedFor('pw-carol') < 0) await releaseOne();
    // At most the attacking network's own two checks went first (unbounded, it was every one of the forty).
    expect(MAX_PER_NETWORK).toBe(2);
    expect(startedFor('pw-carol')).toBeLessThanOrEqual(2);
    await drain([...attacks, good]);
    expect((await good).statusCode).toBe(200);
    const statuses = (await Promise.all(attacks)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_PER_NETWORK);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - MAX_PER_NETWORK);
    const refused = (await Promise.all(attacks)).find((r) => r.statusCode === 429)!;
    expect([refused.headers['retry-after'], refused.json().data.status_code]).toEqual(['2', 429]);
    // The refused ones computed nothing: only two attacker checks ever reached scrypt.
    expect(started.filter((h) => h.password.startsWith('wrong-'))).toHaveLength(MAX_PER_NETWORK);
    expect(passwordChecksRefused() - refusedBefore).toBe(40 - MAX_PER_NETWORK);
  });

  it('forty from forty addresses: at most two run and eight wait; the rest, and a good login then, are refused at once and served on retry', async () => {
    answered.length = 0;
    const attacks = Array.from({ length: 40 }, (_, i) => login('alice', `spread-${i}`, `203.0.113.${i + 1}`));
    await vi.waitFor(() => expect(started.length + passwordChecksInProgress().waiting + answered.length).toBe(40), WAIT);
    expect(passwordChecksInProgress()).toEqual({ running: 2, waiting: MAX_WAITING });
    // The queue is full: the good login is told to come back, at once, rather than wait behind it.
    const early = await login('carol', 'pw-carol', '198.51.100.8');
    expect([early.statusCode, early.headers['retry-after']]).toEqual([429, '2']);
    await drain(attacks);
    expect(started.filter((h) => h.password.startsWith('spread-'))).toHaveLength(2 + MAX_WAITING);
    const retry = login('carol', 'pw-carol', '198.51.100.8');
    await drain([retry]);
    expect((await retry).statusCode).toBe(200);
  });

  it('wrong channel passwords are bounded the same way', async () => {
    answered.length = 0;
    const unlock = (i: number) =>
      t
        .request({
          method: 'POST',
          url: '/api/v1/services/custom/getChannelToken',
          payload: { channel_id: 202, password: `guess-${i}` },
          headers: { 'accept-platform-device-id': 'device-x' },
          remoteAddress: '192.0.2.50',
        })
        .then((r) => (answered.push(r), r));
    const guesses = Array.from({ length: 10 }, (_, i) => unlock(i));
    // Every guess computing, waiting or answered before any is released: released at once, two
    // finished before the last guesses arrived under a loaded CI (three 403s, session 21).
    await vi.waitFor(() => expect(started.length + passwordChecksInProgress().waiting + answered.length).toBe(10), WAIT);
    await drain(guesses);
    const statuses = (await Promise.all(guesses)).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(MAX_PER_NETWORK).fill(403), ...Array(10 - MAX_PER_NETWORK).fill(429)]);
    expect(started.filter((h) => h.password.startsWith('guess-'))).toHaveLength(MAX_PER_NETWORK);
  });
});
