// Filler that pads, in the console's words (docs/programming.md): the slot's roll fields, the
// pad-to choices, a preview block's filler summed up by role, why a stretch is dead air.
import type { ProgrammingPreview, Slot } from '../../api/types.ts';

export const ROLLS = [
  { field: 'preRoll', label: 'Pre-roll' },
  { field: 'midRoll', label: 'Mid-roll' },
  { field: 'postRoll', label: 'Post-roll' },
] as const satisfies ReadonlyArray<{ field: keyof Slot; label: string }>;

export const PAD_TO_CHOICES = [
  { value: '', label: 'No padding' },
  { value: '15', label: 'Next :00/:15/:30/:45' },
  { value: '30', label: 'Next :00/:30' },
  { value: '60', label: 'Next :00' },
];

/** The select's value as a slot's padTo (undefined: no padding, left out of the slot). */
export function padToOf(value: string | null): 15 | 30 | 60 | undefined {
  return value === '15' ? 15 : value === '30' ? 30 : value === '60' ? 60 : undefined;
}

type Role = ProgrammingPreview['blocks'][number]['roles'][number];
const ROLE_WORDS: Record<Exclude<Role, 'programme'>, string> = {
  preRoll: 'pre-roll',
  midRoll: 'mid-roll',
  postRoll: 'post-roll',
  padding: 'padding',
  filler: 'filler',
  fallback: 'fallback',
};

/** A block's filler by kind, in play order of first appearance: 'pre-roll 1 · padding 2'; '' when it has none. */
export function fillerSummary(roles: readonly Role[]): string {
  const counts = new Map<string, number>();
  for (const role of roles) if (role !== 'programme') counts.set(ROLE_WORDS[role], (counts.get(ROLE_WORDS[role]) ?? 0) + 1);
  return [...counts].map(([word, n]) => `${word} ${n}`).join(' · ');
}

/** Why a stretch of the preview is dead air, as a creator reads it. */
export function deadAirWhy(d: ProgrammingPreview['deadAir'][number]): string {
  switch (d.reason) {
    case 'offAir':
      return `slot ${d.slot! + 1} is off air`;
    case 'remainder':
      return `after slot ${d.slot! + 1}'s videos: nothing fits (add a fallback or filler)`;
    case 'afterEnd':
      return `slot ${d.slot! + 1} has ended; no slot plays until the next one starts`;
    case 'leftOut':
      return `slot ${d.slot! + 1} made no block here`;
    case 'noSlot':
      return 'no slot plays then';
  }
}
