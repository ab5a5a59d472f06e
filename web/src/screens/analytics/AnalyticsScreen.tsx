// Analytics: viewers now, concurrency over a chosen day (in a chosen zone), watch time per channel
// and per platform, the programmes that held viewers and a channel's day minute by minute
// (Programmes.tsx), and the sessions table with a CSV download; from REST's analytics routes.
// Each chart's figures are also written out (summary sentences and tables), for every reader.
import { Alert, Button, Group, Loader, Pagination, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title, Autocomplete } from '@mantine/core';
import { DateTime } from 'luxon';
import { useEffect, useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { download, rest, REST } from '../../api/client.ts';
import { formMessage } from '../../ui/errors.tsx';
import { barOptions, Chart } from './Chart.tsx';
import { ChannelDay, ProgrammesTable } from './Programmes.tsx';
import { chartDate, dayRange, peakSentence, wallTime, watchTime, type Bucket } from './series.ts';

interface Line {
  watchSeconds: number;
  sessions: number;
  uniqueViewers: number;
  averageSessionSeconds: number;
}
type Group = Line & { channelId?: number; channelName?: string; source?: string };
interface Summary {
  groups: Group[];
  totals: Line;
}
interface Session {
  source: string;
  clientId: string | null;
  userId: string | null;
  channelId: number;
  startedAt: string;
  lastHeartbeatAt: string;
  endedAt: string | null;
  creditedSeconds: number;
  heartbeats: number;
  open: boolean;
}
interface Sessions {
  items: Session[];
  page: number;
  total: number;
  totalPages: number;
}

const ZONES: string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
const INTERVALS = ['1m', '5m', '15m', '30m', '1h'];

export function AnalyticsScreen(_props: { rest: string[] }) {
  const [zone, setZone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [date, setDate] = useState(() => DateTime.now().setZone(zone).toISODate()!);
  const [interval, setInterval] = useState('5m');
  const range = useMemo(() => dayRange(date, zone), [date, zone]);

  return (
    <Stack>
      <Title order={2}>Analytics</Title>
      <ViewersNow />
      <Group align="flex-end">
        <TextInput label="Day" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} />
        <Autocomplete label="Time zone" data={ZONES} limit={20} value={zone} onChange={setZone} />
        <Select label="Interval" data={INTERVALS} value={interval} onChange={(v) => v && setInterval(v)} allowDeselect={false} w={110} />
      </Group>
      {!range ? (
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
  const [viewers, setViewers] = useState<number | null>(null);
  useEffect(() => {
    const load = () => {
      const to = new Date();
      const from = new Date(to.getTime() - 60_000);
      rest<{ buckets: Bucket[] }>('/analytics/concurrency', { query: { from: from.toISOString(), to: to.toISOString(), interval: '1m' } }).then(
        ({ data }) => setViewers(Math.max(0, ...data.buckets.map((b) => b.viewers))),
        () => setViewers(null),
      );
    };
    load();
    const timer = window.setInterval(load, 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Paper withBorder p="md" w="fit-content">
      <Text size="sm" c="dimmed">
        Viewers now
      </Text>
      <Text fz={32} fw={700} aria-label="Viewers now">
        {viewers ?? '–'}
      </Text>
    </Paper>
  );
}

function Concurrency({ range, zone, interval }: { range: { from: string; to: string }; zone: string; interval: string }) {
  const [buckets, setBuckets] = useState<Bucket[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setBuckets(null);
    setError(null);
    rest<{ buckets: Bucket[] }>('/analytics/concurrency', { query: { ...range, interval } }).then(({ data }) => setBuckets(data.buckets), setError);
  }, [range, interval]);
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
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="xs">
        Concurrent viewers
      </Title>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!buckets || !data ? (
        error ? null : <Loader aria-label="Loading concurrency" />
      ) : (
        <>
          <Text aria-label="Concurrency summary">{peakSentence(buckets, zone)}</Text>
          <Chart options={options} data={data} label={`Concurrent viewers, ${peakSentence(buckets, zone)}`} />
          <details>
            <summary>Figures</summary>
            <Table aria-label="Concurrent viewers by interval">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>From</Table.Th>
                  <Table.Th>Viewers</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {buckets
                  .filter((b) => b.viewers > 0)
                  .map((b) => (
                    <Table.Tr key={b.start}>
                      <Table.Td>{wallTime(b.start, zone)}</Table.Td>
                      <Table.Td>{b.viewers}</Table.Td>
                    </Table.Tr>
                  ))}
              </Table.Tbody>
            </Table>
          </details>
        </>
      )}
    </Paper>
  );
}

function WatchTime({ range, groupBy, title }: { range: { from: string; to: string }; groupBy: 'channel' | 'source'; title: string }) {
  const [summary, setSummary] = useState<Summary | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setSummary(null);
    rest<Summary>('/analytics/summary', { query: { ...range, groupBy } }).then(({ data }) => setSummary(data), setError);
  }, [range, groupBy]);
  const labels = useMemo(() => (summary ? summary.groups.map((g) => (groupBy === 'channel' ? (g.channelName ?? `#${g.channelId}`) : (g.source ?? ''))) : []), [summary, groupBy]);
  const data = useMemo<uPlot.AlignedData | null>(() => (summary ? [labels.map((_, i) => i), summary.groups.map((g) => g.watchSeconds / 3600)] : null), [summary, labels]);
  const options = useMemo(() => barOptions(labels, 'Watch hours', groupBy === 'channel' ? '#2f9e44' : '#e8590c'), [labels, groupBy]);
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="xs">
        {title}
      </Title>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!summary || !data ? (
        error ? null : <Loader aria-label={`Loading ${title.toLowerCase()}`} />
      ) : summary.groups.length === 0 ? (
        <Text>Nobody watched in this period.</Text>
      ) : (
        <>
          <Chart options={options} data={data} label={title} height={200} />
          <Table aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{groupBy === 'channel' ? 'Channel' : 'Platform'}</Table.Th>
                <Table.Th>Watch time</Table.Th>
                <Table.Th>Sessions</Table.Th>
                <Table.Th>Viewers</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.groups.map((g, i) => (
                <Table.Tr key={labels[i]}>
                  <Table.Td>{labels[i]}</Table.Td>
                  <Table.Td>{watchTime(g.watchSeconds)}</Table.Td>
                  <Table.Td>{g.sessions}</Table.Td>
                  <Table.Td>{g.uniqueViewers}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Paper>
  );
}

function SessionsTable({ range, zone }: { range: { from: string; to: string }; zone: string }) {
  const [page, setPage] = useState(1);
  const [sessions, setSessions] = useState<Sessions | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [downloading, setDownloading] = useState(false);
  useEffect(() => setPage(1), [range]);
  useEffect(() => {
    rest<Sessions>('/analytics/sessions', { query: { ...range, page, perPage: 25 } }).then(({ data }) => setSessions(data), setError);
  }, [range, page]);

  async function csv() {
    setDownloading(true);
    setError(null);
    try {
      const blob = await download(`${REST}/analytics/sessions`, { ...range, perPage: 500 }, 'text/csv');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `sessions-${range.from.slice(0, 10)}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (failure) {
      setError(failure);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          Sessions
        </Title>
        <Button variant="light" onClick={csv} loading={downloading}>
          Download CSV
        </Button>
      </Group>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!sessions ? (
        <Loader aria-label="Loading sessions" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {sessions.total} sessions
          </Text>
          <Table.ScrollContainer minWidth={720}>
            <Table striped aria-label="Sessions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Channel</Table.Th>
                  <Table.Th>Platform</Table.Th>
                  <Table.Th>Viewer</Table.Th>
                  <Table.Th>Watched</Table.Th>
                  <Table.Th>State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sessions.items.map((s, i) => (
                  <Table.Tr key={`${s.startedAt}-${s.userId}-${i}`}>
                    <Table.Td>{wallTime(s.startedAt, zone)}</Table.Td>
                    <Table.Td>{s.channelId}</Table.Td>
                    <Table.Td>{s.source}</Table.Td>
                    <Table.Td>{s.userId ?? '–'}</Table.Td>
                    <Table.Td>{watchTime(s.creditedSeconds)}</Table.Td>
                    <Table.Td>{s.open ? 'watching' : 'ended'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {sessions.totalPages > 1 ? <Pagination total={sessions.totalPages} value={page} onChange={setPage} aria-label="Session pages" /> : null}
        </>
      )}
    </Paper>
  );
}
