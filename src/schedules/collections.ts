// Collections (docs/programming.md, Collections): an owner's named, reusable sets of videos that
// slots of any of the owner's channels play from. A manual collection is its list of videos, in
// order; a smart one is rules, resolved against the owner's videos when a plan is generated (a
// video added later that matches is played from then on). Pure: what a collection holds, and
// which videos a smart one's rules match.

/** Bounds of what an owner may build: how many collections, how long a manual list, how long a name. */
export const COLLECTION_LIMITS = {
  perOwner: 200,
  /** A manual collection's videos: as many as an owner may hold (OWNER_BOUNDS.videos). */
  videos: 20_000,
  name: 100,
  /** Categories or providers one rule may name. */
  ruleValues: 50,
  titleContains: 100,
} as const;

/** A smart collection's rules: every video matching all of those given (an empty rule set matches every video). */
export interface CollectionRules {
  categoryIds?: number[];
  /** Provider names as the catalog writes them (YouTube, Vimeo, Custom, ...), matched without regard to case. */
  providerNames?: string[];
  /** Duration range in seconds, inclusive. */
  minSeconds?: number;
  maxSeconds?: number;
  /** Part of the title, without regard to case. */
  titleContains?: string;
}

/** Rules with their fields in one order (jsonb gives its keys back in its own order; answers and ETags follow the text). */
export function canonicalRules(rules: CollectionRules): CollectionRules {
  const { categoryIds, providerNames, minSeconds, maxSeconds, titleContains } = rules;
  return {
    ...(categoryIds !== undefined ? { categoryIds } : {}),
    ...(providerNames !== undefined ? { providerNames } : {}),
    ...(minSeconds !== undefined ? { minSeconds } : {}),
    ...(maxSeconds !== undefined ? { maxSeconds } : {}),
    ...(titleContains !== undefined ? { titleContains } : {}),
  };
}

/** What a rule reads of a video. */
export interface RuleVideo {
  id: number;
  title: string;
  categoryId: number | null;
  providerName: string;
  durationSeconds: number;
}

/** Whether a video matches every rule given. */
export function matchesRules(rules: CollectionRules, video: RuleVideo): boolean {
  if (rules.categoryIds && !(video.categoryId !== null && rules.categoryIds.includes(video.categoryId))) return false;
  if (rules.providerNames && !rules.providerNames.some((p) => p.toLowerCase() === video.providerName.toLowerCase())) return false;
  if (rules.minSeconds !== undefined && video.durationSeconds < rules.minSeconds) return false;
  if (rules.maxSeconds !== undefined && video.durationSeconds > rules.maxSeconds) return false;
  if (rules.titleContains !== undefined && !video.title.toLowerCase().includes(rules.titleContains.toLowerCase())) return false;
  return true;
}

/** The videos a smart collection holds, in the owner's catalog order (by id: the order they were added). */
export function smartVideoIds(rules: CollectionRules, videos: readonly RuleVideo[]): number[] {
  return videos
    .filter((v) => matchesRules(rules, v))
    .map((v) => v.id)
    .sort((a, b) => a - b);
}

/** Problems of a rule set, as `rules.<field>: ...` lines (none: it may be stored). */
export function rulesProblems(rules: CollectionRules): string[] {
  const problems: string[] = [];
  if (rules.minSeconds !== undefined && rules.maxSeconds !== undefined && rules.minSeconds > rules.maxSeconds) {
    problems.push(`rules.maxSeconds: must not be below minSeconds (${rules.minSeconds})`);
  }
  return problems;
}
