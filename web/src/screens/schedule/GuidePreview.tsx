// The rows the TV apps receive (the Custom API's guide) for a day of the week in a chosen request
// zone, from GET /channels/{id}/guide/{date}?timezone=.
import { Alert, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { studio } from '../../api/client.ts';
import { FormAlert } from '../../ui/errors.tsx';
import { todayIn } from './geometry.ts';

interface GuideRow {
  customId: string;
  title: string;
  startDate: string;
  endDate: string;
  timeDuration: string;
  durationInDate: string;
  streamUrl: string | null;
  providerName: string;
}

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

export function GuidePreview({ channelId, zone, dates, version }: { channelId: number; zone: string; dates: string[]; version: number }) {
  const today = todayIn(zone);
  const [date, setDate] = useState(dates.includes(today) ? today : dates[0]!);
  const [requestZone, setRequestZone] = useState(zone);
  const [rows, setRows] = useState<GuideRow[] | null>(null);
  const [listed, setListed] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const zones = useMemo(() => [...new Set([zone, 'UTC', ...ZONES])], [zone]);

  useEffect(() => {
    let live = true;
    setRows(null);
    studio<{ items: GuideRow[]; listed: boolean }>(`/channels/${channelId}/guide/${date}`, { query: { timezone: requestZone } })
      .then((a) => {
        if (!live) return;
        setRows(a.data.items);
        setListed(a.data.listed);
        setError(null);
      })
      .catch((e) => live && setError(e));
    return () => {
      live = false;
    };
  }, [channelId, date, requestZone, version]);

  return (
    <Stack gap="xs" mt="md">
      <Title order={3}>Guide preview</Title>
      <Text size="sm" c="dimmed">
        The rows the TV apps receive for this channel and day, rendered in the request zone (published blocks and live streams only).
      </Text>
      <Group>
        <Select label="Guide day" data={dates} value={date} onChange={(v) => v && setDate(v)} allowDeselect={false} w={160} />
        <Select label="Request zone" searchable data={zones} value={requestZone} onChange={(v) => v && setRequestZone(v)} allowDeselect={false} w={240} />
      </Group>
      {error ? <FormAlert error={error} /> : null}
      {!listed && (
        <Alert color="yellow" title="Sold by an app">
          An app of yours sells this channel, so a TV app without its subscription (or sending no Platform-Id) gets no rows of it; that app's subscribers get its published blocks and live streams.
        </Alert>
      )}
      {!rows ? (
        !error && <Loader size="sm" aria-label="Loading the guide" />
      ) : rows.length === 0 ? (
        <Text size="sm">No rows: nothing published plays that day.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Guide rows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Start</Table.Th>
                <Table.Th>End</Table.Th>
                <Table.Th>Title</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Stream</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.customId}>
                  <Table.Td>{r.startDate}</Table.Td>
                  <Table.Td>{r.endDate}</Table.Td>
                  <Table.Td>{r.title}</Table.Td>
                  <Table.Td>{r.timeDuration}</Table.Td>
                  <Table.Td>{r.streamUrl ? 'yes' : 'none'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
