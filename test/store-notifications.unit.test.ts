// The pure parts of store notifications: retry backoff, metric labels, body parsing, SNS URLs.
import { describe, expect, it } from 'vitest';
import { SnsVerifier } from '../src/entitlements/notifications/amazon-sns.ts';
import { MAX_ATTEMPTS, retryDelayMs } from '../src/entitlements/notifications/inbox.ts';
import { typeLabel } from '../src/entitlements/notifications/labels.ts';
import { eventDate, jsonBody } from '../src/entitlements/notifications/types.ts';

describe('store notification helpers', () => {
  it('backs off from 30 s, doubling, to at most 6 h; the attempts add up to days, not weeks', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(15)).toBe(6 * 3_600_000);
    const total = Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeGreaterThan(2);
    expect(total / 86_400_000).toBeLessThan(7);
  });

  it('labels documented types by name and anything else as other (bounded metric labels)', () => {
    expect(typeLabel('Apple', 'DID_FAIL_TO_RENEW/GRACE_PERIOD')).toBe('DID_FAIL_TO_RENEW');
    expect(typeLabel('Apple', 'x'.repeat(500))).toBe('other');
    expect(typeLabel('Google', 'SUBSCRIPTION_REVOKED')).toBe('SUBSCRIPTION_REVOKED');
    expect(typeLabel('Roku', 'Refund')).toBe('Refund');
    expect(typeLabel('Amazon', 'SUBSCRIPTION_PURCHASED')).toBe('SUBSCRIPTION_PURCHASED');
  });

  it('reads only JSON objects as bodies, and store dates in their several forms', () => {
    expect(jsonBody('{"a":1}')).toEqual({ json: { a: 1 } });
    for (const text of ['', 'null', '[1]', '"x"', '{', '{"refused":"x"']) expect(jsonBody(text)).toMatchObject({ refused: 'malformed' });
    expect(jsonBody('{"refused":"x"}')).toEqual({ json: { refused: 'x' } });
    expect(eventDate('1795000000000')?.getTime()).toBe(1795000000000);
    expect(eventDate(1795000000000)?.toISOString()).toBe(new Date(1795000000000).toISOString());
    expect(eventDate('2026-11-21T15:00:00Z')?.toISOString()).toBe('2026-11-21T15:00:00.000Z');
    for (const bad of [undefined, null, '', 'soon', 0, -5, {}]) expect(eventDate(bad)).toBeUndefined();
  });

  it('trusts SNS certificate URLs only on https SNS hosts, or under a configured prefix', () => {
    const real = new SnsVerifier({ timeoutMs: 1000 });
    expect(real.isSnsUrl('https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem')).toBe(true);
    expect(real.isSnsUrl('https://sns.cn-north-1.amazonaws.com.cn/x.pem')).toBe(true);
    for (const url of [
      'http://sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com.evil.com/x.pem',
      'https://evil.com/sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com:8443/x.pem',
      'https://user@evil.com/x',
      'not a url',
      42,
    ])
      expect(real.isSnsUrl(url), String(url)).toBe(false);
    const staging = new SnsVerifier({ timeoutMs: 1000, urlPrefix: 'http://127.0.0.1:9/sns/' });
    expect(staging.isSnsUrl('http://127.0.0.1:9/sns/cert.pem')).toBe(true);
    expect(staging.isSnsUrl('https://sns.us-east-1.amazonaws.com/x.pem')).toBe(false);
  });
});
