// The CSV shapes of the programme analytics answers (`Accept: text/csv`); the JSON shapes are the
// response schemas of schemas.ts.
import type { ChannelLine, CurveMinute, ProgrammeFigures, ProgrammeLine } from '../sessions/programme-analytics.ts';
import { toCsv, type CsvColumn } from '../sessions/csv.ts';

const FIGURE_COLUMNS: CsvColumn<ProgrammeFigures>[] = [
  { header: 'watchSeconds', value: (r) => r.watchSeconds },
  { header: 'sessions', value: (r) => r.sessions },
  { header: 'uniqueViewers', value: (r) => r.uniqueViewers },
  { header: 'averageSessionMinutes', value: (r) => r.averageSessionMinutes },
  { header: 'peakConcurrentViewers', value: (r) => r.peakConcurrentViewers },
];

const PROGRAMME_KEYS = ['videoId', 'title', 'channelId', 'channelName', 'source', 'day'] as const;

/** One row per item, the JSON's fields in order: a channel's dead-air row has `videoId` and `title` empty and `deadAir` true. */
export function programmesCsv(items: readonly ProgrammeLine[]): string {
  const keys = PROGRAMME_KEYS.map((key) => ({ header: key, value: (r: ProgrammeLine) => r[key] }));
  return toCsv([...keys, ...FIGURE_COLUMNS, { header: 'deadAir', value: (r) => r.deadAir }], items);
}

/** Top lists in one table: a `list` column says which (programme or channel). */
export function topCsv(programmes: readonly ProgrammeLine[], channels: readonly ChannelLine[]): string {
  type Row = ProgrammeFigures & { list: string; rank: number; id: number | null; name: string | null };
  const rows: Row[] = [
    ...programmes.map((p, i) => ({ ...p, list: 'programme', rank: i + 1, id: p.videoId, name: p.title })),
    ...channels.map((c, i) => ({ ...c, list: 'channel', rank: i + 1, id: c.channelId, name: c.channelName })),
  ];
  const keys: CsvColumn<Row>[] = [
    { header: 'list', value: (r) => r.list },
    { header: 'rank', value: (r) => r.rank },
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
  ];
  return toCsv([...keys, ...FIGURE_COLUMNS], rows);
}

export function curveCsv(minutes: readonly CurveMinute[]): string {
  const columns: CsvColumn<CurveMinute>[] = [
    { header: 'start', value: (m) => m.start },
    { header: 'viewers', value: (m) => m.viewers },
    { header: 'videoId', value: (m) => m.videoId },
    { header: 'title', value: (m) => m.title },
    { header: 'isLive', value: (m) => m.isLive },
    { header: 'deadAir', value: (m) => m.deadAir },
  ];
  return toCsv(columns, minutes);
}
