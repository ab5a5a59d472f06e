// Onboarding through the Studio API (issue 36, item 8): an owner's one-time invite links (shown
// once, kept as hashes, listed, revoked, audited), redeemed by anyone into a new owner of their
// own; from the attacker's side a token cannot be guessed, reused, used after expiry or after a
// revoke, and two redemptions at once make exactly one owner. Sign-up where SIGNUP=open.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from './support/db.ts';
import { studioTest, type StudioTest } from './support/studio.ts';

const REST = '/api/v1/rest';
const swapCase = (text: string) => [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
const NOW = '2026-11-21T15:00:00Z';

describe.each(BACKENDS)('Studio onboarding on %s', (backend) => {
  let s: StudioTest;
  beforeAll(async () => {
    s = await studioTest(backend);
  });
  afterAll(() => s.t.close());

  const rows = async (query: ReturnType<typeof sql>) => ((await s.t.database.db.execute(query)) as any).rows as any[];
  /** Anyone, without a sign-in, from `address`. */
  const anonymous = (method: string, url: string, body?: unknown, options: { now?: string; address?: string } = {}) =>
    s.t.request({
      method: method as never,
      url: `/api/v1/studio${url}`,
      ...(body === undefined ? {} : { payload: body as never }),
      remoteAddress: options.address ?? '198.51.100.1',
      ...(options.now ? { now: options.now } : {}),
    });
  const login = (username: string, password: string) => s.t.request({ method: 'POST', url: `${REST}/auth/login`, payload: { username, password } });
  const invite = async (body: unknown = {}) => {
    const created = await s.call('POST', '/invites', { body });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().data as { id: number; token: string; path: string; createdAt: string; expiresAt: string; status: string };
  };
  const newcomer = (n: string) => ({ username: n, email: `${n}@example.com`, password: `${n} password` });
  const accountCount = async () => (await rows(sql`select count(*)::int as n from accounts`))[0].n as number;

  it('tells anyone what the operator allows (default: invites only)', async () => {
    const answer = await anonymous('GET', '/onboarding');
    expect([answer.statusCode, answer.json()]).toEqual([200, { success: true, data: { signup: 'invite' } }]);
  });

  it('creates an invite shown once (token and console path), kept as its hash, lasting 7 days; lists and reads it without the token', async () => {
    const created = await invite({ note: 'for Nora' });
    expect(created).toEqual({
      id: expect.any(Number),
      note: 'for Nora',
      status: 'open',
      createdAt: '2026-11-21T15:00:00.000Z',
      expiresAt: '2026-11-28T15:00:00.000Z',
      usedAt: null,
      usedBy: null,
      revokedAt: null,
      token: expect.stringMatching(/^[\w-]{43}$/),
      path: `/studio/invite/${created.token}`,
    });
    const [stored] = await rows(sql`select token_hash from owner_invites where id = ${created.id}`);
    expect(stored.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(await rows(sql`select * from owner_invites`))).not.toContain(created.token);
    const list = await s.call('GET', '/invites');
    expect(list.json().data.items[0]).toEqual({
      id: created.id,
      note: 'for Nora',
      status: 'open',
      createdAt: created.createdAt,
      expiresAt: created.expiresAt,
      usedAt: null,
      usedBy: null,
      revokedAt: null,
    });
    expect(list.body).not.toContain(created.token);
    expect((await s.call('GET', `/invites/${created.id}`)).json().data.status).toBe('open');
    // Another owner's invite is missing to olga, as one that does not exist.
    const olgas = await s.call('GET', `/invites/${created.id}`, { token: s.tokens.olga });
    expect([olgas.statusCode, olgas.json().error.code]).toEqual([404, 'not_found']);
    expect((await s.call('GET', '/invites', { token: s.tokens.olga })).json().data.items).toEqual([]);
    expect((await s.call('DELETE', `/invites/${created.id}`, { token: s.tokens.olga })).statusCode).toBe(404);
    // Bounded: at most INVITE_MAX_DAYS (30 by default); bad fields in words.
    const long = await s.call('POST', '/invites', { body: { expiresInDays: 31 } });
    expect([long.statusCode, long.json().error.details]).toEqual([422, [{ path: 'expiresInDays', message: 'must be at most 30 (INVITE_MAX_DAYS)' }]]);
    expect((await s.call('POST', '/invites', { body: { expiresInDays: 0 } })).statusCode).toBe(422);
    expect((await s.call('POST', '/invites', { body: { owner: 1 } })).json().error.details).toEqual([{ path: 'owner', message: 'unknown field' }]);
    // Owners only: a viewer and no sign-in are refused.
    expect((await s.call('POST', '/invites', { body: {}, token: s.tokens.victor })).statusCode).toBe(403);
    expect((await anonymous('POST', '/invites', {})).statusCode).toBe(401);
  });

  it('redeems an invite into a new owner who signs in to an empty Studio of their own; the invite is used and audited', async () => {
    const created = await invite();
    const before = await accountCount();
    const answer = await anonymous('POST', '/onboarding/invite', { token: created.token, ...newcomer('nora') });
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json().data;
    expect(answer.json().data).toEqual({ id: expect.any(Number), username: 'nora' });
    expect(await accountCount()).toBe(before + 1);
    const signedIn = await login('nora', 'nora password');
    expect(signedIn.statusCode).toBe(200);
    const nora = signedIn.json().data.authToken as string;
    // Nothing of the inviter's: no channels, videos, apps, app tokens, invites or audit of alice's.
    for (const path of ['/channels', '/videos', '/apps', '/app-tokens', '/invites', '/collections']) {
      const list = await s.call('GET', path, { token: nora });
      expect(list.statusCode, `${path}: ${list.body}`).toBe(200);
      expect(list.json().data.items ?? list.json().data, path).toEqual([]);
    }
    expect((await s.call('GET', '/audit', { token: nora })).json().data.items).toEqual([]);
    expect((await s.call('GET', '/channels/101', { token: nora })).statusCode).toBe(404);
    expect((await s.call('GET', `/invites/${created.id}`, { token: nora })).statusCode).toBe(404);
    expect((await s.call('GET', '/branding', { token: nora })).json().data).toBeNull();
    // The inviter sees the invite used, by whom, and the audit of create and redemption.
    expect((await s.call('GET', `/invites/${created.id}`)).json().data).toMatchObject({ status: 'used', usedAt: '2026-11-21T15:00:00.000Z', usedBy: id });
    const audit = (await s.call('GET', '/audit')).json().data.items.filter((e: any) => e.resource === `invites/${created.id}`);
    expect(audit.map((e: any) => [e.action, e.actorId, e.fields])).toEqual([
      ['update', id, ['usedAt', 'usedBy']],
      ['create', 11, ['expiresAt', 'note']],
    ]);
  });

  it('refuses a reused, revoked, expired or unknown token in words, changing nothing', async () => {
    const used = await invite();
    expect((await anonymous('POST', '/onboarding/invite', { token: used.token, ...newcomer('oscar') })).statusCode).toBe(201);
    const revoked = await invite();
    expect((await s.call('DELETE', `/invites/${revoked.id}`)).statusCode).toBe(204);
    expect((await s.call('DELETE', `/invites/${revoked.id}`)).statusCode).toBe(204);
    const expiring = await invite({ expiresInDays: 1 });
    const accounts = await accountCount();
    const audit = await rows(sql`select count(*)::int as n from studio_audit`);
    const cases = [
      [used.token, 'This invite link was already used. Ask the owner who sent it for a new one.', NOW],
      [revoked.token, 'This invite link was withdrawn by the owner who sent it.', NOW],
      [expiring.token, 'This invite link has expired. Ask the owner who sent it for a new one.', '2026-11-22T15:00:00Z'],
      // A guess: the right shape, never handed out; an open token with its letters' case swapped (tokens are case-sensitive).
      ['A'.repeat(43), 'This invite link is not valid. Check that it was copied whole, or ask for a new one.', NOW],
      [swapCase(expiring.token), 'This invite link is not valid. Check that it was copied whole, or ask for a new one.', NOW],
    ] as const;
    for (const [token, message, now] of cases) {
      const answer = await anonymous('POST', '/onboarding/invite', { token, ...newcomer('mallory') }, { now, address: '203.0.113.9' });
      expect([answer.statusCode, answer.json().error], token).toEqual([410, { code: 'invite_unusable', message }]);
    }
    // A second before its expiry it still worked; nothing was created or audited by the refusals.
    expect(await accountCount()).toBe(accounts);
    expect((await rows(sql`select count(*)::int as n from studio_audit`))[0].n).toBe(audit[0].n);
    expect((await login('mallory', 'mallory password')).statusCode).toBe(401);
    const statuses = (await s.call('GET', '/invites')).json().data.items;
    expect(statuses.find((i: any) => i.id === revoked.id)).toMatchObject({ status: 'revoked', revokedAt: '2026-11-21T15:00:00.000Z' });
    expect((await s.call('GET', `/invites/${expiring.id}`, { now: '2026-11-22T15:00:00Z' })).json().data.status).toBe('expired');
    // The revoke is audited once (the second DELETE changed nothing).
    const revokes = (await s.call('GET', '/audit')).json().data.items.filter((e: any) => e.resource === `invites/${revoked.id}` && e.action === 'delete');
    expect(revokes.map((e: any) => e.fields)).toEqual([['revokedAt']]);
  });

  it('checks the new account as `owner create` does, and a refused account leaves the invite usable', async () => {
    const created = await invite();
    const taken = await anonymous('POST', '/onboarding/invite', { token: created.token, username: 'ALICE', email: 'bad', password: 'short' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().error.details).toEqual([
      { path: 'email', message: 'bad email "bad"' },
      { path: 'password', message: 'must be at least 8 characters' },
    ]);
    const dup = await anonymous('POST', '/onboarding/invite', { token: created.token, username: 'Alice', email: 'new@example.com', password: 'long enough' });
    expect(dup.json().error.details).toEqual([{ path: 'username', message: 'username "Alice" is already taken' }]);
    expect((await anonymous('POST', '/onboarding/invite', { token: created.token, ...newcomer('pia'), role: 'admin' })).json().error.details).toEqual([
      { path: 'role', message: 'unknown field' },
    ]);
    expect((await s.call('GET', `/invites/${created.id}`)).json().data.status).toBe('open');
    expect((await anonymous('POST', '/onboarding/invite', { token: created.token, ...newcomer('pia') })).statusCode).toBe(201);
  });

  it('makes exactly one owner of two redemptions of one token at once', async () => {
    const created = await invite();
    const accounts = await accountCount();
    const answers = await Promise.all(['quinn', 'rosa', 'sami'].map((n) => anonymous('POST', '/onboarding/invite', { token: created.token, ...newcomer(n) })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 410, 410]);
    expect(await accountCount()).toBe(accounts + 1);
    const winner = answers.find((a) => a.statusCode === 201)!.json().data;
    expect((await s.call('GET', `/invites/${created.id}`)).json().data).toMatchObject({ status: 'used', usedBy: winner.id });
    for (const loser of answers.filter((a) => a.statusCode === 410)) expect(loser.json().error.message).toMatch(/already used/);
  });

  it('throttles guessing: after 10 refused tokens from one address, 429 with Retry-After, even for a good token; another address is unaffected', async () => {
    const good = await invite();
    for (let i = 0; i < 10; i++) {
      expect((await anonymous('POST', '/onboarding/invite', { token: `guess-${i}`, ...newcomer('trudy') }, { address: '192.0.2.77' })).statusCode).toBe(410);
    }
    const blocked = await anonymous('POST', '/onboarding/invite', { token: good.token, ...newcomer('trudy') }, { address: '192.0.2.77' });
    expect([blocked.statusCode, blocked.json().error.code, blocked.headers['retry-after']]).toEqual([429, 'too_many_attempts', '900']);
    expect((await s.call('GET', `/invites/${good.id}`)).json().data.status).toBe('open');
    // 15 minutes later it may try again.
    const later = await anonymous('POST', '/onboarding/invite', { token: good.token, ...newcomer('trudy') }, { address: '192.0.2.77', now: '2026-11-21T15:15:01Z' });
    expect(later.statusCode, later.body).toBe(201);
  });

  it('refuses sign-up unless SIGNUP=open', async () => {
    const answer = await anonymous('POST', '/onboarding/signup', newcomer('uma'));
    expect([answer.statusCode, answer.json().error]).toEqual([403, { code: 'signup_closed', message: 'Sign-up is by invitation here: ask an owner for an invite link.' }]);
    expect((await login('uma', 'uma password')).statusCode).toBe(401);
  });
});

describe.each(BACKENDS)('Studio onboarding with SIGNUP=open and closed on %s', (backend) => {
  it('with SIGNUP=open anyone signs up into an empty Studio of their own (audited there), throttled per address', async () => {
    const s = await studioTest(backend, undefined, { SIGNUP: 'open' });
    try {
      const anonymous = (body: unknown, address = '198.51.100.20') =>
        s.t.request({ method: 'POST', url: '/api/v1/studio/onboarding/signup', payload: body as never, remoteAddress: address });
      expect((await s.t.request({ url: '/api/v1/studio/onboarding' })).json().data).toEqual({ signup: 'open' });
      const made = await anonymous({ username: 'vera', email: 'vera@example.com', password: 'vera password' });
      expect(made.statusCode, made.body).toBe(201);
      const token = (await s.t.request({ method: 'POST', url: '/api/v1/rest/auth/login', payload: { username: 'vera', password: 'vera password' } })).json().data.authToken;
      expect((await s.call('GET', '/channels', { token })).json().data.items).toEqual([]);
      expect((await s.call('GET', '/audit', { token })).json().data.items.map((e: any) => [e.action, e.resource])).toEqual([['create', 'account']]);
      const refused = await anonymous({ username: 'alice', email: 'x@example.com', password: 'long enough' });
      expect(refused.json().error.details).toEqual([{ path: 'username', message: 'username "alice" is already taken' }]);
      for (let i = 0; i < 8; i++) await anonymous({ username: `w${i}`, email: 'bad', password: 'x' });
      const blocked = await anonymous({ username: 'walt', email: 'walt@example.com', password: 'walt password' });
      expect([blocked.statusCode, blocked.json().error.code]).toEqual([429, 'too_many_attempts']);
      expect((await anonymous({ username: 'walt', email: 'walt@example.com', password: 'walt password' }, '198.51.100.21')).statusCode).toBe(201);
    } finally {
      await s.t.close();
    }
  });

  it('with SIGNUP=closed neither invites nor sign-ups make owners', async () => {
    const s = await studioTest(backend, undefined, { SIGNUP: 'closed' });
    try {
      const create = await s.call('POST', '/invites', { body: {} });
      expect([create.statusCode, create.json().error.code]).toEqual([403, 'signup_closed']);
      const redeem = await s.t.request({
        method: 'POST',
        url: '/api/v1/studio/onboarding/invite',
        payload: { token: 'x', username: 'xa', email: 'xa@example.com', password: 'xa password' },
      });
      expect(redeem.statusCode).toBe(403);
      expect(
        (await s.t.request({ method: 'POST', url: '/api/v1/studio/onboarding/signup', payload: { username: 'xa', email: 'xa@example.com', password: 'xa password' } })).statusCode,
      ).toBe(403);
    } finally {
      await s.t.close();
    }
  });
});
