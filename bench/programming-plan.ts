// The programming write both bench:programming and bench:fairness apply: 40 programmes of 7 to 15
// minutes and filler of 15 s to 2 min (every half hour leaves a remainder to fill), and a plan of
// 48 half-hour slots on every day of the week, the three orders in turn: over 31 days 1,488
// blocks, the PROGRAMMING_LIMITS bound.
import type { CatalogVideo } from '../src/catalog/format.ts';

/** The programmes and filler, made from a video of the catalog, owned by `ownerId`. */
export function programmingVideos(template: CatalogVideo, ownerId: number) {
  const programmes = Array.from({ length: 40 }, (_, i) => ({
    ...template,
    id: 800_000 + i,
    ownerId,
    title: `Programme ${i}`,
    durationSeconds: 420 + (i % 5) * 120,
    providerVideoId: `prog-${i}`,
  }));
  const filler = [15, 30, 45, 60, 90, 120].map((d, i) => ({ ...template, id: 800_100 + i, ownerId, title: `Filler ${d}s`, durationSeconds: d, providerVideoId: `fill-${i}` }));
  return { programmes, filler };
}

/** 48 half-hour slots on every weekday, each playing 5 of the programmes. */
export function halfHourSlots(programmes: ReadonlyArray<{ id: number }>) {
  return Array.from({ length: 48 }, (_, k) => ({
    days: [1, 2, 3, 4, 5, 6, 7],
    start: `${String(Math.floor(k / 2)).padStart(2, '0')}:${k % 2 === 0 ? '00' : '30'}`,
    videoIds: programmes.slice((k * 3) % 35, ((k * 3) % 35) + 5).map((v) => v.id),
    order: (['inOrder', 'shuffle', 'leastRecentlyAired'] as const)[k % 3],
    seed: k,
  }));
}
