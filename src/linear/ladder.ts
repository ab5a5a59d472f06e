// A channel's output ladder and how one ingested video maps onto it (docs/linear.md). Pure.
//
// A video airs as itself only when every output rung maps to one of its variants: the same
// container, the same codec family (avc1/avc3 are one family, hvc1/hev1 another; mp4a, ac-3 and
// ec-3 each their own), and every segment, rounded, no longer than the channel's target duration.
// Each rung then takes the video's variant of the nearest bandwidth. One rung that does not map
// slates the whole video: the rungs of one stream must keep the same segments and timestamps.
import type { IngestedVideo, LadderVariant, LinearSettings, SlateReason } from './types.ts';

/** The channel's ladder by default: the rungs of its first ready video, lowest bandwidth first. */
export function defaultLadder(video: IngestedVideo): LadderVariant[] {
  return video.variants.map(rungOf).sort((a, b) => a.bandwidth - b.bandwidth);
}

/** A rung's own fields, in one key order (a variant's URIs and any stored key order left behind). */
export function rungOf(v: LadderVariant): LadderVariant {
  const out: LadderVariant = { bandwidth: v.bandwidth };
  if (v.averageBandwidth !== undefined) out.averageBandwidth = v.averageBandwidth;
  if (v.resolution) out.resolution = { ...v.resolution };
  if (v.codecs !== undefined) out.codecs = v.codecs;
  if (v.frameRate !== undefined) out.frameRate = v.frameRate;
  return out;
}

const FAMILIES: Record<string, string> = {
  avc1: 'avc',
  avc3: 'avc',
  hvc1: 'hevc',
  hev1: 'hevc',
  dvh1: 'dolby-vision',
  dvhe: 'dolby-vision',
  av01: 'av1',
  vp09: 'vp9',
  mp4a: 'aac',
  'ac-3': 'ac-3',
  'ec-3': 'ec-3',
  opus: 'opus',
  flac: 'flac',
};

/** The codec families of an RFC 6381 list ("avc1.64001f,mp4a.40.2" -> "aac,avc"); '' when none given. */
export function codecFamilies(codecs: string | undefined): string {
  if (!codecs) return '';
  const families = new Set<string>();
  for (const token of codecs.split(',')) {
    const name = token.trim().split('.')[0]!.toLowerCase();
    if (name) families.add(FAMILIES[name] ?? name);
  }
  return [...families].sort().join(',');
}

/** Per output rung, the index of the video's variant it plays, or why the video airs the slate. */
export type LadderMapping = { variants: number[] } | { reason: SlateReason };

/** How `video` maps onto the channel's ladder (see the file's comment). */
export function mapToLadder(video: IngestedVideo, settings: Pick<LinearSettings, 'container' | 'targetDurationSeconds' | 'ladder'>): LadderMapping {
  if (video.container !== settings.container || video.variants.length === 0) return { reason: 'ladder-mismatch' };
  if (video.durationsMs.some((ms) => Math.round(ms / 1000) > settings.targetDurationSeconds)) return { reason: 'segment-too-long' };
  const variants: number[] = [];
  for (const rung of settings.ladder) {
    const index = nearestVariant(video, rung);
    if (index < 0) return { reason: 'ladder-mismatch' };
    variants.push(index);
  }
  return { variants };
}

/** The index of the variant of the rung's codec family nearest its bandwidth (the lower on a tie); -1 if none. */
function nearestVariant(video: IngestedVideo, rung: LadderVariant): number {
  const family = codecFamilies(rung.codecs);
  let best = -1;
  for (let i = 0; i < video.variants.length; i++) {
    const v = video.variants[i]!;
    // A rung or variant that names no codecs cannot be told apart: it matches (the playlist left it to the player).
    const own = codecFamilies(v.codecs);
    if (family && own && own !== family) continue;
    if (best < 0 || closer(v.bandwidth, video.variants[best]!.bandwidth, rung.bandwidth)) best = i;
  }
  return best;
}

const closer = (a: number, b: number, target: number) => Math.abs(a - target) < Math.abs(b - target) || (Math.abs(a - target) === Math.abs(b - target) && a < b);

/** The slate rung (its "WxH" folder under assets/slate) nearest a rung's resolution (by height; 720p when unknown). */
export const SLATE_RUNGS = ['426x240', '640x360', '854x480', '1280x720', '1920x1080'] as const;
export function slateRungFor(rung: LadderVariant): (typeof SLATE_RUNGS)[number] {
  const height = rung.resolution?.height ?? 720;
  let best: (typeof SLATE_RUNGS)[number] = SLATE_RUNGS[0];
  for (const s of SLATE_RUNGS) if (Math.abs(Number(s.split('x')[1]) - height) < Math.abs(Number(best.split('x')[1]) - height)) best = s;
  return best;
}
