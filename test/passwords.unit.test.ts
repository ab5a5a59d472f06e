// Password hashing (src/access/passwords.ts): OWASP's scrypt cost for new hashes, older hashes
// still verifying with the parameters they carry, and bounded cost per check.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS, HASH_PARAMS, hashPassword, needsRehash, passwordChecksInProgress, verifyPassword } from '../src/access/passwords.ts';

describe('password hashes', () => {
  it('hashes with N=2^17, r=8, p=1 by default, and verifies that hash', async () => {
    expect(DEFAULT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hashPassword('correct horse', DEFAULT_PARAMS);
    expect(stored).toMatch(/^scrypt:131072:8:1:[A-Za-z0-9+/]+={0,2}:[A-Za-z0-9+/]+={0,2}$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
  });

  it('uses the lower test cost only because this run sets CHANNELNET_TEST_SCRYPT_COST', () => {
    expect(process.env.CHANNELNET_TEST_SCRYPT_COST).toBe('11');
    expect(HASH_PARAMS).toEqual({ N: 2048, r: 8, p: 1 });
  });

  it('still verifies hashes made at the old cost, and asks for them to be rehashed', async () => {
    const old = await hashPassword('letmein', { N: 1024, r: 8, p: 1 });
    expect(old.startsWith('scrypt:1024:8:1:')).toBe(true);
    expect(await verifyPassword('letmein', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('letmein'))).toBe(false);
  });

  it('refuses, without computing, a stored hash whose cost is beyond bounds', async () => {
    const salt = Buffer.from('saltsaltsaltsalt').toString('base64');
    const key = Buffer.alloc(32, 1).toString('base64');
    for (const params of ['1048576:8:1', '131072:8:64', '1024:1024:1', '1000:8:1', '0:8:1', '16384:8:0', 'x:8:1']) {
      expect(await verifyPassword('pw', `scrypt:${params}:${salt}:${key}`)).toBe(false);
    }
    expect(passwordChecksInProgress()).toEqual({ running: 0, waiting: 0 });
  });

  it('runs at most two scrypt computations at once; the others wait their turn', async () => {
    const stored = await hashPassword('pw', { N: 1024, r: 8, p: 1 });
    const checks = Array.from({ length: 6 }, (_, i) => verifyPassword(i % 2 === 0 ? 'pw' : 'nope', stored));
    expect(passwordChecksInProgress()).toEqual({ running: 2, waiting: 4 });
    expect(await Promise.all(checks)).toEqual([true, false, true, false, true, false]);
    expect(passwordChecksInProgress()).toEqual({ running: 0, waiting: 0 });
  });
});
