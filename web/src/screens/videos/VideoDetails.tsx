// One video: edit (PATCH with the ETag it was read with, so a concurrent change is a 412, not an
// overwrite), its HLS ingest for linear output, where it is used, and delete (409 in_use in words).
import { Alert, Button, Divider, Group, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Answer } from '../../api/client.ts';
import type { Video, VideoUsage } from '../../api/types.ts';
import { useDeleteVideo, useUpdateVideo, useVideo, useVideoUsage } from '../../api/videos.ts';
import { formMessage } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { HlsIngest } from './HlsIngest.tsx';
import { VideoForm } from './VideoForm.tsx';

export function VideoDetails({ videoId, onDone }: { videoId: number; onDone: () => void }) {
  const video = useVideo(videoId);
  return (
    <Loaded query={video} label="Loading video" fresh>
      {(answer) => <Details videoId={videoId} read={answer} onDone={onDone} />}
    </Loaded>
  );
}

function Details({ videoId, read, onDone }: { videoId: number; read: Answer<Video>; onDone: () => void }) {
  const usage = useVideoUsage(videoId);
  const update = useUpdateVideo();
  const remove = useDeleteVideo();
  // The ETag of the version the form shows, kept while the cache refreshes underneath.
  const [{ data, etag }] = useState(read);
  const deletion = useSubmit(async () => {
    await remove.mutateAsync({ videoId, etag });
    onDone();
  });

  return (
    <Stack>
      <VideoForm
        initial={data}
        submitLabel="Save video"
        onCancel={onDone}
        onSubmit={async (changes) => {
          await update.mutateAsync({ videoId, body: changes, etag });
          onDone();
        }}
      />
      <Divider label="Linear output" labelPosition="left" />
      <HlsIngest videoId={videoId} />
      <Divider label="Where it is used" labelPosition="left" />
      <Loaded query={usage} label="Loading usage" size="sm">
        {(used) => <Usage usage={used} />}
      </Loaded>
      {deletion.error ? (
        <Alert color="red" role="alert">
          {formMessage(deletion.error)}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button color="red" variant="light" onClick={() => void deletion.run()}>
          Delete video
        </Button>
      </Group>
    </Stack>
  );
}

function Usage({ usage }: { usage: VideoUsage }) {
  const uses = usage.libraryChannelIds.length + usage.vodChannelIds.length + usage.scheduleBlocks.length + usage.liveStreams.length;
  if (uses + usage.programmingSlots.length + usage.fillerChannelIds.length === 0) return <Text size="sm">Not used by any channel, schedule, live stream or programming plan.</Text>;
  return (
    <List size="sm" aria-label="Where it is used">
      {usage.libraryChannelIds.map((id) => (
        <List.Item key={`l${id}`}>Library of channel {id}</List.Item>
      ))}
      {usage.vodChannelIds.map((id) => (
        <List.Item key={`v${id}`}>VOD catalog of channel {id}</List.Item>
      ))}
      {usage.scheduleBlocks.map((b) => (
        <List.Item key={`b${b.blockId}`}>
          {b.loopDaily ? `Daily block at ${b.startTime.slice(11, 16)}` : `Block at ${b.startTime.slice(0, 10)} ${b.startTime.slice(11, 16)}`} of channel {b.channelId}
        </List.Item>
      ))}
      {usage.liveStreams.map((s) => (
        <List.Item key={`s${s.liveStreamId}`}>
          Live stream {s.liveStreamId} of channel {s.channelId}
        </List.Item>
      ))}
      {usage.programmingSlots.map((s) => (
        <List.Item key={`p${s.channelId}-${s.slot}`}>
          Slot {s.slot} ({s.when}) of channel {s.channelId}&apos;s programming
        </List.Item>
      ))}
      {usage.fillerChannelIds.map((id) => (
        <List.Item key={`f${id}`}>Filler of channel {id}</List.Item>
      ))}
    </List>
  );
}
