import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalRules, rulesProblems, smartVideoIds, type CollectionRules, type RuleVideo } from '../src/schedules/collections.ts';

const video = fc.record({
  id: fc.integer({ min: 1, max: 1_000_000 }),
  title: fc.string({ maxLength: 12 }),
  categoryId: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  providerName: fc.constantFrom('YouTube', 'Vimeo', 'Custom', 'youtube'),
  durationSeconds: fc.double({ min: 0, max: 7200, noNaN: true }),
});
const videos = fc.uniqueArray(video, { selector: (v) => v.id, maxLength: 30 });
const rules: fc.Arbitrary<CollectionRules> = fc.record(
  {
    categoryIds: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
    providerNames: fc.array(fc.constantFrom('YOUTUBE', 'vimeo', 'Custom'), { minLength: 1, maxLength: 2 }),
    minSeconds: fc.integer({ min: 0, max: 3600 }),
    maxSeconds: fc.integer({ min: 0, max: 7200 }),
    titleContains: fc.string({ minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: [] },
);

describe('smart collections', () => {
  it('hold, by id, exactly the videos that pass every rule given; a further rule never adds one', () => {
    fc.assert(
      fc.property(rules, videos, (r, vs) => {
        const held = smartVideoIds(r, vs);
        expect(held).toEqual([...held].sort((a, b) => a - b));
        const passes = (v: RuleVideo, one: CollectionRules) => smartVideoIds(one, [v]).length === 1;
        for (const v of vs) {
          const each = (Object.keys(r) as (keyof CollectionRules)[]).every((k) => passes(v, { [k]: r[k] } as CollectionRules));
          expect(held.includes(v.id)).toBe(each);
        }
        if (r.categoryIds === undefined) expect(smartVideoIds({ ...r, categoryIds: [1] }, vs).every((id) => held.includes(id))).toBe(true);
      }),
    );
  });

  it('match an empty rule set to every video, providers and titles whatever their case, durations inclusive', () => {
    const vs: RuleVideo[] = [
      { id: 3, title: 'Morning NEWS', categoryId: 1, providerName: 'YouTube', durationSeconds: 600 },
      { id: 1, title: 'Weather', categoryId: null, providerName: 'Vimeo', durationSeconds: 120 },
    ];
    expect(smartVideoIds({}, vs)).toEqual([1, 3]);
    expect(smartVideoIds({ providerNames: ['youtube'], titleContains: 'news' }, vs)).toEqual([3]);
    expect(smartVideoIds({ minSeconds: 120, maxSeconds: 600 }, vs)).toEqual([1, 3]);
    expect(smartVideoIds({ categoryIds: [1, 2] }, vs)).toEqual([3]);
  });

  it('write their rules in one order whatever order they came in, and refuse a range that is upside down', () => {
    fc.assert(
      fc.property(rules, (r) => {
        const shuffled = Object.fromEntries(Object.entries(r).reverse()) as CollectionRules;
        expect(JSON.stringify(canonicalRules(shuffled))).toBe(JSON.stringify(canonicalRules(r)));
        expect(canonicalRules(r)).toEqual(r);
      }),
    );
    expect(rulesProblems({ minSeconds: 61, maxSeconds: 60 })).toEqual(['rules.maxSeconds: must not be below minSeconds (61)']);
    expect(rulesProblems({ minSeconds: 60, maxSeconds: 60 })).toEqual([]);
  });
});
