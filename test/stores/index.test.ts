import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CREDENTIAL_KEYS,
  RECEIPT_DATA,
  STORE_PLATFORMS,
  createStoreVerifiers,
  credentialsKey,
  loadAppleRootCertificates,
  parseStorePlatform,
  sandboxAllowed,
  verifierFor,
} from '../../src/entitlements/stores/index.ts';
import { makeTestChain, signAppleJws } from './support/apple-pki.ts';

const dir = mkdtempSync(join(tmpdir(), 'store-roots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('store verifier registry', () => {
  it('gives one verifier per store, reused across calls', () => {
    const verifiers = createStoreVerifiers({ timeoutMs: 1_000 });
    for (const platform of STORE_PLATFORMS) expect(verifiers(platform).store).toBe(platform);
    expect(verifiers('Google')).toBe(verifiers('Google'));
    expect(verifierFor('Roku').store).toBe('Roku');
  });

  it('reads store_platform as clients send it', () => {
    expect(parseStorePlatform('Apple')).toBe('Apple');
    expect(parseStorePlatform(' amazon ')).toBe('Amazon');
    expect(parseStorePlatform('Windows')).toBeUndefined();
    expect(parseStorePlatform(42)).toBeUndefined();
    expect(credentialsKey('Roku')).toBe('roku');
  });

  it('documents credential keys and receipt formats for every store', () => {
    expect(Object.keys(CREDENTIAL_KEYS).sort()).toEqual(['amazon', 'apple', 'google', 'roku']);
    expect(Object.keys(RECEIPT_DATA).sort()).toEqual([...STORE_PLATFORMS].sort());
    expect(CREDENTIAL_KEYS.google.clientEmail.required).toBe(true);
  });

  it('takes the sandbox policy from the credentials', () => {
    expect(sandboxAllowed({})).toBe(false);
    expect(sandboxAllowed({ environment: 'Production' })).toBe(false);
    expect(sandboxAllowed({ environment: 'Sandbox' })).toBe(true);
    expect(sandboxAllowed({ allowSandbox: true })).toBe(true);
  });
});

describe('APPLE_ROOT_CERTIFICATES', () => {
  const chain = makeTestChain('Roots');

  it('loads DER and PEM files listed in the variable, and the Apple verifier trusts them', async () => {
    const der = join(dir, 'root.cer');
    const pem = join(dir, 'root.pem');
    writeFileSync(der, chain.rootDer);
    writeFileSync(pem, new X509Certificate(chain.rootDer).toString());
    const roots = loadAppleRootCertificates({ APPLE_ROOT_CERTIFICATES: `${der}, ${pem}` });
    expect(roots).toHaveLength(2);
    expect(roots.every((root) => root.equals(chain.rootDer))).toBe(true);

    const apple = createStoreVerifiers({ apple: { rootCertificates: roots } })('Apple');
    const now = new Date('2026-03-01T00:00:00Z');
    const receiptData = signAppleJws(chain, {
      transactionId: '1',
      originalTransactionId: '1',
      bundleId: 'com.example',
      productId: 'p',
      environment: 'Production',
      signedDate: now.getTime(),
      expiresDate: now.getTime() + 1_000,
    });
    const verdict = await apple.verifySubscription({ credentials: { bundleId: 'com.example' }, productIds: ['p'], receiptData, allowSandbox: false, now });
    expect(verdict.outcome).toBe('valid');
  });

  it('is empty when unset and names the file it cannot read', () => {
    expect(loadAppleRootCertificates({})).toEqual([]);
    const junk = join(dir, 'junk.cer');
    writeFileSync(junk, 'not a certificate');
    expect(() => loadAppleRootCertificates({ APPLE_ROOT_CERTIFICATES: junk })).toThrow(/APPLE_ROOT_CERTIFICATES: cannot use .*junk\.cer/);
    expect(() => loadAppleRootCertificates({ APPLE_ROOT_CERTIFICATES: join(dir, 'missing.cer') })).toThrow(/missing\.cer/);
  });
});
