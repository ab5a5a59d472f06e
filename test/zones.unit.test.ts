// Zone ids as clients send them resolve to one canonical spelling each (issue 12, item 3):
// luxon and Intl keep a formatter per zone string, so every accepted spelling must map to a
// bounded set of names before anything formats with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvedSpellings, resolveZone } from '../src/schedules/zones.ts';

describe('resolveZone', () => {
  it('maps IANA ids in any letter case, aliases and Windows ids to the canonical id', () => {
    expect(resolveZone('America/New_York')).toBe('America/New_York');
    expect(resolveZone('aMeRiCa/new_york')).toBe('America/New_York');
    expect(resolveZone('AMERICA/NEW_YORK')).toBe('America/New_York');
    expect(resolveZone('US/Eastern')).toBe('America/New_York');
    expect(resolveZone('Eastern Standard Time')).toBe('America/New_York');
    expect(resolveZone('eastern standard time')).toBe('America/New_York');
    expect(resolveZone('etc/gmt+12')).toBe('Etc/GMT+12');
    expect(resolveZone('utc')).toBe('UTC');
    expect(resolveZone('Pacific Standard Time (Mexico)')).toBe(resolveZone('America/Tijuana'));
  });

  it('refuses what names no zone', () => {
    for (const junk of ['', ' ', 'America/New_Yorkx', 'Mars/Olympus', 'UTC+99', '../../etc', 'a'.repeat(65), 'Europe/Berlin\u0000', '+05:00']) {
      expect(resolveZone(junk), JSON.stringify(junk)).toBeUndefined();
    }
  });

  it('remembers one spelling per zone, whatever the letter case (no growth per spelling)', () => {
    const before = resolvedSpellings();
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }), (upper) => {
        const spelling = [...'america/new_york'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        expect(resolveZone(spelling)).toBe('America/New_York');
      }),
      { seed: 20261124, numRuns: 500 },
    );
    expect(resolvedSpellings() - before).toBeLessThanOrEqual(1);
  });
});
