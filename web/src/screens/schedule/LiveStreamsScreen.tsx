// Live streams of a channel (#/live-streams/{channelId}): the list, create, edit (If-Match),
// end now (end = now), delete. Times are entered and shown in the channel's zone.
import { Badge, Button, Group, Loader, Modal, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { newIdempotencyKey, studio } from '../../api/client.ts';
import { navigate } from '../../router.ts';
import { FormAlert, fieldError } from '../../ui/errors.tsx';
import { ChannelPicker, useChannels } from './ChannelPicker.tsx';
import { instantToLocalInput, localInputToInstant } from './geometry.ts';
import { VideoPicker, type Chosen } from './VideoPicker.tsx';

interface Stream {
  id: number;
  videoId: number;
  start: string;
  end: string;
  uri: string;
}

const PER_PAGE = 20;

export function LiveStreamsScreen({ rest }: { rest: string[] }) {
  const { channels, error: channelsError } = useChannels();
  const channelId = rest[0] ? Number(rest[0]) : channels?.[0]?.id;
  const channel = channels?.find((c) => c.id === channelId);
  return (
    <Stack>
      <Title order={2}>Live streams</Title>
      {channelsError ? <FormAlert error={channelsError} /> : null}
      <ChannelPicker channels={channels} value={channelId} onChange={(id) => navigate('live-streams', id)} />
      {channel && <Streams key={channel.id} channelId={channel.id} zone={channel.timezone ?? 'UTC'} />}
    </Stack>
  );
}

function Streams({ channelId, zone }: { channelId: number; zone: string }) {
  const [items, setItems] = useState<Stream[] | null>(null);
  const [titles, setTitles] = useState<Map<number, string>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Stream | 'new' | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    studio<{ items: Stream[] }>(`/channels/${channelId}/live-streams`)
      .then(async (a) => {
        setItems(a.data.items);
        const ids = [...new Set(a.data.items.map((s) => s.videoId))];
        const named = await Promise.all(ids.map((id) => studio<{ title: string }>(`/videos/${id}`).then((v) => [id, v.data.title] as const).catch(() => [id, `Video ${id}`] as const)));
        setTitles(new Map(named));
      })
      .catch(setError);
  }, [channelId, version]);

  async function act(stream: Stream, what: 'end' | 'delete') {
    if (what === 'delete' && !window.confirm('Delete this live stream?')) return;
    setError(null);
    try {
      const current = await studio<Stream>(`/channels/${channelId}/live-streams/${stream.id}`);
      if (what === 'end') await studio(`/channels/${channelId}/live-streams/${stream.id}`, { method: 'PATCH', body: { end: new Date().toISOString() }, ifMatch: current.etag });
      else await studio(`/channels/${channelId}/live-streams/${stream.id}`, { method: 'DELETE', ifMatch: current.etag });
    } catch (e) {
      setError(e);
    }
    reload();
  }

  const shown = (items ?? []).slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const now = Date.now();
  return (
    <Stack gap="sm">
      <Group>
        <Button onClick={() => setEditing('new')}>New live stream</Button>
        <Text size="sm">Times in {zone}</Text>
      </Group>
      {error ? <FormAlert error={error} /> : null}
      {!items ? (
        <Loader aria-label="Loading live streams" />
      ) : items.length === 0 ? (
        <Text>No live streams on this channel.</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table striped aria-label="Live streams">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Video</Table.Th>
                  <Table.Th>Start</Table.Th>
                  <Table.Th>End</Table.Th>
                  <Table.Th>URI</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((s) => {
                  const onAir = Date.parse(s.start) <= now && now < Date.parse(s.end);
                  const title = titles.get(s.videoId) ?? `Video ${s.videoId}`;
                  return (
                    <Table.Tr key={s.id}>
                      <Table.Td>
                        {title} {onAir && <Badge color="grape">On air</Badge>}
                      </Table.Td>
                      <Table.Td>{instantToLocalInput(s.start, zone).replace('T', ' ')}</Table.Td>
                      <Table.Td>{instantToLocalInput(s.end, zone).replace('T', ' ')}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>{s.uri || '—'}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button size="compact-sm" variant="light" aria-label={`Edit live stream ${s.id}`} onClick={() => setEditing(s)}>
                            Edit
                          </Button>
                          {onAir && (
                            <Button size="compact-sm" variant="light" color="orange" aria-label={`End live stream ${s.id} now`} onClick={() => void act(s, 'end')}>
                              End now
                            </Button>
                          )}
                          <Button size="compact-sm" variant="subtle" color="red" aria-label={`Delete live stream ${s.id}`} onClick={() => void act(s, 'delete')}>
                            Delete
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {items.length > PER_PAGE && <Pagination total={Math.ceil(items.length / PER_PAGE)} value={page} onChange={setPage} aria-label="Pages" />}
        </>
      )}
      {editing && (
        <StreamForm
          channelId={channelId}
          zone={zone}
          stream={editing === 'new' ? null : editing}
          title={editing === 'new' ? undefined : titles.get(editing.videoId)}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      )}
    </Stack>
  );
}

const FIELDS = ['videoId', 'start', 'end', 'uri'];

function StreamForm(props: { channelId: number; zone: string; stream: Stream | null; title: string | undefined; onClose: () => void; onSaved: () => void }) {
  const { stream, zone } = props;
  const [video, setVideo] = useState<Chosen[]>(stream ? [{ id: stream.videoId, title: props.title ?? `Video ${stream.videoId}` }] : []);
  const [start, setStart] = useState(stream ? instantToLocalInput(stream.start, zone) : '');
  const [end, setEnd] = useState(stream ? instantToLocalInput(stream.end, zone) : '');
  const [uri, setUri] = useState(stream?.uri ?? '');
  const [etag, setEtag] = useState<string | undefined>();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [key] = useState(newIdempotencyKey);

  useEffect(() => {
    if (stream) studio<Stream>(`/channels/${props.channelId}/live-streams/${stream.id}`).then((a) => setEtag(a.etag)).catch(setError);
  }, [props.channelId, stream]);

  async function save() {
    setBusy(true);
    setError(null);
    const instant = (v: string) => (v ? localInputToInstant(v, zone) ?? v : v);
    const body = { videoId: video[0]?.id, start: instant(start), end: instant(end), uri };
    try {
      if (stream) await studio(`/channels/${props.channelId}/live-streams/${stream.id}`, { method: 'PATCH', body, ifMatch: etag });
      else await studio(`/channels/${props.channelId}/live-streams`, { method: 'POST', body, idempotencyKey: key });
      props.onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={props.onClose} title={stream ? `Live stream ${stream.id}` : 'New live stream'} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <FormAlert error={error} fields={FIELDS} />
          <VideoPicker label="Video" single value={video} onChange={setVideo} error={fieldError(error, 'videoId')} />
          <TextInput label={`Start (${zone})`} description="yyyy-MM-ddTHH:mm" value={start} onChange={(e) => setStart(e.currentTarget.value)} error={fieldError(error, 'start')} required />
          <TextInput label={`End (${zone})`} description="yyyy-MM-ddTHH:mm" value={end} onChange={(e) => setEnd(e.currentTarget.value)} error={fieldError(error, 'end')} required />
          <TextInput label="Stream URI" value={uri} onChange={(e) => setUri(e.currentTarget.value)} error={fieldError(error, 'uri')} />
          <Button type="submit" loading={busy}>
            {stream ? 'Save live stream' : 'Create live stream'}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
