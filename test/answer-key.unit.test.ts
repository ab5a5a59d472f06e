import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declaredQuery, keyedUrl } from '../src/http/answer-key.ts';

describe('the URL part of a read-model key', () => {
  const loose = z.object({ timezone: z.string().optional(), page: z.string().optional() });

  it('keeps only the parameters the route declares, in a fixed order', () => {
    const declared = declaredQuery(loose);
    expect(keyedUrl('/users/11/channels?page=2&timezone=UTC&x=1', declared)).toBe('/users/11/channels?page=2&timezone=UTC');
    expect(keyedUrl('/users/11/channels?timezone=UTC&x=2&page=2', declared)).toBe('/users/11/channels?page=2&timezone=UTC');
    expect(keyedUrl('/users/11/channels?x=1', declared)).toBe('/users/11/channels');
    expect(keyedUrl('/users/11/channels', declared)).toBe('/users/11/channels');
  });

  it('keeps a repeated parameter in its order (the route may read all of them)', () => {
    expect(keyedUrl('/a?page=2&page=1', declaredQuery(loose))).toBe('/a?page=2&page=1');
  });

  it('sees through refinements and pipes', () => {
    expect(declaredQuery(loose.superRefine(() => undefined))).toEqual(new Set(['timezone', 'page']));
    expect(declaredQuery(loose.transform((q) => q))).toEqual(new Set(['timezone', 'page']));
  });

  it('keys the whole URL where the route refuses undeclared parameters or has no object schema', () => {
    expect(declaredQuery(z.strictObject({ days: z.string() }))).toBeUndefined();
    expect(declaredQuery(undefined)).toBeUndefined();
    expect(keyedUrl('/a?x=1&days=2', undefined)).toBe('/a?x=1&days=2');
  });

  it('keys a malformed query whole (the route refuses it)', () => {
    expect(keyedUrl('/a?%E0%A4%A=1', declaredQuery(loose))).toBe('/a?%E0%A4%A=1');
  });
});
