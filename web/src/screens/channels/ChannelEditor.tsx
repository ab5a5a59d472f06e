// One channel (#/channels/{id}): details, library and VOD catalog, VAST per platform, password,
// delete and restore. Every save sends the ETag the form was loaded with (412 when someone else
// saved meanwhile).
import { Alert, Anchor, Badge, Button, Group, Loader, PasswordInput, Stack, Tabs, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { studio } from '../../api/client.ts';
import { navigate } from '../../router.ts';
import { fieldError, formMessage } from '../../ui/errors.tsx';
import type { StudioChannel } from './ChannelsScreen.tsx';
import { ChannelForm } from './ChannelForm.tsx';
import { VastEditor } from './VastEditor.tsx';
import { VideoListEditor } from './VideoListEditor.tsx';

export function ChannelEditor({ channelId }: { channelId: number }) {
  const [channel, setChannel] = useState<{ data: StudioChannel; etag: string | undefined } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');

  const load = useCallback(async () => {
    try {
      setChannel(await studio<StudioChannel>(`/channels/${channelId}`));
    } catch (failure) {
      setError(failure);
    }
  }, [channelId]);
  useEffect(() => {
    void load();
  }, [load]);

  if (!channel) return error ? <Alert color="red">{formMessage(error)}</Alert> : <Loader aria-label="Loading channel" />;
  const c = channel.data;

  async function setDeleted(deleted: boolean) {
    setError(null);
    try {
      if (deleted) await studio(`/channels/${channelId}`, { method: 'DELETE', ifMatch: channel?.etag });
      else await studio(`/channels/${channelId}`, { method: 'PATCH', body: { deleted: false }, ifMatch: channel?.etag });
      await load();
      setSaved(deleted ? 'Channel deleted: no app shows it any more.' : 'Channel restored.');
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Stack>
      <Anchor href="#/channels" size="sm">
        ← All channels
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>
          {c.name} {c.deleted ? <Badge color="red">deleted</Badge> : null}
        </Title>
        <Group>
          <Button variant="light" onClick={() => navigate('schedule', channelId)}>
            Schedule
          </Button>
          {c.deleted ? (
            <Button variant="light" onClick={() => setDeleted(false)}>
              Restore channel
            </Button>
          ) : (
            <Button color="red" variant="light" onClick={() => setDeleted(true)}>
              Delete channel
            </Button>
          )}
        </Group>
      </Group>
      {saved ? <Alert color="green" withCloseButton onClose={() => setSaved('')}>{saved}</Alert> : null}
      {error ? <Alert color="red" role="alert">{formMessage(error)}</Alert> : null}
      <Tabs defaultValue="details" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details">Details</Tabs.Tab>
          <Tabs.Tab value="library">Library</Tabs.Tab>
          <Tabs.Tab value="vod">VOD catalog</Tabs.Tab>
          <Tabs.Tab value="vast">VAST</Tabs.Tab>
          <Tabs.Tab value="password">Password</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <ChannelForm
            key={channel.etag}
            initial={c}
            submitLabel="Save details"
            onSubmit={async (fields) => {
              setChannel(await studio<StudioChannel>(`/channels/${channelId}`, { method: 'PATCH', body: fields, ifMatch: channel.etag }));
              setSaved('Details saved.');
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="library" pt="md">
          <VideoListEditor channelId={channelId} list="library" title="Library: the videos the channel offers" />
        </Tabs.Panel>
        <Tabs.Panel value="vod" pt="md">
          <VideoListEditor channelId={channelId} list="vod" title="VOD catalog: videos viewers pick on demand" />
        </Tabs.Panel>
        <Tabs.Panel value="vast" pt="md">
          <VastEditor channelId={channelId} />
        </Tabs.Panel>
        <Tabs.Panel value="password" pt="md">
          <PasswordEditor channelId={channelId} hasPassword={c.hasPassword} onChanged={load} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function PasswordEditor({ channelId, hasPassword, onChanged }: { channelId: number; hasPassword: boolean; onChanged: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');

  async function change(method: 'PUT' | 'DELETE') {
    setError(null);
    setDone('');
    try {
      await studio(`/channels/${channelId}/password`, method === 'PUT' ? { method, body: { password } } : { method });
      setPassword('');
      setDone(method === 'PUT' ? 'Password set. Viewers who unlocked the channel before must enter it again.' : 'Password removed.');
      await onChanged();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Stack maw={420}>
      <Text>{hasPassword ? 'This channel is locked with a password.' : 'This channel has no password.'} The password is never shown, only replaced or removed.</Text>
      {done ? <Alert color="green">{done}</Alert> : null}
      {error && !fieldError(error, 'password') ? <Alert color="red" role="alert">{formMessage(error)}</Alert> : null}
      <PasswordInput label="New password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldError(error, 'password')} />
      <Group>
        <Button onClick={() => change('PUT')} disabled={password === ''}>
          Set password
        </Button>
        {hasPassword ? (
          <Button variant="light" color="red" onClick={() => change('DELETE')}>
            Remove password
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
