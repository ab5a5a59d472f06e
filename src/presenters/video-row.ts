// A guide or VOD row as the app templates read it (spec "Custom API" video rows): the Custom
// API's channels/video and channels/vod pages, and the Studio's guide preview, which shows an
// owner the rows a TV app receives. Times are rendered in the row's zone; durations truncate to
// whole seconds. Key order is the wire order. Shared by both groups, so it imports neither.
import { z } from 'zod';
import type { GuideRow } from '../channels/guide-rows.ts';
import { videoRowSchema } from './video-row-schema.ts';
import { timeDurationLabel } from '../schedules/labels.ts';
import { fastLocalSpaced as formatLocalSpaced, fastPlayTimeLabel as playTimeLabel, fastRowLabels } from '../schedules/zone-offsets.ts';

export { videoRowSchema };

/** Under vitest every page written by videoPageJson is also written by JSON.stringify from presentVideoRow and compared. */
const CHECK_AGAINST_JSON_STRINGIFY = process.env['VITEST'] !== undefined;

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

/** A video's catalog text as JSON, escaped once per video (a guide lists a video many times, in every zone). */
interface VideoJson {
  /** The text it was escaped from: a video object loaded later is checked against it (an edit changes it). */
  source: GuideRow['video'];
  /** `"title":...,"providerVideoId":...,` */
  titles: string;
  /** `"providerName":...,` */
  provider: string;
  /** `"thumbnail":...,` */
  thumbnail: string;
  /** The video's own stream URL as JSON (a row that withholds it writes null). */
  streamUrl: string;
}

/**
 * By video id, bounded (a network's library; past the bound, start over): not by object, since
 * every load of a channel-day makes its own video objects, and a table of those held a copy of
 * the text per entry kept (a full network run ended 450 MB higher).
 */
const videoJson = new Map<number, VideoJson>();
const MAX_VIDEO_JSON = 20_000;

const sameText = (a: GuideRow['video'], b: GuideRow['video']) =>
  a === b ||
  (a.title === b.title && a.providerVideoId === b.providerVideoId && a.providerName === b.providerName && a.thumbnailUrl === b.thumbnailUrl && a.streamUrl === b.streamUrl);

function jsonOf(video: GuideRow['video']): VideoJson {
  let json = videoJson.get(video.videoTubeId);
  if (json === undefined || !sameText(json.source, video)) {
    json = {
      source: video,
      titles: `"title":${JSON.stringify(video.title)},"providerVideoId":${JSON.stringify(video.providerVideoId)},`,
      provider: `"providerName":${JSON.stringify(video.providerName)},`,
      thumbnail: `"thumbnail":${JSON.stringify(video.thumbnailUrl)},`,
      streamUrl: JSON.stringify(video.streamUrl),
    };
    if (videoJson.size >= MAX_VIDEO_JSON) videoJson.clear();
    videoJson.set(video.videoTubeId, json);
  }
  return json;
}

/**
 * presentVideoRow(r) as the response serializer writes it, byte for byte, without the object:
 * the catalog's text comes escaped from jsonOf, the service's own labels need no escaping
 * (plainText). A rotating guide (a new zone, day and channels each time) writes 100 rows a
 * request; building and serializing row objects was a third of its CPU and most of its garbage.
 */
function videoRowJson(r: GuideRow): string {
  const json = jsonOf(r.video);
  const streamUrl = r.streamUrl === null ? 'null' : r.streamUrl === r.video.streamUrl ? json.streamUrl : JSON.stringify(r.streamUrl);
  const [startDate, endDate, playTime] = fastRowLabels(r.start, r.end, r.zone);
  return (
    `{"customId":"${r.customId}","id":"${r.customId}","videoTubeId":${r.video.videoTubeId},"userId":${r.userId},${json.titles}` +
    `"channelId":${r.channelId},"duration":${Math.max(0, Math.trunc(r.durationSeconds))},"timeDuration":"${timeDurationLabel(r.durationSeconds)}",` +
    `"startDate":"${startDate}","endDate":"${endDate}",${json.provider}` +
    `"durationInDate":"${playTime}",${json.thumbnail}"streamUrl":${streamUrl},"isVod":${r.isVod}}`
  );
}

/** A page of rows (custom/pagination.ts) as the Custom API writes it: `{"data":[...],"links":...,"meta":...}`. */
export function videoPageJson<P extends { data: readonly GuideRow[]; links: unknown; meta: unknown }>(page: P): string {
  const rows = new Array<string>(page.data.length);
  for (let i = 0; i < rows.length; i++) rows[i] = videoRowJson(page.data[i]!);
  const written = `{"data":[${rows.join(',')}],${JSON.stringify({ links: page.links, meta: page.meta }).slice(1)}`;
  if (CHECK_AGAINST_JSON_STRINGIFY) {
    const expected = JSON.stringify({ ...page, data: page.data.map(presentVideoRow) });
    if (written !== expected) throw new Error(`videoPageJson changes the answer:\n  written:        ${written}\n  JSON.stringify: ${expected}`);
  }
  return written;
}
