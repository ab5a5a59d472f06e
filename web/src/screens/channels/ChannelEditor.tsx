// One channel (#/channels/{id}): details, library and VOD catalog, VAST per platform, password,
// linear output (screens/linear), delete and restore. Every save sends the ETag the form was
// loaded with (412 when someone else saved meanwhile).
import { Alert, Anchor, Badge, Button, Group, PasswordInput, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useChannel, useDeleteChannel, usePassword, useUpdateChannel } from '../../api/channels.ts';
import type { Answer } from '../../api/client.ts';
import type { Channel } from '../../api/types.ts';
import { navigate } from '../../router.ts';
import { confirmLeave } from '../../ui/unsaved.ts';
import { fieldError, formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { ChannelForm } from './ChannelForm.tsx';
import { LinearPanel } from '../linear/LinearPanel.tsx';
import { VastEditor } from './VastEditor.tsx';
import { VideoListEditor } from './VideoListEditor.tsx';

export function ChannelEditor({ channelId }: { channelId: number }) {
  const channel = useChannel(channelId);
  return (
    <Loaded query={channel} label="Loading channel" fresh>
      {(read) => <Editor channelId={channelId} read={read} reload={async () => (await channel.refetch({ throwOnError: true })).data!} />}
    </Loaded>
  );
}

function Editor({ channelId, read, reload }: { channelId: number; read: Answer<Channel>; reload: () => Promise<Answer<Channel>> }) {
  // The version the forms edit: the one read, then each one a save answers.
  const [channel, setChannel] = useState(read);
  const [saved, setSaved] = useState('');
  const [tab, setTab] = useState<string>('details');
  const update = useUpdateChannel(channelId);
  const remove = useDeleteChannel(channelId);
  const c = channel.data;

  const deletion = useSubmit(async (deleted: boolean) => {
    if (deleted) await remove.mutateAsync(channel.etag);
    else await update.mutateAsync({ body: { deleted: false }, etag: channel.etag });
    setChannel(await reload());
    setSaved(deleted ? 'Channel deleted: no app shows it any more.' : 'Channel restored.');
  });

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
          <Button variant="light" onClick={() => navigate('watch', channelId)}>
            Watch
          </Button>
          {c.deleted ? (
            <Button variant="light" onClick={() => void deletion.run(false)}>
              Restore channel
            </Button>
          ) : (
            <Button color="red" variant="light" onClick={() => void deletion.run(true)}>
              Delete channel
            </Button>
          )}
        </Group>
      </Group>
      {saved ? (
        <Alert color="green" withCloseButton onClose={() => setSaved('')}>
          {saved}
        </Alert>
      ) : null}
      {deletion.error ? (
        <Alert color="red" role="alert">
          {formMessage(deletion.error)}
        </Alert>
      ) : null}
      {/* A tab left is unmounted: unsaved edits in it (a library order) ask first. */}
      <Tabs value={tab} onChange={(next) => next && confirmLeave() && setTab(next)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details">Details</Tabs.Tab>
          <Tabs.Tab value="library">Library</Tabs.Tab>
          <Tabs.Tab value="vod">VOD catalog</Tabs.Tab>
          <Tabs.Tab value="vast">VAST</Tabs.Tab>
          <Tabs.Tab value="password">Password</Tabs.Tab>
          <Tabs.Tab value="linear">Linear output</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <ChannelForm
            key={channel.etag}
            initial={c}
            submitLabel="Save details"
            onSubmit={async (fields) => {
              setChannel(await update.mutateAsync({ body: fields, etag: channel.etag }));
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
          <PasswordEditor channelId={channelId} hasPassword={c.hasPassword} onChanged={async () => setChannel(await reload())} />
        </Tabs.Panel>
        <Tabs.Panel value="linear" pt="md">
          <LinearPanel channelId={channelId} timezone={c.timezone} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function PasswordEditor({ channelId, hasPassword, onChanged }: { channelId: number; hasPassword: boolean; onChanged: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState('');
  const change = usePassword(channelId);
  const submit = useSubmit(async (next: string | null) => {
    setDone('');
    await change.mutateAsync(next);
    setPassword('');
    setDone(next !== null ? 'Password set. Viewers who unlocked the channel before must enter it again.' : 'Password removed.');
    await onChanged();
  });
  const { error } = submit;

  return (
    <Stack maw={420}>
      <Text>{hasPassword ? 'This channel is locked with a password.' : 'This channel has no password.'} The password is never shown, only replaced or removed.</Text>
      {done ? <Alert color="green">{done}</Alert> : null}
      {error && !fieldError(error, 'password') ? (
        <Alert color="red" role="alert">
          {formMessage(error)}
        </Alert>
      ) : null}
      <PasswordInput label="New password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldError(error, 'password')} />
      <Group>
        <Button onClick={() => void submit.run(password)} disabled={password === ''}>
          Set password
        </Button>
        {hasPassword ? (
          <Button variant="light" color="red" onClick={() => void submit.run(null)}>
            Remove password
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
