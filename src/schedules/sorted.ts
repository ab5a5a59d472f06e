// Binary search over a sorted list, the one way schedule listings are searched by instant.

/**
 * The first index of `list` at which `before` no longer holds, where `before` holds of a prefix
 * of the list and of nothing after it (a list sorted by the instant `before` compares).
 */
export function firstIndexAfter<T>(list: readonly T[], before: (item: T) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(list[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
