// npx tsx bench/timeline-micro.ts: CPU per request-zone day of one network channel (a 144-entry
// loopDaily day), today's path (expandWindow + luxon labels per entry) against the compiled one
// (slice of cached compiled days + offset-table labels). In-process, no I/O: the part of a guide
// or availability request that the compiled timeline removes.
import { expandWindow, type ScheduleBlock, type ScheduleVideo } from '../src/schedules/expand.ts';
import { formatLocalSpaced, localDayWindow, playTimeLabel } from '../src/schedules/labels.ts';
import { compileChannelDay, sliceWindow, windowChannelDates, type CompiledDay } from '../src/schedules/channel-day.ts';
import { cachedDayWindow, fastLocalSpaced, fastPlayTimeLabel } from '../src/schedules/zone-offsets.ts';

const video = (id: number): ScheduleVideo => ({ videoTubeId: id, title: `v${id}`, thumbnailUrl: '', durationSeconds: 600, providerVideoId: `p${id}`, providerName: 'Custom', streamUrl: null });
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

for (let i = 0; i < 50; i++) { oldPath('UTC', days[0]!); newPath('UTC', days[0]!); } // JIT
const before = time('expandWindow + luxon labels', oldPath, 400);
const after = time('compiled slice + offset-table labels', newPath, 4000);
process.stdout.write(`${(before / after).toFixed(0)}x less CPU; a 200-channel list or 10-channel guide multiplies the per-channel figure\n`);
