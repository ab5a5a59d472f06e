// The activity event body and the session rules, as pure functions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_DEPTH, parseActivityEvent, parseFormBody } from '../src/activity/event.ts';
import { SOURCES } from '../src/sessions/event.ts';
import { BatcherOverloaded, createBatcher } from '../src/sessions/batcher.ts';
import { creditedSeconds, heartbeatRounds, isOpenAt, keyText, type Heartbeat } from '../src/sessions/rules.ts';

const heartbeat = { source: 'roku_app', action: 'play_channel', client_id: 11, user_id: 'viewer-1', channel_id: 201 };

describe('parseActivityEvent', () => {
  it('normalises a heartbeat', () => {
    expect(parseActivityEvent({ ...heartbeat, payload: { a: [1] }, extra: 'ignored' })).toEqual({
      ok: true,
      event: { source: 'roku_app', action: 'play_channel', kind: 'heartbeat', clientId: '11', userId: 'viewer-1', channelId: 201, payload: { a: [1] } },
    });
  });

  it('takes ids as integers or decimal strings, in canonical form', () => {
    const parsed = parseActivityEvent({ ...heartbeat, client_id: '0011', channel_id: '0201', user_id: 42 });
    expect(parsed).toMatchObject({ ok: true, event: { clientId: '11', channelId: 201, userId: '42' } });
    expect(parseActivityEvent({ ...heartbeat, client_id: 0 })).toMatchObject({ event: { clientId: '0' } });
    expect(parseActivityEvent({ ...heartbeat, channel_id: 2147483647 })).toMatchObject({ ok: true });
    expect(parseActivityEvent({ ...heartbeat, channel_id: 2147483648 })).toMatchObject({ ok: false });
  });

  it('treats absent, null and empty optional fields alike', () => {
    for (const value of [undefined, null, '']) {
      const parsed = parseActivityEvent({ ...heartbeat, client_id: value, user_id: value, payload: value === '' ? null : value });
      expect(parsed).toMatchObject({ ok: true, event: { clientId: null, userId: null, payload: null } });
    }
  });

  it('classifies actions: play_channel, login, logout, legacy identifiers', () => {
    const kind = (action: string, extra = {}) => {
      const parsed = parseActivityEvent({ source: 'fire_tv', action, user_id: 'u', ...extra });
      return parsed.ok ? parsed.event.kind : parsed.errors;
    };
    expect(kind('play_channel', { channel_id: 1 })).toBe('heartbeat');
    expect(kind('login')).toBe('login');
    expect(kind('logout')).toBe('logout');
    expect(kind('channel_view')).toBe('legacy');
    expect(kind('PLAY_CHANNEL')).toBe('legacy');
    expect(kind('app.open:v2')).toBe('legacy');
    expect(kind('has space')).toEqual({ action: ['The selected action is invalid.'] });
    expect(kind('9lives')).toEqual({ action: ['The selected action is invalid.'] });
    expect(kind('a'.repeat(65))).toEqual({ action: ['The selected action is invalid.'] });
  });

  it('requires channel_id for play_channel and user_id for login and logout only', () => {
    expect(parseActivityEvent({ source: 'roku_app', action: 'play_channel' })).toEqual({
      ok: false,
      errors: { channel_id: ['The channel id field is required for play_channel.'] },
    });
    expect(parseActivityEvent({ source: 'roku_app', action: 'logout' })).toEqual({
      ok: false,
      errors: { user_id: ['The user id field is required for login and logout.'] },
    });
    expect(parseActivityEvent({ source: 'roku_app', action: 'legacy_thing' })).toMatchObject({ ok: true });
  });

  it('reports every invalid field at once', () => {
    const parsed = parseActivityEvent({ source: 'nope', action: 3, client_id: -1, user_id: {}, channel_id: 'abc' });
    expect(parsed).toEqual({
      ok: false,
      errors: {
        source: ['The selected source is invalid.'],
        action: ['The action must be a string.'],
        client_id: ['The client id must be a non-negative integer.'],
        user_id: ['The user id must be a string.'],
        channel_id: ['The channel id must be a positive integer.'],
      },
    });
  });

  it('refuses what PostgreSQL cannot store: NUL, unpaired surrogates, very deep payloads', () => {
    const nested = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels));
    expect(parseActivityEvent({ ...heartbeat, payload: nested(MAX_PAYLOAD_DEPTH) })).toMatchObject({ ok: true });
    expect(parseActivityEvent({ ...heartbeat, payload: nested(MAX_PAYLOAD_DEPTH + 1) })).toMatchObject({ ok: false, errors: { payload: [expect.any(String)] } });
    expect(parseActivityEvent({ ...heartbeat, payload: { emoji: '\ud83d\ude00' } })).toMatchObject({ ok: true });
    for (const bad of ['\ud83d', '\ude00x', 'a\u0000b']) {
      expect(parseActivityEvent({ ...heartbeat, user_id: bad })).toMatchObject({ ok: false, errors: { user_id: [expect.any(String)] } });
      expect(parseActivityEvent({ ...heartbeat, payload: [bad] })).toMatchObject({ ok: false, errors: { payload: [expect.any(String)] } });
    }
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'text', 3, true]) {
      expect(parseActivityEvent(body)).toEqual({ ok: false, errors: { body: [expect.any(String)] } });
    }
  });

  it('accepts every source of the spec', () => {
    for (const source of SOURCES) expect(parseActivityEvent({ ...heartbeat, source })).toMatchObject({ ok: true });
  });

  it('never throws, whatever JSON it is given', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => typeof parseActivityEvent(value).ok === 'boolean'));
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('source', 'action', 'client_id', 'user_id', 'channel_id', 'payload'), fc.jsonValue()),
        (value) => typeof parseActivityEvent(value).ok === 'boolean',
      ),
    );
  });

  it('reads an integer id and its decimal text the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2147483647 }), fc.nat({ max: Number.MAX_SAFE_INTEGER }), (channel, client) => {
        const asNumbers = parseActivityEvent({ ...heartbeat, channel_id: channel, client_id: client });
        const asText = parseActivityEvent({ ...heartbeat, channel_id: String(channel), client_id: String(client) });
        return asNumbers.ok && asText.ok && JSON.stringify(asNumbers.event) === JSON.stringify(asText.event);
      }),
    );
  });
});

describe('parseFormBody', () => {
  it('decodes fields, the last of a repeated key winning', () => {
    expect({ ...parseFormBody('a=1&b=x+y%21&a=2&empty=&flag') }).toEqual({ a: '2', b: 'x y!', empty: '', flag: '' });
  });

  it('does not let a key reach the prototype', () => {
    const record = parseFormBody('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(record)).toBe(null);
    expect(record.__proto__).toBe('x');
  });
});

describe('session rules', () => {
  const t0 = new Date('2026-11-21T10:00:00Z');
  const plus = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  it('credits a closed session its length, at least 60 seconds', () => {
    expect(creditedSeconds(t0, t0)).toBe(60);
    expect(creditedSeconds(t0, plus(59.9))).toBe(60);
    expect(creditedSeconds(t0, plus(61.5))).toBe(61);
    expect(creditedSeconds(t0, plus(3600))).toBe(3600);
  });

  it('keeps a session open for exactly 3 minutes after its last heartbeat', () => {
    expect(isOpenAt(t0, plus(179))).toBe(true);
    expect(isOpenAt(t0, plus(180))).toBe(true);
    expect(isOpenAt(t0, plus(180.001))).toBe(false);
  });

  const heartbeatArb = fc.record({
    source: fc.constantFrom('roku_app', 'fire_tv'),
    clientId: fc.constantFrom('', '11'),
    userId: fc.constantFrom('', 'a', 'b'),
    channelId: fc.constantFrom(201, 202),
    ownerId: fc.constant(11),
    at: fc.integer({ min: 0, max: 10_000 }).map(plus),
  });

  it('splits heartbeats into rounds of distinct keys, each key in time order, nothing lost', () => {
    fc.assert(
      fc.property(fc.array(heartbeatArb, { maxLength: 60 }), (heartbeats: Heartbeat[]) => {
        const rounds = heartbeatRounds(heartbeats);
        const flat = rounds.flat();
        expect(flat).toHaveLength(heartbeats.length);
        expect(new Set(flat)).toEqual(new Set(heartbeats));
        for (const round of rounds) {
          const keys = round.map(keyText);
          expect(new Set(keys).size).toBe(keys.length);
          expect([...keys].sort()).toEqual(keys);
        }
        const lastSeen = new Map<string, number>();
        for (const h of flat) {
          expect(h.at.getTime()).toBeGreaterThanOrEqual(lastSeen.get(keyText(h)) ?? -Infinity);
          lastSeen.set(keyText(h), h.at.getTime());
        }
      }),
    );
  });
});

describe('createBatcher', () => {
  it('writes alone when idle and groups what arrives while batches are in flight', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = createBatcher(
      async (items: number[]) => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return items.map((n) => n * 10);
      },
      { maxBatch: 3, maxInFlight: 1, maxQueued: 100 },
    );
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [2, 3, 4, 5, 6].map((n) => batcher.submit(n));
    release();
    expect(await Promise.all([first, ...rest])).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('rejects every item of a failed batch, and goes on with the next', async () => {
    const batcher = createBatcher(
      async (items: string[]) => {
        if (items.includes('bad')) throw new Error('boom');
        return items;
      },
      { maxBatch: 10, maxInFlight: 2, maxQueued: 100 },
    );
    const failed = await Promise.allSettled([batcher.submit('ok'), batcher.submit('bad')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await batcher.submit('after')).toBe('after');
  });

  /** A batcher whose first batch stays in flight until `release` is called. */
  function held(options: { maxQueued: number; maxQueuedWeight?: number }) {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = createBatcher(
      async (items: string[]) => {
        batches.push(items);
        await gate;
        return items;
      },
      { maxBatch: 100, maxInFlight: 1, ...options },
      (item) => item.length,
    );
    return { batcher, batches, release };
  }

  it('refuses at once what would pass the waiting line, keeps what it took, and takes again once it drains', async () => {
    const { batcher, batches, release } = held({ maxQueued: 2 });
    const first = batcher.submit('a');
    await new Promise((resolve) => setImmediate(resolve)); // 'a' is in flight, the line is empty
    const waiting = [batcher.submit('b'), batcher.submit('c')];
    expect(batcher.queued()).toEqual({ items: 2, weight: 2 });
    await expect(batcher.submit('d')).rejects.toBeInstanceOf(BatcherOverloaded);
    release();
    expect(await Promise.all([first, ...waiting])).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([['a'], ['b', 'c']]);
    expect(batcher.queued()).toEqual({ items: 0, weight: 0 });
    expect(await batcher.submit('e')).toBe('e');
  });

  it('bounds the waiting weight, but never refuses an item when nothing waits', async () => {
    const { batcher, release } = held({ maxQueued: 100, maxQueuedWeight: 5 });
    const first = batcher.submit('x');
    await new Promise((resolve) => setImmediate(resolve));
    const big = batcher.submit('heavy-item'); // 10 > 5, but the line is empty
    const small = batcher.submit('ab'); // 10 + 2 > 5
    await expect(small).rejects.toBeInstanceOf(BatcherOverloaded);
    expect(batcher.queued()).toEqual({ items: 1, weight: 10 });
    release();
    expect(await Promise.all([first, big])).toEqual(['x', 'heavy-item']);
  });
});
