// App tokens: what TV archive apps send (README: Security). The GUID is shown once, when it is
// created; the list shows label, creation and last use; revoking ends it at once.
import { Alert, Button, Code, CopyButton, Group, Loader, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { newIdempotencyKey, studio } from '../../api/client.ts';
import { fieldError, formMessage } from '../../ui/errors.tsx';

interface AppToken {
  id: number;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const when = (instant: string | null) => (instant ? new Date(instant).toLocaleString() : 'never');

export function AppTokens() {
  const [tokens, setTokens] = useState<AppToken[] | null>(null);
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => studio<{ items: AppToken[] }>('/app-tokens').then(({ data }) => setTokens(data.items), setError), []);
  useEffect(() => {
    void load();
  }, [load]);

  async function create() {
    setError(null);
    try {
      const { data } = await studio<AppToken & { token?: string }>('/app-tokens', { method: 'POST', body: { label }, idempotencyKey: newIdempotencyKey() });
      setShown(data.token ?? null);
      setLabel('');
      await load();
    } catch (failure) {
      setError(failure);
    }
  }

  async function revoke(token: AppToken) {
    setError(null);
    try {
      await studio(`/app-tokens/${token.id}`, { method: 'DELETE' });
      await load();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Stack>
      <Title order={3} size="h4">
        App tokens
      </Title>
      {error && !fieldError(error, 'label') ? <Alert color="red" role="alert">{formMessage(error)}</Alert> : null}
      <Group align="flex-end">
        <TextInput label="New token label" value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={fieldError(error, 'label')} />
        <Button onClick={create} disabled={label.trim() === ''}>
          Create token
        </Button>
      </Group>
      {!tokens ? (
        <Loader aria-label="Loading tokens" />
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="App tokens">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Label</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={4}>No app tokens.</Table.Td>
                </Table.Tr>
              ) : (
                tokens.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td>{t.label}</Table.Td>
                    <Table.Td>{when(t.createdAt)}</Table.Td>
                    <Table.Td>{when(t.lastUsedAt)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" color="red" variant="subtle" onClick={() => revoke(t)} aria-label={`Revoke ${t.label}`}>
                        Revoke
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={shown !== null} onClose={() => setShown(null)} title="Your new app token">
        <Stack>
          <Alert color="yellow">Copy it now: it is shown only this once. Whoever holds it can read your TV archive.</Alert>
          <Code block aria-label="New app token">
            {shown}
          </Code>
          <Group justify="space-between">
            <CopyButton value={shown ?? ''}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy token'}</Button>}</CopyButton>
            <Button variant="default" onClick={() => setShown(null)}>
              Done
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            The list keeps only its label and when it was created and last used.
          </Text>
        </Stack>
      </Modal>
    </Stack>
  );
}
