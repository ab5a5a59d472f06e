import { describe, expect, it } from 'vitest';
import type { OnAir } from '../../api/types.ts';
import { preemptionWarnings } from './preemptions.ts';

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const at = (hm: string) => `2026-12-10T${hm}:00Z`;
const segment = (title: string, start: string, end: string, ids: { blockId?: number; liveStreamId?: number }, offsetSeconds = 0) => ({
  videoId: 1,
  title,
  thumbnailUrl: '',
  providerName: 'YouTube',
  providerVideoId: 'x',
  streamUrl: null,
  blockId: ids.blockId ?? null,
  liveStreamId: ids.liveStreamId ?? null,
  isLive: ids.liveStreamId !== undefined,
  start: at(start),
  end: at(end),
  startTime: '',
  endTime: '',
  offsetSeconds,
  durationSeconds: 600,
});
const lost = (title: string, start: string, end: string, by: { byLiveStreamId?: number; byBlockId?: number }) => ({
  blockId: 7,
  videoId: 1,
  title,
  start: at(start),
  end: at(end),
  startTime: '',
  endTime: '',
  byLiveStreamId: by.byLiveStreamId ?? null,
  byBlockId: by.byBlockId ?? null,
});

describe('preemption warnings', () => {
  it('one warning per block and layer, back-to-back pieces as one stretch, saying how guides see it', () => {
    // Block 7 13:00-14:20, live stream 3 ("Town hall") 13:30-14:00: the block resumes at 14:00, joined in progress.
    const onAir = {
      segments: [
        segment('Morning', '13:00', '13:30', { blockId: 7 }),
        segment('Town hall', '13:30', '14:00', { liveStreamId: 3 }),
        segment('Weather', '14:00', '14:05', { blockId: 7 }, 300),
      ],
      preempted: [lost('Morning', '13:30', '13:40', { byLiveStreamId: 3 }), lost('Sport', '13:40', '14:00', { byLiveStreamId: 3 })],
    } as Pick<OnAir, 'segments' | 'preempted'>;
    const warnings = preemptionWarnings(onAir, clock);
    expect(warnings.map((w) => w.text)).toEqual([
      "The 'Morning' block (13:00) loses 13:30-14:00 to live stream 'Town hall'; guides, the XMLTV export and analytics show the stream, then the block from 14:00 ('Weather' joined in progress).",
    ]);
  });

  it('says when the block does not come back, and names a block that preempts another by its first programme', () => {
    const onAir = {
      segments: [segment('Late show', '13:30', '15:00', { blockId: 8 })],
      preempted: [lost('Morning', '13:30', '14:00', { byBlockId: 8 })],
    } as Pick<OnAir, 'segments' | 'preempted'>;
    expect(preemptionWarnings(onAir, clock)[0]!.text).toBe(
      "The 'Morning' block (13:30) loses 13:30-14:00 to the 'Late show' block (13:30); guides, the XMLTV export and analytics show the other block, and the block does not come back (it ends under it).",
    );
    expect(preemptionWarnings({ segments: [], preempted: [] }, clock)).toEqual([]);
  });
});
