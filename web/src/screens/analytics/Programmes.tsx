// Programme analytics on the Analytics screen: which programmes held viewers over the chosen day
// (REST /analytics/programmes), and one channel's day minute by minute with the programme on air
// (REST /analytics/channels/{id}/curve). The curve's figures are also said in a table of runs.
import { Alert, Group, Loader, Paper, Select, Table, Text, Title } from '@mantine/core';
import { DateTime } from 'luxon';
import { useEffect, useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { rest, studio } from '../../api/client.ts';
import { formMessage } from '../../ui/errors.tsx';
import { Chart } from './Chart.tsx';
import { chartDate, programmeRuns, watchTime, type CurveMinute } from './series.ts';

interface ProgrammeLine {
  videoId: number;
  title: string | null;
  watchSeconds: number;
  sessions: number;
  uniqueViewers: number;
  averageSessionMinutes: number;
  peakConcurrentViewers: number;
}

const SORTS = [
  { value: 'watchSeconds', label: 'Watch time' },
  { value: 'viewers', label: 'Viewers' },
  { value: 'peakViewers', label: 'Peak viewers' },
  { value: 'sessions', label: 'Sessions' },
];

export function ProgrammesTable({ range }: { range: { from: string; to: string } }) {
  const [sort, setSort] = useState('watchSeconds');
  const [items, setItems] = useState<ProgrammeLine[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setItems(null);
    setError(null);
    rest<{ items: ProgrammeLine[] }>('/analytics/programmes', { query: { ...range, sort, perPage: 20 } }).then(({ data }) => setItems(data.items), setError);
  }, [range, sort]);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          Programmes
        </Title>
        <Select label="Order by" data={SORTS} value={sort} onChange={(v) => v && setSort(v)} allowDeselect={false} w={160} />
      </Group>
      <Text size="sm" c="dimmed">
        Programmes that started this day, with the time viewers spent on each.
      </Text>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!items ? (
        error ? null : <Loader aria-label="Loading programmes" />
      ) : items.length === 0 ? (
        <Text>No programme was watched in this period.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Programmes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Programme</Table.Th>
                <Table.Th>Watch time</Table.Th>
                <Table.Th>Sessions</Table.Th>
                <Table.Th>Viewers</Table.Th>
                <Table.Th>Average</Table.Th>
                <Table.Th>Peak</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((p) => (
                <Table.Tr key={p.videoId}>
                  <Table.Td>{p.title ?? `Video ${p.videoId}`}</Table.Td>
                  <Table.Td>{watchTime(p.watchSeconds)}</Table.Td>
                  <Table.Td>{p.sessions}</Table.Td>
                  <Table.Td>{p.uniqueViewers}</Table.Td>
                  <Table.Td>{p.averageSessionMinutes} min</Table.Td>
                  <Table.Td>{p.peakConcurrentViewers}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

interface Curve {
  timezone: string;
  minutes: CurveMinute[];
}

export function ChannelDay({ date }: { date: string }) {
  const [channels, setChannels] = useState<{ value: string; label: string }[]>([]);
  const [channelId, setChannelId] = useState<string | null>(null);
  const [curve, setCurve] = useState<Curve | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    studio<{ items: { id: number; name: string }[] }>('/channels', { query: { per_page: 500 } }).then(({ data }) => {
      setChannels(data.items.map((c) => ({ value: String(c.id), label: c.name })));
      setChannelId((current) => current ?? (data.items[0] ? String(data.items[0].id) : null));
    }, setError);
  }, []);
  useEffect(() => {
    if (!channelId) return;
    setCurve(null);
    setError(null);
    rest<Curve>(`/analytics/channels/${channelId}/curve`, { query: { date } }).then(({ data }) => setCurve(data), setError);
  }, [channelId, date]);
  const runs = useMemo(() => (curve ? programmeRuns(curve.minutes).filter((r) => r.videoId !== null || r.peakViewers > 0) : []), [curve]);
  const data = useMemo<uPlot.AlignedData | null>(() => (curve ? [curve.minutes.map((m) => Date.parse(m.start) / 1000), curve.minutes.map((m) => m.viewers)] : null), [curve]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      tzDate: (ts) => chartDate(ts, curve?.timezone ?? 'UTC'),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      series: [{}, { label: 'Viewers', stroke: '#7048e8', fill: 'rgba(112,72,232,0.15)', width: 2, value: (_u, v, _s, i) => `${v ?? 0} (${curve?.minutes[i ?? 0]?.title ?? 'nothing on air'})` }],
      axes: [{}, { label: 'viewers', incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
    }),
    [curve],
  );
  const time = (instant: string) => DateTime.fromISO(instant, { zone: curve?.timezone ?? 'UTC' }).toFormat('HH:mm');
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs" align="flex-end">
        <Title order={3} size="h4">
          Channel day, minute by minute
        </Title>
        <Select label="Channel" data={channels} value={channelId} onChange={setChannelId} allowDeselect={false} searchable w={240} />
      </Group>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!channelId ? (
        error ? null : <Text>No channel yet.</Text>
      ) : !curve || !data ? (
        error ? null : <Loader aria-label="Loading the channel day" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {date} in the channel's time zone, {curve.timezone}.
          </Text>
          <Chart options={options} data={data} label={`Viewers of the channel on ${date}, minute by minute`} />
          <Table aria-label="Programmes on air">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>On air</Table.Th>
                <Table.Th>Most viewers in a minute</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((r) => (
                <Table.Tr key={r.start}>
                  <Table.Td>{time(r.start)}</Table.Td>
                  <Table.Td>{r === runs.at(-1) && time(r.end) === '00:00' ? '24:00' : time(r.end)}</Table.Td>
                  <Table.Td>{r.videoId === null ? 'Nothing on air' : `${r.title ?? `Video ${r.videoId}`}${r.isLive ? ' (live)' : ''}`}</Table.Td>
                  <Table.Td>{r.peakViewers}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Paper>
  );
}
