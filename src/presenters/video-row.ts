// A guide or VOD row as the app templates read it (spec "Custom API" video rows): the Custom
// API's channels/video and channels/vod pages, and the Studio's guide preview, which shows an
// owner the rows a TV app receives. Times are rendered in the row's zone; durations truncate to
// whole seconds. Key order is the wire order. Shared by both groups, so it imports neither.
import { z } from 'zod';
import type { GuideRow } from '../channels/guide-rows.ts';
import { videoRowSchema } from './video-row-schema.ts';
import { timeDurationLabel } from '../schedules/labels.ts';
import { fastLocalSpaced as formatLocalSpaced, fastPlayTimeLabel as playTimeLabel } from '../schedules/zone-offsets.ts';

export { videoRowSchema };

export function presentVideoRow(r: GuideRow): z.input<typeof videoRowSchema> {
  return {
    customId: r.customId,
    // Shipped Android TV clients read `id` as a non-null string (chetanvaghela457/Android-TV, model/VideoItem.kt).
    id: r.customId,
    videoTubeId: r.video.videoTubeId,
    userId: r.userId,
    title: r.video.title,
    providerVideoId: r.video.providerVideoId,
    channelId: r.channelId,
    duration: Math.max(0, Math.trunc(r.durationSeconds)),
    timeDuration: timeDurationLabel(r.durationSeconds),
    startDate: formatLocalSpaced(r.start, r.zone),
    endDate: formatLocalSpaced(r.end, r.zone),
    providerName: r.video.providerName,
    durationInDate: playTimeLabel(r.start, r.end, r.zone),
    thumbnail: r.video.thumbnailUrl,
    streamUrl: r.streamUrl,
    isVod: r.isVod,
  };
}
