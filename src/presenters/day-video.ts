// A video of one channel-day as the schedule answers show it: when it plays (in the day's zone)
// and where it comes from. REST's schedule and the Studio's day share these fields and name the
// video's id each in its own words (`videoTubeId`, `videoId`), which they put first.
import { fastLocalDateTime as formatLocalDateTime, fastPlayTimeLabel as playTimeLabel } from '../schedules/zone-offsets.ts';

export interface DayVideo {
  playbackOrderNumber: number;
  start: number;
  end: number;
  isLive: boolean;
  video: { title: string; thumbnailUrl: string; providerVideoId: string; providerName: string };
}

export function dayVideoFields(v: DayVideo, zone: string) {
  return {
    playbackOrderNumber: v.playbackOrderNumber,
    title: v.video.title,
    thumbnailUrl: v.video.thumbnailUrl,
    playTimeLabel: playTimeLabel(v.start, v.end, zone),
    playbackStartTime: formatLocalDateTime(v.start, zone),
    playbackEndTime: formatLocalDateTime(v.end, zone),
    providerVideoId: v.video.providerVideoId,
    providerName: v.video.providerName,
    isLive: v.isLive,
  };
}
