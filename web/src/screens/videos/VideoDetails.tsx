// One video: edit (PATCH with the ETag it was read with, so a concurrent change is a 412, not an
// overwrite), where it is used, and delete (409 in_use in words).
import { Alert, Button, Divider, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { studio } from '../../api/client.ts';
import type { Video } from '../../api/types.ts';
import { formMessage } from '../../ui/errors.tsx';
import { VideoForm } from './VideoForm.tsx';

interface Usage {
  libraryChannelIds: number[];
  vodChannelIds: number[];
  scheduleBlocks: { channelId: number; blockId: number }[];
  liveStreams: { channelId: number; liveStreamId: number }[];
}

export function VideoDetails({ videoId, onDone }: { videoId: number; onDone: () => void }) {
  const [video, setVideo] = useState<{ data: Video; etag: string | undefined } | null>(null);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    studio<Video>(`/videos/${videoId}`).then(setVideo, setError);
    studio<Usage>(`/videos/${videoId}/usage`).then(({ data }) => setUsage(data), setError);
  }, [videoId]);

  async function remove() {
    setError(null);
    try {
      await studio(`/videos/${videoId}`, { method: 'DELETE', ifMatch: video?.etag });
      onDone();
    } catch (failure) {
      setError(failure);
    }
  }

  if (!video) return error ? <Alert color="red">{formMessage(error)}</Alert> : <Loader aria-label="Loading video" />;
  const used = usage && usage.libraryChannelIds.length + usage.vodChannelIds.length + usage.scheduleBlocks.length + usage.liveStreams.length > 0;
  return (
    <Stack>
      <VideoForm
        initial={video.data}
        submitLabel="Save video"
        onCancel={onDone}
        onSubmit={async (changes) => {
          await studio(`/videos/${videoId}`, { method: 'PATCH', body: changes, ifMatch: video.etag });
          onDone();
        }}
      />
      <Divider label="Where it is used" labelPosition="left" />
      {!usage ? (
        <Loader size="sm" aria-label="Loading usage" />
      ) : !used ? (
        <Text size="sm">Not used by any channel, schedule or live stream.</Text>
      ) : (
        <List size="sm" aria-label="Where it is used">
          {usage.libraryChannelIds.map((id) => (
            <List.Item key={`l${id}`}>Library of channel {id}</List.Item>
          ))}
          {usage.vodChannelIds.map((id) => (
            <List.Item key={`v${id}`}>VOD catalog of channel {id}</List.Item>
          ))}
          {usage.scheduleBlocks.map((b) => (
            <List.Item key={`b${b.blockId}`}>
              Schedule block {b.blockId} of channel {b.channelId}
            </List.Item>
          ))}
          {usage.liveStreams.map((s) => (
            <List.Item key={`s${s.liveStreamId}`}>
              Live stream {s.liveStreamId} of channel {s.channelId}
            </List.Item>
          ))}
        </List>
      )}
      {error ? (
        <Alert color="red" role="alert">
          {formMessage(error)}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button color="red" variant="light" onClick={remove}>
          Delete video
        </Button>
      </Group>
    </Stack>
  );
}
