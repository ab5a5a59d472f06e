// Channels: the owner's channels in app order (drag to reorder), create one, and open one
// (#/channels/{id}) to edit its details, password, library, VOD catalog and VAST settings.
import { Alert, Badge, Button, Group, Modal, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useChannelList, useCreateChannel, useReorderChannels } from '../../api/channels.ts';
import type { Channel } from '../../api/types.ts';
import { navigate } from '../../router.ts';
import { formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { SortableList } from '../../ui/SortableList.tsx';
import { ChannelEditor } from './ChannelEditor.tsx';
import { ChannelForm } from './ChannelForm.tsx';

export function ChannelsScreen({ rest }: { rest: string[] }) {
  const selected = rest[0] ? Number(rest[0]) : undefined;
  if (selected !== undefined && Number.isInteger(selected)) return <ChannelEditor key={selected} channelId={selected} />;
  return <ChannelList />;
}

function ChannelList() {
  const [showDeleted, setShowDeleted] = useState(false);
  const channels = useChannelList(showDeleted);
  const create = useCreateChannel();
  const reorder = useReorderChannels();
  // The order as dragged, shown until the saved order comes back (or the save is refused).
  const [dragged, setDragged] = useState<Channel[] | null>(null);
  const [creating, setCreating] = useState(false);

  async function move(next: Channel[]) {
    setDragged(next);
    try {
      await reorder.mutateAsync(next.filter((c) => !c.deleted).map((c) => c.id));
    } catch {
      // reorder.error says why; the list goes back to the stored order.
    } finally {
      setDragged(null);
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
        {reorder.isPending ? (
          <Text size="sm" c="dimmed">
            Saving the order…
          </Text>
        ) : null}
      </Group>
      {reorder.error ? (
        <Alert color="red" role="alert">
          {formMessage(reorder.error)}
        </Alert>
      ) : null}
      <Loaded query={channels} label="Loading channels">
        {(stored) => {
          const shown = dragged ?? stored;
          if (shown.length === 0) return <Text>No channels yet: create your first one.</Text>;
          return (
            <>
              <Text size="sm" c="dimmed">
                Apps list channels in this order. Drag a channel by its handle (or focus the handle, press Space, move with the arrow keys, press Space again).
              </Text>
              <SortableList
                label="Channels in app order"
                items={shown}
                idOf={(c) => c.id}
                nameOf={(c) => c.name}
                onChange={(next) => void move(next)}
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
                      {c.deleted ? (
                        <Badge size="xs" color="red">
                          deleted
                        </Badge>
                      ) : null}
                      <Button size="xs" variant="light" onClick={() => navigate('channels', c.id)} aria-label={`Open ${c.name}`}>
                        Open
                      </Button>
                    </Group>
                  </Group>
                )}
              />
            </>
          );
        }}
      </Loaded>
      <Modal opened={creating} onClose={() => setCreating(false)} title="New channel" size="lg">
        <ChannelForm
          submitLabel="Create channel"
          onCancel={() => setCreating(false)}
          onSubmit={async (fields) => {
            const { data } = await create.mutateAsync(fields);
            setCreating(false);
            navigate('channels', data.id);
          }}
        />
      </Modal>
    </Stack>
  );
}
