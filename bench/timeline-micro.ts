// npx tsx bench/timeline-micro.ts: CPU per request-zone day of one network channel (a 144-entry
// loopDaily day), today's path (expandWindow + luxon labels per entry) against the compiled one
// (slice of cached compiled days + offset-table labels). In-process, no I/O: the part of a guide
// or availability request that the compiled timeline removes.
import { expandWindow, type ScheduleBlock, type ScheduleVideo } from '../src/schedules/expand.ts';
import { formatLocalSpaced, localDayWindow, playTimeLabel } from '../src/schedules/labels.ts';
import { compileChannelDay, sliceWindow, windowChannelDates, type CompiledDay } from '../src/schedules/channel-day.ts';
import { cachedDayWindow, fastLocalSpaced, fastPlayTimeLabel } from '../src/schedules/zone-offsets.ts';
import { DAY_MS, segmentsStartingIn } from '../src/schedules/on-air-listing.ts';

const video = (id: number): ScheduleVideo => ({
  videoTubeId: id,
  title: `v${id}`,
  thumbnailUrl: '',
  durationSeconds: 600,
  providerVideoId: `p${id}`,
  providerName: 'Custom',
  streamUrl: null,
});
const block: ScheduleBlock = { id: 1, startLocal: '2026-11-01T00:20:00', published: true, loopDaily: true, videos: Array.from({ length: 144 }, (_, i) => video(1 + (i % 30))) };
const channelZone = 'Europe/Berlin';
const requestZones = ['America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Adelaide'];
const days = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'];
const cache = new Map<string, CompiledDay>();

function oldPath(zone: string, date: string): number {
  const { from, to } = localDayWindow(date, zone);
  let n = 0;
  for (const b of expandWindow({ zone: channelZone, from, to, blocks: [block], liveStreams: [], includeUnpublished: false })) {
    for (const v of b.videos) n += formatLocalSpaced(v.start, zone).length + formatLocalSpaced(v.end, zone).length + playTimeLabel(v.start, v.end, zone).length;
  }
  return n;
}

function newPath(zone: string, date: string): number {
  const { from, to } = cachedDayWindow(date, zone);
  const compiled = windowChannelDates(channelZone, from, to).map((d) => {
    let day = cache.get(d);
    if (!day) cache.set(d, (day = compileChannelDay({ zone: channelZone, date: d, blocks: [block], liveStreams: [] })));
    return day;
  });
  let n = 0;
  for (const b of sliceWindow(compiled, from, to, false)) {
    for (const v of b.videos) n += fastLocalSpaced(v.start, zone).length + fastLocalSpaced(v.end, zone).length + fastPlayTimeLabel(v.start, v.end, zone).length;
  }
  return n;
}

function time(label: string, run: (zone: string, date: string) => number, rounds: number): number {
  let check = 0;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) check += run(requestZones[i % requestZones.length]!, days[i % days.length]!);
  const ms = (performance.now() - started) / rounds;
  process.stdout.write(`${label}: ${ms.toFixed(3)} ms per channel-day (checksum ${check})\n`);
  return ms;
}

for (let i = 0; i < 50; i++) {
  oldPath('UTC', days[0]!);
  newPath('UTC', days[0]!);
} // JIT
const before = time('expandWindow + luxon labels', oldPath, 400);
const after = time('compiled slice + offset-table labels', newPath, 4000);
process.stdout.write(`${(before / after).toFixed(0)}x less CPU; a 200-channel list or 10-channel guide multiplies the per-channel figure\n`);

// Issue 28: the listing cut to the on-air timeline (segments starting in the window, from the
// compiled days of the window and the next day), with a live stream over the block each day.
const live = { video: video(99), start: new Date('2026-11-21T12:30:00Z'), end: new Date('2026-11-21T13:00:00Z') };
const liveCache = new Map<string, CompiledDay>();
function onAirPath(zone: string, date: string): number {
  const { from, to } = cachedDayWindow(date, zone);
  const blocks = windowChannelDates(channelZone, from, to + DAY_MS).flatMap((d) => {
    let day = liveCache.get(d);
    if (!day) liveCache.set(d, (day = compileChannelDay({ zone: channelZone, date: d, blocks: [block], liveStreams: [live] })));
    return day.blocks;
  });
  let n = 0;
  for (const v of segmentsStartingIn(blocks, from, to))
    n += fastLocalSpaced(v.start, zone).length + fastLocalSpaced(v.end, zone).length + fastPlayTimeLabel(v.start, v.end, zone).length;
  return n;
}
for (let i = 0; i < 50; i++) onAirPath('UTC', days[0]!);
const onAir = time('on-air segments (issue 28) + offset-table labels', onAirPath, 4000);
process.stdout.write(`on-air listing: ${(onAir / after).toFixed(1)}x the compiled slice's CPU\n`);
