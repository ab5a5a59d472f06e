// What a live stream (or a later block) takes from the blocks under it, in words a creator reads
// before the guide does: one warning per block occurrence and what preempts it, from the on-air
// answer's `preempted` and `segments`. Pure.
import type { OnAir } from '../../api/types.ts';

export interface PreemptionWarning {
  key: string;
  blockId: number;
  /** Instants (ms) of the stretch lost. */
  start: number;
  end: number;
  text: string;
}

const ms = (iso: string) => Date.parse(iso);

/**
 * The warnings of an on-air answer: the pieces one block loses to one layer, back to back, as one
 * stretch; `clock` writes an instant as the channel's wall clock (e.g. `13:30`).
 */
export function preemptionWarnings(onAir: Pick<OnAir, 'segments' | 'preempted'>, clock: (ms: number) => string): PreemptionWarning[] {
  const stretches: Array<{ blockId: number; by: string; start: number; end: number; title: string }> = [];
  for (const p of onAir.preempted) {
    const by = p.byLiveStreamId !== null ? `live:${p.byLiveStreamId}` : `block:${p.byBlockId}`;
    const last = stretches.findLast((s) => s.blockId === p.blockId && s.by === by);
    if (last && last.end === ms(p.start)) last.end = ms(p.end);
    else stretches.push({ blockId: p.blockId, by, start: ms(p.start), end: ms(p.end), title: p.title });
  }
  // A block is named by its first programme of the day and when it starts, not by its id.
  const blockName = (blockId: number) => {
    const pieces = [...onAir.segments.filter((x) => x.blockId === blockId), ...onAir.preempted.filter((x) => x.blockId === blockId)];
    const first = pieces.reduce<(typeof pieces)[number] | undefined>((a, b) => (a === undefined || ms(b.start) < ms(a.start) ? b : a), undefined);
    return first ? `the '${first.title}' block (${clock(ms(first.start))})` : `block ${blockId}`;
  };
  return stretches.map((s) => {
    const layer = onAir.segments.find((x) => (s.by.startsWith('live:') ? `live:${x.liveStreamId}` : `block:${x.blockId}`) === s.by && ms(x.start) < s.end && ms(x.end) > s.start);
    const what = s.by.startsWith('live:') ? `live stream '${layer?.title ?? 'untitled'}'` : blockName(Number(s.by.slice(6)));
    const name = blockName(s.blockId);
    const resumes = onAir.segments.find((x) => x.blockId === s.blockId && ms(x.start) >= s.end);
    const after = resumes
      ? `then the block from ${clock(ms(resumes.start))}${resumes.offsetSeconds > 0 ? ` ('${resumes.title}' joined in progress)` : ''}`
      : 'and the block does not come back (it ends under it)';
    return {
      key: `${s.blockId}-${s.by}-${s.start}`,
      blockId: s.blockId,
      start: s.start,
      end: s.end,
      text: `${name.charAt(0).toUpperCase()}${name.slice(1)} loses ${clock(s.start)}-${clock(s.end)} to ${what}; guides, the XMLTV export and analytics show the ${s.by.startsWith('live:') ? 'stream' : 'other block'}, ${after}.`,
    };
  });
}
