// The on-air timeline: what a channel actually plays at each instant, once, for every answer that
// says what is on air (XMLTV, programme attribution, the channel-day curve, the Studio's preview
// and calendar, "now on air", and the REST and Custom listings cut to agree with it).
//
// The rule (README: "What is on air"), over the published block occurrences and live streams:
// - Layers: at any instant the covering occurrence of the highest layer is on air. Live streams
//   are above every block; within a kind the later-starting occurrence is above (a block or
//   stream placed over another preempts it), the higher id on a tie.
// - An occurrence covers [its first entry's start, its last entry's end): its entries chain with
//   no gaps, so its span is its entries' union.
// - Preempted, a block keeps its own wall-clock timeline: when the layer above ends, it continues
//   where it would have been (entries that ended underneath are skipped; the one in progress
//   joins in progress, `offset` into its video).
// - Nothing covering an instant means nothing on air.
// - Whole seconds: entry bounds are floored to the second first (the grid every wire format
//   writes: XMLTV, yyyy-MM-ddTHH:mm:ss), so all outputs agree to the second; a segment left with
//   no time is dropped.
// Pure and allocation-light: O(occurrences log occurrences + entries) per span.
import type { ExpandedBlock, ScheduleVideo } from './expand.ts';

/** One stretch of one entry on air. */
export interface OnAirSegment<V extends ScheduleVideo = ScheduleVideo> {
  video: V;
  /** Epoch ms, whole seconds; end > start. */
  start: number;
  end: number;
  /** The scheduled entry this is part of (whole seconds): a segment is all of it unless preempted. */
  entryStart: number;
  entryEnd: number;
  /** Ms into the video at `start` (start - entryStart): non-zero when joined in progress. */
  offset: number;
  /** The occurrence's block id, or -videoTubeId for a live stream (as ExpandedBlock). */
  channelScheduleId: number;
  /** The occurrence's start (epoch ms, as ExpandedBlock.start): with the id, names the occurrence. */
  blockStart: number;
  playbackOrderNumber: number;
  isLive: boolean;
}

const SECOND = 1000;
const floorSecond = (ms: number) => Math.floor(ms / SECOND) * SECOND;

interface Layer<V extends ScheduleVideo> {
  block: ExpandedBlock<V>;
  /** Whole-second span of the occurrence. */
  from: number;
  to: number;
}

/** Higher layer first: live over regular, later start over earlier, higher id on a tie. */
function above(a: Layer<ScheduleVideo>, b: Layer<ScheduleVideo>): boolean {
  const { block: x } = a;
  const { block: y } = b;
  if (x.isLive !== y.isLive) return x.isLive;
  if (x.start !== y.start) return x.start > y.start;
  return x.channelScheduleId > y.channelScheduleId;
}

/** One elementary stretch of [from, to): the occurrences covering it and the one on air (top). */
interface Stretch<V extends ScheduleVideo> {
  top: Layer<V>;
  active: readonly Layer<V>[];
  from: number;
  to: number;
}

/**
 * The stretches of [from, to) between consecutive span bounds that some occurrence covers: a
 * sweep over the bounds, keeping the spans covering the current one (usually one to three, so
 * they are scanned, not heaped).
 */
function stretches<V extends ScheduleVideo>(layers: readonly Layer<V>[], from: number, to: number): Stretch<V>[] {
  const bounds = new Set<number>([from, to]);
  for (const l of layers) {
    if (l.from > from && l.from < to) bounds.add(l.from);
    if (l.to > from && l.to < to) bounds.add(l.to);
  }
  const sorted = [...bounds].sort((a, b) => a - b);
  const byFrom = [...layers].sort((a, b) => a.from - b.from);
  let next = 0;
  let active: Layer<V>[] = [];
  const out: Stretch<V>[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const at = sorted[i]!;
    while (next < byFrom.length && byFrom[next]!.from <= at) active.push(byFrom[next++]!);
    active = active.filter((l) => l.to > at);
    let top: Layer<V> | undefined;
    for (const l of active) if (!top || above(l, top)) top = l;
    if (top) out.push({ top, active, from: at, to: sorted[i + 1]! });
  }
  return out;
}

/** Which occurrence owns each stretch of [from, to): consecutive stretches of one owner merged. */
function owners<V extends ScheduleVideo>(layers: readonly Layer<V>[], from: number, to: number): Array<{ layer: Layer<V>; from: number; to: number }> {
  const out: Array<{ layer: Layer<V>; from: number; to: number }> = [];
  for (const s of stretches(layers, from, to)) {
    const last = out.at(-1);
    if (last && last.layer === s.top && last.to === s.from) last.to = s.to;
    else out.push({ layer: s.top, from: s.from, to: s.to });
  }
  return out;
}

/** The published occurrences with time in [from, to), as layers (whole-second spans). */
function layersOf<V extends ScheduleVideo>(blocks: readonly ExpandedBlock<V>[], from: number, to: number): Layer<V>[] {
  const layers: Layer<V>[] = [];
  for (const block of blocks) {
    if (!block.published || block.videos.length === 0) continue;
    const span = { block, from: floorSecond(block.videos[0]!.start), to: floorSecond(block.videos.at(-1)!.end) };
    if (span.to > span.from && span.to > from && span.from < to) layers.push(span);
  }
  return layers;
}

/** First entry index whose (floored) end is after `at`. */
function firstEndingAfter(videos: ExpandedBlock['videos'], at: number): number {
  let lo = 0;
  let hi = videos.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (floorSecond(videos[mid]!.end) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The segments on air in [from, to), by start, none overlapping. `blocks` are the occurrences
 * that can touch the span (any order, duplicates harmless only if identical objects are not
 * passed twice: pass uniqueSorted output); unpublished ones are ignored. Occurrences starting
 * before `from` matter (they may still play, or be preempted by one that does), so pass those
 * that start up to a day earlier. Segments are clipped to the span.
 */
export function onAirTimeline<V extends ScheduleVideo>(blocks: readonly ExpandedBlock<V>[], from: number, to: number): OnAirSegment<V>[] {
  const layers = layersOf(blocks, from, to);
  const segments: OnAirSegment<V>[] = [];
  for (const own of owners(layers, from, to)) {
    const { block } = own.layer;
    for (let i = firstEndingAfter(block.videos, own.from); i < block.videos.length; i++) {
      const entry = block.videos[i]!;
      const entryStart = floorSecond(entry.start);
      const entryEnd = floorSecond(entry.end);
      if (entryStart >= own.to) break;
      const start = Math.max(entryStart, own.from);
      const end = Math.min(entryEnd, own.to);
      if (end <= start) continue;
      segments.push({
        video: entry.video,
        start,
        end,
        entryStart,
        entryEnd,
        offset: start - entryStart,
        channelScheduleId: block.channelScheduleId,
        blockStart: block.start,
        playbackOrderNumber: entry.playbackOrderNumber,
        isLive: block.isLive,
      });
    }
  }
  return segments;
}

/** The segment on air at `at` and the one after it (within `segments`, as onAirTimeline gives them). */
export function nowAndNext<V extends ScheduleVideo>(segments: readonly OnAirSegment<V>[], at: number): { now: OnAirSegment<V> | null; next: OnAirSegment<V> | null } {
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.end <= at) lo = mid + 1;
    else hi = mid;
  }
  const candidate = segments[lo];
  if (candidate && candidate.start <= at) return { now: candidate, next: segments[lo + 1] ?? null };
  return { now: null, next: candidate ?? null };
}

/** A stretch of a block's entry that does not air: a higher layer (`by`) covers it. */
export interface Preemption<V extends ScheduleVideo = ScheduleVideo> {
  /** The block occurrence (never a live stream) and the entry that loses the time. */
  block: ExpandedBlock<V>;
  entry: ExpandedBlock<V>['videos'][number];
  /** Epoch ms, whole seconds, within the entry and [from, to). */
  start: number;
  end: number;
  /** The occurrence on air instead (a live stream or a later block). */
  by: ExpandedBlock<V>;
}

/**
 * What the blocks lose in [from, to): each published block entry's stretches covered by a higher
 * layer, with that layer, by start; consecutive stretches of one entry lost to one layer merged.
 * Live streams preempted by later live streams are not listed (what a creator schedules and may
 * lose is a block; a stream over a stream is the creator's own cut).
 */
export function preemptions<V extends ScheduleVideo>(blocks: readonly ExpandedBlock<V>[], from: number, to: number): Preemption<V>[] {
  const out: Preemption<V>[] = [];
  const open = new Map<object, Preemption<V>>();
  for (const s of stretches(layersOf(blocks, from, to), from, to)) {
    for (const layer of s.active) {
      if (layer === s.top || layer.block.isLive) continue;
      const videos = layer.block.videos;
      for (let i = firstEndingAfter(videos, s.from); i < videos.length; i++) {
        const entry = videos[i]!;
        const start = Math.max(floorSecond(entry.start), s.from);
        const end = Math.min(floorSecond(entry.end), s.to);
        if (floorSecond(entry.start) >= s.to) break;
        if (end <= start) continue;
        const last = open.get(entry);
        if (last && last.by === s.top.block && last.end === start) last.end = end;
        else {
          const lost = { block: layer.block, entry, start, end, by: s.top.block };
          out.push(lost);
          open.set(entry, lost);
        }
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || a.block.start - b.block.start);
}
