// The audit log: every change made through the Studio, newest first, a page at a time (keyset:
// "Older" continues after the last entry shown).
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useAudit } from '../../api/catalog.ts';
import type { AuditEntry } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { Loaded } from '../../ui/Loaded.tsx';

const PAGE = 50;
const COLOURS = { create: 'green', update: 'blue', delete: 'red' } as const;
const COLUMNS: Column<AuditEntry>[] = [
  { header: 'When', cell: (e) => new Date(e.at).toLocaleString() },
  { header: 'Who', cell: (e) => `account ${e.actorId}` },
  {
    header: 'Action',
    cell: (e) => (
      <Badge color={COLOURS[e.action]} variant="light">
        {e.action}
      </Badge>
    ),
  },
  { header: 'Resource', cell: (e) => e.resource },
  { header: 'Fields', cell: (e) => e.fields.join(', '), style: { wordBreak: 'break-word' } },
];

export function AuditScreen(_props: { rest: string[] }) {
  // The `before` cursors of the pages seen so far: the first page has none.
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  const audit = useAudit(cursors[cursors.length - 1], PAGE);

  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      <Text size="sm" c="dimmed">
        Every change made through the Studio, newest first: who made it, when, to what, and which fields.
      </Text>
      <Loaded query={audit} label="Loading the audit log">
        {(page) => (
          <>
            <DataTable label="Audit log" columns={COLUMNS} rows={page.items} rowKey={(e) => e.id} empty="No changes yet." minWidth={640} striped />
            <Group>
              <Button variant="default" disabled={cursors.length === 1} onClick={() => setCursors([undefined])}>
                Newest
              </Button>
              <Button variant="default" disabled={page.next === null} onClick={() => setCursors([...cursors, page.next ?? undefined])}>
                Older
              </Button>
            </Group>
          </>
        )}
      </Loaded>
    </Stack>
  );
}
