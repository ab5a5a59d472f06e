// The audit log: every change made through the Studio, newest first, a page at a time (keyset:
// "Older" continues after the last entry shown).
import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { studio } from '../../api/client.ts';
import { formMessage } from '../../ui/errors.tsx';

interface Entry {
  id: number;
  at: string;
  actorId: number;
  action: 'create' | 'update' | 'delete';
  resource: string;
  fields: string[];
}

const PAGE = 50;
const COLOURS = { create: 'green', update: 'blue', delete: 'red' } as const;

export function AuditScreen(_props: { rest: string[] }) {
  // The `before` cursors of the pages seen so far: the first page has none.
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  const [page, setPage] = useState<{ items: Entry[]; next: number | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const before = cursors[cursors.length - 1];

  useEffect(() => {
    setPage(null);
    studio<{ items: Entry[]; next: number | null }>('/audit', { query: { limit: PAGE, before } }).then(({ data }) => setPage(data), setError);
  }, [before]);

  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      <Text size="sm" c="dimmed">
        Every change made through the Studio, newest first: who made it, when, to what, and which fields.
      </Text>
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!page ? (
        <Loader aria-label="Loading the audit log" />
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Audit log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Resource</Table.Th>
                  <Table.Th>Fields</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {page.items.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={5}>No changes yet.</Table.Td>
                  </Table.Tr>
                ) : (
                  page.items.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td>{new Date(e.at).toLocaleString()}</Table.Td>
                      <Table.Td>account {e.actorId}</Table.Td>
                      <Table.Td>
                        <Badge color={COLOURS[e.action]} variant="light">
                          {e.action}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{e.resource}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-word' }}>{e.fields.join(', ')}</Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
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
    </Stack>
  );
}
