// The rows the TV apps receive (the Custom API's guide) for a day of the week in a chosen request
// zone, from GET /channels/{id}/guide/{date}?timezone=.
import { Alert, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useGuide } from '../../api/schedules.ts';
import type { GuideRow } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { FormAlert } from '../../ui/errors.tsx';
import { todayIn } from './geometry.ts';

const COLUMNS: Column<GuideRow>[] = [
  { header: 'Start', cell: (r) => r.startDate },
  { header: 'End', cell: (r) => r.endDate },
  { header: 'Title', cell: (r) => r.title },
  { header: 'Duration', cell: (r) => r.timeDuration },
  { header: 'Stream', cell: (r) => (r.streamUrl ? 'yes' : 'none') },
];

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

/** The preview of `channelId`'s guide; its rows are read again whenever the channel's schedule changes. */
export function GuidePreview({ channelId, zone, dates }: { channelId: number; zone: string; dates: string[] }) {
  const today = todayIn(zone);
  const [date, setDate] = useState(dates.includes(today) ? today : dates[0]!);
  const [requestZone, setRequestZone] = useState(zone);
  const guide = useGuide(channelId, date, requestZone);
  const zones = useMemo(() => [...new Set([zone, 'UTC', ...ZONES])], [zone]);
  const rows = guide.data?.items;

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
      {guide.error ? <FormAlert error={guide.error} /> : null}
      {guide.data?.listed === false && (
        <Alert color="yellow" title="Sold by an app">
          {guide.data.soldBy
            ? `Your ${guide.data.soldBy} app sells this channel: a TV app without its subscription gets no rows of it. These are the rows its subscribers get (you see them because the channel is yours).`
            : 'An app of yours sells this channel, so a TV app without its subscription (or sending no Platform-Id) gets no rows of it.'}
        </Alert>
      )}
      {!rows ? (
        !guide.error && <Loader size="sm" aria-label="Loading the guide" />
      ) : rows.length === 0 ? (
        <Text size="sm">No rows: nothing published plays that day.</Text>
      ) : (
        <DataTable label="Guide rows" columns={COLUMNS} rows={rows} rowKey={(r) => r.customId} minWidth={640} striped />
      )}
    </Stack>
  );
}
