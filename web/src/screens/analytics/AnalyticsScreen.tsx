// Analytics: viewers now, concurrency over a chosen day (in a chosen zone), watch time per channel
// and per platform, the programmes that held viewers and a channel's day minute by minute
// (Programmes.tsx), and the sessions table with a CSV download; from REST's analytics routes.
// The Trends view (#/analytics/trends, Trends.tsx) reads days over a range in the same zone.
// Each chart's figures are also written out (summary sentences and tables), for every reader.
import { Alert, Button, Group, Pagination, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Title, Autocomplete } from '@mantine/core';
import { DateTime } from 'luxon';
import { useEffect, useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { sessionsCsv, useConcurrency, useSessions, useSummary, useViewersNow } from '../../api/analytics.ts';
import type { Sessions, Summary } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { Panel } from '../../ui/Panel.tsx';
import { saveFile } from '../../ui/save-file.ts';
import { useSubmit } from '../../ui/submit.ts';
import { barOptions, Chart } from './Chart.tsx';
import { ChannelDay, ProgrammesTable } from './Programmes.tsx';
import { chartDate, dayRange, peakSentence, platformName, wallTime, watchTime, type Bucket } from './series.ts';
import { Trends } from './Trends.tsx';
import { navigate } from '../../router.ts';

type Range = { from: string; to: string };
type Session = Sessions['items'][number];
type Line = Summary['groups'][number];

const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
const INTERVALS = ['1m', '5m', '15m', '30m', '1h'];

export function AnalyticsScreen({ rest }: { rest: string[] }) {
  const view = rest[0] === 'trends' ? 'trends' : 'day';
  const [zone, setZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [date, setDate] = useState(() => DateTime.now().setZone(zone).toISODate()!);
  const [interval, setInterval] = useState('5m');
  const range = useMemo(() => dayRange(date, zone), [date, zone]);

  return (
    <Stack>
      <Title order={2}>Analytics</Title>
      <ViewersNow />
      <SegmentedControl
        aria-label="Analytics view"
        w="fit-content"
        value={view}
        onChange={(v) => (v === 'trends' ? navigate('analytics', 'trends') : navigate('analytics'))}
        data={[
          { value: 'day', label: 'One day' },
          { value: 'trends', label: 'Trends' },
        ]}
      />
      <Group align="flex-end">
        {view === 'day' ? <TextInput label="Day" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} /> : null}
        <Autocomplete label="Time zone" data={ZONES} limit={20} value={zone} onChange={setZone} />
        {view === 'day' ? <Select label="Interval" data={INTERVALS} value={interval} onChange={(v) => v && setInterval(v)} allowDeselect={false} w={110} /> : null}
      </Group>
      {view === 'trends' ? (
        ZONES.includes(zone) || zone === 'UTC' ? (
          <Trends zone={zone} />
        ) : (
          <Alert color="red">Choose a time zone such as Europe/Berlin.</Alert>
        )
      ) : !range ? (
        <Alert color="red">Choose a real day and a time zone such as Europe/Berlin.</Alert>
      ) : (
        <>
          <Concurrency range={range} zone={zone} interval={interval} />
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <WatchTime range={range} groupBy="channel" title="Watch time per channel" />
            <WatchTime range={range} groupBy="source" title="Watch time per platform" />
          </SimpleGrid>
          <ProgrammesTable range={range} />
          <ChannelDay date={date} />
          <SessionsTable range={range} zone={zone} />
        </>
      )}
    </Stack>
  );
}

function ViewersNow() {
  const viewers = useViewersNow();
  return (
    <Paper withBorder p="md" w="fit-content">
      <Text size="sm" c="dimmed">
        Viewers now
      </Text>
      <Text fz={32} fw={700} aria-label="Viewers now">
        {viewers.isError ? '–' : (viewers.data ?? '–')}
      </Text>
    </Paper>
  );
}

const BUCKET_COLUMNS = (zone: string): Column<Bucket>[] => [
  { header: 'From', cell: (b) => wallTime(b.start, zone) },
  { header: 'Viewers', cell: (b) => b.viewers },
];

function Concurrency({ range, zone, interval }: { range: Range; zone: string; interval: string }) {
  const concurrency = useConcurrency(range, interval);
  const buckets = concurrency.data?.buckets;
  const data = useMemo<uPlot.AlignedData | null>(() => (buckets ? [buckets.map((b) => Date.parse(b.start) / 1000), buckets.map((b) => b.viewers)] : null), [buckets]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      tzDate: (ts) => chartDate(ts, zone),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      series: [{}, { label: 'Viewers', stroke: '#1c7ed6', fill: 'rgba(28,126,214,0.15)', width: 2 }],
      axes: [{}, { label: 'viewers', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
    }),
    [zone],
  );
  return (
    <Panel title="Concurrent viewers">
      <Loaded query={concurrency} label="Loading concurrency">
        {({ buckets }) => (
          <>
            <Text aria-label="Concurrency summary">{peakSentence(buckets, zone)}</Text>
            {data ? <Chart options={options} data={data} label={`Concurrent viewers, ${peakSentence(buckets, zone)}`} /> : null}
            <details>
              <summary>Figures</summary>
              <DataTable label="Concurrent viewers by interval" columns={BUCKET_COLUMNS(zone)} rows={buckets.filter((b) => b.viewers > 0)} rowKey={(b) => b.start} />
            </details>
          </>
        )}
      </Loaded>
    </Panel>
  );
}

function WatchTime({ range, groupBy, title }: { range: Range; groupBy: 'channel' | 'source'; title: string }) {
  const summary = useSummary(range, groupBy);
  const groups = summary.data?.groups;
  const labelOf = (g: Line) => ('channelId' in g ? (g.channelName ?? `#${g.channelId}`) : 'source' in g ? platformName(g.source) : '');
  const labels = useMemo(() => (groups ?? []).map(labelOf), [groups]);
  const data = useMemo<uPlot.AlignedData | null>(() => (groups ? [labels.map((_, i) => i), groups.map((g) => g.watchSeconds / 3600)] : null), [groups, labels]);
  const options = useMemo(() => barOptions(labels, 'Watch hours', groupBy === 'channel' ? '#2f9e44' : '#e8590c'), [labels, groupBy]);
  const columns: Column<Line>[] = [
    { header: groupBy === 'channel' ? 'Channel' : 'Platform', cell: (_g, i) => labels[i] },
    { header: 'Watch time', cell: (g) => watchTime(g.watchSeconds) },
    { header: 'Sessions', cell: (g) => g.sessions },
    { header: 'Viewers', cell: (g) => g.uniqueViewers },
  ];
  return (
    <Panel title={title}>
      <Loaded query={summary} label={`Loading ${title.toLowerCase()}`}>
        {({ groups }) =>
          groups.length === 0 ? (
            <Text>Nobody watched in this period.</Text>
          ) : (
            <>
              {data ? <Chart options={options} data={data} label={title} height={200} /> : null}
              <DataTable label={title} columns={columns} rows={groups} rowKey={(_g, i) => labels[i] ?? i} />
            </>
          )
        }
      </Loaded>
    </Panel>
  );
}

const SESSION_COLUMNS = (zone: string): Column<Session>[] => [
  { header: 'Started', cell: (s) => wallTime(s.startedAt, zone) },
  { header: 'Channel', cell: (s) => s.channelId },
  { header: 'Platform', cell: (s) => platformName(s.source) },
  { header: 'Viewer', cell: (s) => s.userId ?? '–' },
  { header: 'Watched', cell: (s) => watchTime(s.creditedSeconds) },
  { header: 'State', cell: (s) => (s.open ? 'watching' : 'ended') },
];

function SessionsTable({ range, zone }: { range: Range; zone: string }) {
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [range]);
  const sessions = useSessions(range, page);
  const csv = useSubmit(async () => {
    saveFile(await sessionsCsv(range), `sessions-${range.from.slice(0, 10)}.csv`);
  });

  return (
    <Panel
      title="Sessions"
      actions={
        <Button variant="light" onClick={() => void csv.run()} loading={csv.busy}>
          Download CSV
        </Button>
      }
    >
      {csv.error ? <Alert color="red">{formMessage(csv.error)}</Alert> : null}
      <Loaded query={sessions} label="Loading sessions">
        {(found) => (
          <>
            <Text size="sm" c="dimmed">
              {found.total} sessions
            </Text>
            <DataTable label="Sessions" columns={SESSION_COLUMNS(zone)} rows={found.items} rowKey={(s, i) => `${s.startedAt}-${s.userId}-${i}`} minWidth={720} striped />
            {found.totalPages > 1 ? <Pagination total={found.totalPages} value={page} onChange={setPage} aria-label="Session pages" /> : null}
          </>
        )}
      </Loaded>
    </Panel>
  );
}
