// The on-air timeline's wire objects (the Studio's contract, src/studio/contract.ts: onAirSegment,
// preempted), shared by the Studio's on-air and now routes and REST's now on air.
import type { Preemption } from '../schedules/on-air-timeline.ts';
import type { TimelineSegment, TimelineVideo } from '../schedules/timelines.ts';
import { fastLocalDateTime } from '../schedules/zone-offsets.ts';

/** yyyy-MM-ddTHH:mm:ssZ (whole seconds: the timeline's grid). */
export const utcInstant = (ms: number) => new Date(ms).toISOString().slice(0, 19) + 'Z';

const instants = (start: number, end: number, zone: string) => ({
  start: utcInstant(start),
  end: utcInstant(end),
  startTime: fastLocalDateTime(start, zone),
  endTime: fastLocalDateTime(end, zone),
});

export function presentSegment(s: TimelineSegment, zone: string) {
  const v = s.video;
  return {
    videoId: v.videoTubeId,
    title: v.title,
    thumbnailUrl: v.thumbnailUrl,
    providerName: v.providerName,
    providerVideoId: v.providerVideoId,
    streamUrl: s.isLive ? v.liveUri || v.streamUrl : v.streamUrl,
    blockId: s.isLive ? null : s.channelScheduleId,
    liveStreamId: s.isLive ? (v.liveStreamId ?? null) : null,
    isLive: s.isLive,
    ...instants(s.start, s.end, zone),
    offsetSeconds: Math.floor(s.offset / 1000),
    durationSeconds: s.isLive ? (s.entryEnd - s.entryStart) / 1000 : v.durationSeconds,
  };
}

export function presentPreemption(p: Preemption<TimelineVideo>, zone: string) {
  return {
    blockId: p.block.channelScheduleId,
    videoId: p.entry.video.videoTubeId,
    title: p.entry.video.title,
    ...instants(p.start, p.end, zone),
    byLiveStreamId: p.by.isLive ? (p.by.videos[0]!.video.liveStreamId ?? null) : null,
    byBlockId: p.by.isLive ? null : p.by.channelScheduleId,
  };
}
