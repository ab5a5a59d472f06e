// Invites (docs/studio.md, Onboarding): an owner makes a one-time link that lets someone become an
// owner of their own (nothing of the inviter's is shared). The link is shown once, when it is made;
// the list shows each invite's note, state, expiry and the account it made; an open one can be revoked.
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useCreateInvite, useInvites, useRevokeInvite } from '../../api/invites.ts';
import type { Invite } from '../../api/types.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { fieldError, formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';

const when = (instant: string | null) => (instant ? new Date(instant).toLocaleString() : '');
const COLOURS = { open: 'green', used: 'blue', expired: 'gray', revoked: 'red' } as const;

export function InvitesScreen(_props: { rest: string[] }) {
  const invites = useInvites();
  const create = useCreateInvite();
  const revoke = useRevokeInvite();
  const [note, setNote] = useState('');
  const [days, setDays] = useState<number | string>(7);
  const [shown, setShown] = useState<string | null>(null);
  const submit = useSubmit(async (action: 'create' | { revoke: number }) => {
    if (action !== 'create') return revoke.mutateAsync(action.revoke);
    const created = await create.mutateAsync({ note, expiresInDays: typeof days === 'number' ? days : Number(days) });
    setShown(created.path ? `${window.location.origin}${created.path}` : null);
    setNote('');
  });
  const { error } = submit;
  const columns: Column<Invite>[] = [
    { header: 'Note', cell: (i) => i.note || '(no note)' },
    {
      header: 'State',
      cell: (i) => (
        <Badge color={COLOURS[i.status]} variant="light">
          {i.status}
        </Badge>
      ),
    },
    { header: 'Created', cell: (i) => when(i.createdAt) },
    { header: 'Expires', cell: (i) => when(i.expiresAt) },
    { header: 'Made account', cell: (i) => (i.usedBy === null ? '' : `account ${i.usedBy} (${when(i.usedAt)})`) },
    {
      header: '',
      cell: (i) =>
        i.status === 'open' ? (
          <Button size="xs" color="red" variant="subtle" onClick={() => void submit.run({ revoke: i.id })} aria-label={`Revoke invite ${i.note || i.id}`}>
            Revoke
          </Button>
        ) : null,
    },
  ];

  return (
    <Stack>
      <Title order={2}>Invites</Title>
      <Text size="sm" c="dimmed">
        An invite link lets one person make an owner account of their own here: they choose their username, email and password, and see nothing of yours. Each link works once,
        until it expires or you revoke it.
      </Text>
      {error && !fieldError(error, 'note') && !fieldError(error, 'expiresInDays') ? (
        <Alert color="red" role="alert">
          {formMessage(error)}
        </Alert>
      ) : null}
      <Group align="flex-end">
        <TextInput label="Note (whom it is for)" value={note} maxLength={200} onChange={(e) => setNote(e.currentTarget.value)} error={fieldError(error, 'note')} />
        <NumberInput label="Lasts (days)" min={1} max={365} w={120} value={days} onChange={setDays} error={fieldError(error, 'expiresInDays')} />
        <Button onClick={() => void submit.run('create')} loading={submit.busy}>
          Create invite link
        </Button>
      </Group>
      <Loaded query={invites} label="Loading invites">
        {(items) => <DataTable label="Invites" columns={columns} rows={items} rowKey={(i) => i.id} empty="No invites yet." minWidth={640} />}
      </Loaded>
      <Modal opened={shown !== null} onClose={() => setShown(null)} title="Your new invite link">
        <Stack>
          <Alert color="yellow">Copy it now: it is shown only this once. Whoever opens it first can become an owner here.</Alert>
          <Code block aria-label="New invite link" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {shown}
          </Code>
          <Group justify="space-between">
            <CopyButton value={shown ?? ''}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy link'}</Button>}</CopyButton>
            <Button variant="default" onClick={() => setShown(null)}>
              Done
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
