// A video's HLS ingest (linear output, docs/linear.md): pending, ready or failed, what was found
// (renditions, segments, duration), the error or warning in a creator's words, and Refresh, which
// reads the playlist again in the background (the state is asked again until it settles).
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useRefreshHls, useVideoHls, type HlsState } from '../../api/linear.ts';
import { formMessage } from '../../ui/errors.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { ingestSummary } from '../linear/words.ts';

const COLOUR: Record<HlsState['status'], string> = { pending: 'blue', ready: 'green', failed: 'red' };
const LABEL: Record<HlsState['status'], string> = { pending: 'reading', ready: 'ready', failed: 'cannot air' };

export function HlsIngest({ videoId }: { videoId: number }) {
  const read = useVideoHls(videoId);
  const refresh = useRefreshHls();
  const submit = useSubmit(() => refresh.mutateAsync(videoId));
  const video = read.data?.data;
  if (!video) return null;
  const hls = video.hls ?? null;
  // Only a Custom video can be an HLS playlist; YouTube and Vimeo have nothing to read.
  const readable = hls !== null || /^custom$/i.test(video.providerName.trim());
  return (
    <Stack gap={6} aria-label="Linear output ingest">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Linear streams
        </Text>
        {hls ? <Badge color={COLOUR[hls.status]}>{LABEL[hls.status]}</Badge> : <Badge color="gray">airs the slate</Badge>}
      </Group>
      <Text size="sm" role="status">
        {ingestSummary(hls, video.providerName)}
      </Text>
      {hls?.warning ? (
        <Alert color="yellow" p="xs">
          {hls.warning.replace(/\.\s*$/, '')}. The playlist's own length is what airs; correct the video's duration if the schedule should follow it.
        </Alert>
      ) : null}
      {submit.error ? (
        <Alert color="red" role="alert" p="xs">
          {formMessage(submit.error)}
        </Alert>
      ) : null}
      {readable ? (
        <Group>
          <Button size="xs" variant="light" onClick={() => void submit.run()} loading={submit.busy || hls?.status === 'pending'}>
            Refresh
          </Button>
          <Text size="xs" c="dimmed">
            Reads the HLS playlist again (after you re-encode or move it).
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}
