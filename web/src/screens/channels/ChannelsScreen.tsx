// Channels: the owner's channels in app order (drag to reorder), create one, and open one
// (#/channels/{id}) to edit its details, password, library, VOD catalog and VAST settings.
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { newIdempotencyKey, studio } from '../../api/client.ts';
import type { Channel, Page } from '../../api/types.ts';
import { navigate } from '../../router.ts';
import { formMessage } from '../../ui/errors.tsx';
import { SortableList } from '../../ui/SortableList.tsx';
import { ChannelEditor } from './ChannelEditor.tsx';
import { ChannelForm } from './ChannelForm.tsx';

export type StudioChannel = Channel & { id: number; hasPassword: boolean; deleted: boolean };

export function ChannelsScreen({ rest }: { rest: string[] }) {
  const selected = rest[0] ? Number(rest[0]) : undefined;
  if (selected !== undefined && Number.isInteger(selected)) return <ChannelEditor key={selected} channelId={selected} />;
  return <ChannelList />;
}

function ChannelList() {
  const [channels, setChannels] = useState<StudioChannel[] | null>(null);
  const [showDeleted, setShowDeleted] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [creating, setCreating] = useState(false);

  const load = useCallback(async () => {
    try {
      const { data } = await studio<Page<StudioChannel>>('/channels', { query: { per_page: 500, deleted: showDeleted ? 1 : undefined } });
      setChannels(data.items);
    } catch (failure) {
      setError(failure);
    }
  }, [showDeleted]);
  useEffect(() => {
    void load();
  }, [load]);

  async function reorder(next: StudioChannel[]) {
    const previous = channels;
    setChannels(next);
    setSaving(true);
    setError(null);
    try {
      await studio('/channels/order', { method: 'PUT', body: { channelIds: next.filter((c) => !c.deleted).map((c) => c.id) } });
    } catch (failure) {
      setChannels(previous);
      setError(failure);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Channels</Title>
        <Button onClick={() => setCreating(true)}>New channel</Button>
      </Group>
      <Group>
        <Switch label="Show deleted channels" checked={showDeleted} onChange={(e) => setShowDeleted(e.currentTarget.checked)} />
        {saving ? <Text size="sm" c="dimmed">Saving the order…</Text> : null}
      </Group>
      {error ? <Alert color="red" role="alert">{formMessage(error)}</Alert> : null}
      {!channels ? (
        <Loader aria-label="Loading channels" />
      ) : channels.length === 0 ? (
        <Text>No channels yet: create your first one.</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            Apps list channels in this order. Drag a channel by its handle (or focus the handle, press Space, move with the arrow keys, press Space again).
          </Text>
          <SortableList
            label="Channels in app order"
            items={channels}
            idOf={(c) => c.id}
            nameOf={(c) => c.name}
            onChange={reorder}
            render={(c) => (
              <Group justify="space-between" wrap="nowrap">
                <div style={{ minWidth: 0 }}>
                  <Text fw={500} truncate>
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    #{c.id} · /{c.url} · {c.timezone}
                  </Text>
                </div>
                <Group gap={4} wrap="nowrap">
                  {c.hasPassword ? <Badge size="xs">password</Badge> : null}
                  {c.deleted ? <Badge size="xs" color="red">deleted</Badge> : null}
                  <Button size="xs" variant="light" onClick={() => navigate('channels', c.id)} aria-label={`Open ${c.name}`}>
                    Open
                  </Button>
                </Group>
              </Group>
            )}
          />
        </>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New channel" size="lg">
        <ChannelForm
          submitLabel="Create channel"
          onCancel={() => setCreating(false)}
          onSubmit={async (fields) => {
            const { data } = await studio<StudioChannel>('/channels', { method: 'POST', body: fields, idempotencyKey: newIdempotencyKey() });
            setCreating(false);
            navigate('channels', data.id);
          }}
        />
      </Modal>
    </Stack>
  );
}
