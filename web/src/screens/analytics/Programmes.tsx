// Programme analytics on the Analytics screen: which programmes held viewers over the chosen day
// (REST /analytics/programmes), and one channel's day minute by minute with the programme on air
// (REST /analytics/channels/{id}/curve). The curve's figures are also said in a table of runs.
import { Alert, Badge, Group, Select, Text } from '@mantine/core';
import { DateTime } from 'luxon';
import { useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { useCurve, useProgrammes } from '../../api/analytics.ts';
import { useChannelList } from '../../api/channels.ts';
import type { Programmes } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { Panel } from '../../ui/Panel.tsx';
import { Chart } from './Chart.tsx';
import { chartDate, programmeRuns, watchTime, type ProgrammeRun } from './series.ts';

type ProgrammeLine = Programmes['items'][number];

/**
 * A channel's dead air (viewers watching while nothing was scheduled) reads as such, set apart
 * from the programmes and naming no video; the others by their title.
 */
function programmeName(p: ProgrammeLine) {
  if (!p.deadAir) return p.title ?? `Video ${p.videoId}`;
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge color="orange" variant="light" size="sm">
        Dead air
      </Badge>
      <Text span fs="italic" c="dimmed" size="sm">
        Nothing scheduled{p.channelName ? ` on ${p.channelName}` : ''}
      </Text>
    </Group>
  );
}

const PROGRAMME_COLUMNS: Column<ProgrammeLine>[] = [
  { header: 'Programme', cell: programmeName },
  { header: 'Watch time', cell: (p) => watchTime(p.watchSeconds) },
  { header: 'Sessions', cell: (p) => p.sessions },
  { header: 'Viewers', cell: (p) => p.uniqueViewers },
  { header: 'Average', cell: (p) => `${p.averageSessionMinutes} min` },
  { header: 'Peak', cell: (p) => p.peakConcurrentViewers },
];

const SORTS = [
  { value: 'watchSeconds', label: 'Watch time' },
  { value: 'viewers', label: 'Viewers' },
  { value: 'peakViewers', label: 'Peak viewers' },
  { value: 'sessions', label: 'Sessions' },
];

export function ProgrammesTable({ range }: { range: { from: string; to: string } }) {
  const [sort, setSort] = useState('watchSeconds');
  const programmes = useProgrammes(range, sort);
  return (
    <Panel title="Programmes" actions={<Select label="Order by" data={SORTS} value={sort} onChange={(v) => v && setSort(v)} allowDeselect={false} w={160} />}>
      <Text size="sm" c="dimmed">
        Programmes that started this day, with the time viewers spent on each, and each channel's dead air: time viewers spent on it while nothing was scheduled.
      </Text>
      <Loaded query={programmes} label="Loading programmes">
        {({ items }) =>
          items.length === 0 ? (
            <Text>No programme was watched in this period.</Text>
          ) : (
            <DataTable
              label="Programmes"
              columns={PROGRAMME_COLUMNS}
              rows={items}
              rowKey={(p) => (p.deadAir ? `dead-air-${p.channelId}` : `video-${p.videoId}`)}
              minWidth={640}
              striped
            />
          )
        }
      </Loaded>
    </Panel>
  );
}

export function ChannelDay({ date }: { date: string }) {
  const channelList = useChannelList();
  const channels = useMemo(() => (channelList.data ?? []).map((c) => ({ value: String(c.id), label: c.name })), [channelList.data]);
  const [chosen, setChannelId] = useState<string | null>(null);
  // The first channel until one is chosen.
  const channelId = chosen ?? channels[0]?.value ?? null;
  const curve = useCurve(channelId === null ? undefined : Number(channelId), date);
  const minutes = curve.data?.minutes;
  const zone = curve.data?.timezone ?? 'UTC';
  const runs = useMemo(() => (minutes ? programmeRuns(minutes).filter((r) => r.videoId !== null || r.peakViewers > 0) : []), [minutes]);
  const data = useMemo<uPlot.AlignedData | null>(() => (minutes ? [minutes.map((m) => Date.parse(m.start) / 1000), minutes.map((m) => m.viewers)] : null), [minutes]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      tzDate: (ts) => chartDate(ts, zone),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      series: [
        {},
        {
          label: 'Viewers',
          stroke: '#7048e8',
          fill: 'rgba(112,72,232,0.15)',
          width: 2,
          value: (_u, v, _s, i) => `${v ?? 0} (${minutes?.[i ?? 0]?.title ?? 'dead air: nothing on air'})`,
        },
      ],
      axes: [{}, { label: 'viewers', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
    }),
    [minutes, zone],
  );
  const time = (instant: string) => DateTime.fromISO(instant, { zone }).toFormat('HH:mm');
  const columns: Column<ProgrammeRun>[] = [
    { header: 'From', cell: (r) => time(r.start) },
    { header: 'To', cell: (r) => (r === runs.at(-1) && time(r.end) === '00:00' ? '24:00' : time(r.end)) },
    { header: 'On air', cell: (r) => (r.videoId === null ? 'Dead air (nothing on air)' : `${r.title ?? `Video ${r.videoId}`}${r.isLive ? ' (live)' : ''}`) },
    { header: 'Most viewers in a minute', cell: (r) => r.peakViewers },
  ];
  return (
    <Panel
      title="Channel day, minute by minute"
      actions={<Select label="Channel" data={channels} value={channelId} onChange={setChannelId} allowDeselect={false} searchable w={240} />}
    >
      {channelList.error ? <Alert color="red">{formMessage(channelList.error)}</Alert> : null}
      {channelList.data && !channelId ? (
        <Text>No channel yet.</Text>
      ) : channelId ? (
        <Loaded query={curve} label="Loading the channel day">
          {(found) => (
            <>
              <Text size="sm" c="dimmed">
                {date} in the channel's time zone, {found.timezone}.
              </Text>
              {data ? <Chart options={options} data={data} label={`Viewers of the channel on ${date}, minute by minute`} /> : null}
              <DataTable label="Programmes on air" columns={columns} rows={runs} rowKey={(r) => r.start} />
            </>
          )}
        </Loaded>
      ) : null}
    </Panel>
  );
}
