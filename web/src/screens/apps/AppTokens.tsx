// App tokens: what TV archive apps send (docs/security.md: Tokens). The GUID is shown once, when it is
// created; the list shows label, creation and last use; revoking ends it at once. A revoked token
// stays listed with when it was revoked (by the owner, or by anyone holding it, through logout: the
// audit says from where).
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useAppTokens, useCreateAppToken, useRevokeAppToken } from '../../api/apps.ts';
import type { AppToken } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { fieldError, formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';

const when = (instant: string | null) => (instant ? new Date(instant).toLocaleString() : 'never');

export function AppTokens() {
  const tokens = useAppTokens();
  const create = useCreateAppToken();
  const revoke = useRevokeAppToken();
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const submit = useSubmit(async (action: { create: string } | { revoke: number }) => {
    if ('revoke' in action) return revoke.mutateAsync(action.revoke);
    setShown((await create.mutateAsync(action.create)).token ?? null);
    setLabel('');
  });
  const { error } = submit;
  const columns: Column<AppToken>[] = [
    { header: 'Label', cell: (t) => t.label },
    { header: 'Created', cell: (t) => when(t.createdAt) },
    { header: 'Last used', cell: (t) => when(t.lastUsedAt) },
    { header: 'Revoked', cell: (t) => (t.revokedAt ? when(t.revokedAt) : 'no') },
    {
      header: '',
      cell: (t) =>
        t.revokedAt ? null : (
          <Button size="xs" color="red" variant="subtle" onClick={() => void submit.run({ revoke: t.id })} aria-label={`Revoke ${t.label}`}>
            Revoke
          </Button>
        ),
    },
  ];

  return (
    <Stack>
      <Title order={3} size="h4">
        App tokens
      </Title>
      {error && !fieldError(error, 'label') ? (
        <Alert color="red" role="alert">
          {formMessage(error)}
        </Alert>
      ) : null}
      <Group align="flex-end">
        <TextInput label="New token label" value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={fieldError(error, 'label')} />
        <Button onClick={() => void submit.run({ create: label })} disabled={label.trim() === ''}>
          Create token
        </Button>
      </Group>
      <Loaded query={tokens} label="Loading tokens">
        {(items) => <DataTable label="App tokens" columns={columns} rows={items} rowKey={(t) => t.id} empty="No app tokens." minWidth={560} />}
      </Loaded>
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
