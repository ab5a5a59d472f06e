// Live streams of a channel (#/live-streams/{channelId}): the list, create, edit (If-Match),
// end now (end = now), delete. Times are entered and shown in the channel's zone.
import { Badge, Button, Group, Modal, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useAllChannels } from '../../api/channels.ts';
import { newIdempotencyKey } from '../../api/client.ts';
import { useCreateLiveStream, useEndOrDeleteLiveStream, useLiveStream, useLiveStreams, useUpdateLiveStream } from '../../api/schedules.ts';
import type { LiveStream } from '../../api/types.ts';
import { titleOf, useVideoTitles } from '../../api/videos.ts';
import { navigate } from '../../router.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { FormAlert, fieldError } from '../../ui/errors.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { ChannelPicker } from './ChannelPicker.tsx';
import { instantToLocalInput, localInputToInstant } from './geometry.ts';
import { VideoPicker, type Chosen } from './VideoPicker.tsx';

const PER_PAGE = 20;

export function LiveStreamsScreen({ rest }: { rest: string[] }) {
  const channels = useAllChannels();
  const channelId = rest[0] ? Number(rest[0]) : channels.data?.[0]?.id;
  const channel = channels.data?.find((c) => c.id === channelId);
  return (
    <Stack>
      <Title order={2}>Live streams</Title>
      {channels.error ? <FormAlert error={channels.error} /> : null}
      <ChannelPicker channels={channels.data} value={channelId} onChange={(id) => navigate('live-streams', id)} />
      {channel && <Streams key={channel.id} channelId={channel.id} zone={channel.timezone} />}
    </Stack>
  );
}

function Streams({ channelId, zone }: { channelId: number; zone: string }) {
  const streams = useLiveStreams(channelId);
  const titles = useVideoTitles((streams.data ?? []).map((s) => s.videoId)).data;
  const act = useEndOrDeleteLiveStream(channelId);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<LiveStream | 'new' | null>(null);
  const wall = (instant: string) => instantToLocalInput(instant, zone).replace('T', ' ');
  const now = Date.now();
  const onAir = (s: LiveStream) => Date.parse(s.start) <= now && now < Date.parse(s.end);

  const columns: Column<LiveStream>[] = [
    {
      header: 'Video',
      cell: (s) => (
        <>
          {titleOf(titles, s.videoId)} {onAir(s) && <Badge color="grape">On air</Badge>}
        </>
      ),
    },
    { header: 'Start', cell: (s) => wall(s.start) },
    { header: 'End', cell: (s) => wall(s.end) },
    { header: 'URI', cell: (s) => s.uri || '—', style: { wordBreak: 'break-all' } },
    {
      header: 'Actions',
      cell: (s) => (
        <Group gap={4} wrap="nowrap">
          <Button size="compact-sm" variant="light" aria-label={`Edit live stream ${s.id}`} onClick={() => setEditing(s)}>
            Edit
          </Button>
          {onAir(s) && (
            <Button size="compact-sm" variant="light" color="orange" aria-label={`End live stream ${s.id} now`} onClick={() => act.mutate({ streamId: s.id, what: 'end' })}>
              End now
            </Button>
          )}
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            aria-label={`Delete live stream ${s.id}`}
            onClick={() => window.confirm('Delete this live stream?') && act.mutate({ streamId: s.id, what: 'delete' })}
          >
            Delete
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <Group>
        <Button onClick={() => setEditing('new')}>New live stream</Button>
        <Text size="sm">Times in {zone}</Text>
      </Group>
      {act.error ? <FormAlert error={act.error} /> : null}
      <Loaded query={streams} label="Loading live streams">
        {(items) =>
          items.length === 0 ? (
            <Text>No live streams on this channel.</Text>
          ) : (
            <>
              <DataTable label="Live streams" columns={columns} rows={items.slice((page - 1) * PER_PAGE, page * PER_PAGE)} rowKey={(s) => s.id} minWidth={720} striped />
              {items.length > PER_PAGE && <Pagination total={Math.ceil(items.length / PER_PAGE)} value={page} onChange={setPage} aria-label="Pages" />}
            </>
          )
        }
      </Loaded>
      {editing && (
        <StreamForm
          channelId={channelId}
          zone={zone}
          stream={editing === 'new' ? null : editing}
          title={editing === 'new' ? undefined : titleOf(titles, editing.videoId)}
          onClose={() => setEditing(null)}
          onSaved={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

const FIELDS = ['videoId', 'start', 'end', 'uri'];

function StreamForm(props: { channelId: number; zone: string; stream: LiveStream | null; title: string | undefined; onClose: () => void; onSaved: () => void }) {
  const { channelId, stream, zone } = props;
  const [video, setVideo] = useState<Chosen[]>(stream ? [{ id: stream.videoId, title: props.title ?? `Video #${stream.videoId}` }] : []);
  const [start, setStart] = useState(stream ? instantToLocalInput(stream.start, zone) : '');
  const [end, setEnd] = useState(stream ? instantToLocalInput(stream.end, zone) : '');
  const [uri, setUri] = useState(stream?.uri ?? '');
  const [key] = useState(newIdempotencyKey);
  // The ETag of the stream as it is when the form opens (the list carries none).
  const read = useLiveStream(channelId, stream?.id);
  const [etag, setEtag] = useState<string | undefined>();
  if (read.isFetchedAfterMount && etag === undefined && read.data) setEtag(read.data.etag);
  const create = useCreateLiveStream(channelId);
  const update = useUpdateLiveStream(channelId);
  const submit = useSubmit(async () => {
    const instant = (v: string) => (v ? (localInputToInstant(v, zone) ?? v) : v);
    const body = { videoId: video[0]?.id as number, start: instant(start), end: instant(end), uri };
    if (stream) await update.mutateAsync({ streamId: stream.id, body, etag });
    else await create.mutateAsync({ body, key });
    props.onSaved();
  });
  const error = submit.error ?? read.error;

  return (
    <Modal opened onClose={props.onClose} title={stream ? `Live stream ${stream.id}` : 'New live stream'} size="lg">
      <form onSubmit={submit.onSubmit()}>
        <Stack gap="sm">
          <FormAlert error={error} fields={FIELDS} />
          <VideoPicker label="Video" single value={video} onChange={setVideo} error={fieldError(error, 'videoId')} />
          <TextInput
            label={`Start (${zone})`}
            description="yyyy-MM-ddTHH:mm"
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
            error={fieldError(error, 'start')}
            required
          />
          <TextInput label={`End (${zone})`} description="yyyy-MM-ddTHH:mm" value={end} onChange={(e) => setEnd(e.currentTarget.value)} error={fieldError(error, 'end')} required />
          <TextInput label="Stream URI" value={uri} onChange={(e) => setUri(e.currentTarget.value)} error={fieldError(error, 'uri')} />
          <Button type="submit" loading={submit.busy}>
            {stream ? 'Save live stream' : 'Create live stream'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
