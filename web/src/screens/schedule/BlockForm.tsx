// Creating or editing one schedule block: start (the keyboard's way to move a block), videos,
// published and daily toggles; create with an Idempotency-Key, save with If-Match, and the API's
// conflict (409) and stale (412) answers in words, with "Allow overlap" offered after a conflict.
import { Button, Checkbox, Group, Loader, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError, newIdempotencyKey, studio } from '../../api/client.ts';
import type { Block } from '../../api/types.ts';
import { FormAlert, fieldError } from '../../ui/errors.tsx';
import { VideoPicker, type Chosen } from './VideoPicker.tsx';

export type BlockFormTarget = { kind: 'new'; startTime: string } | { kind: 'edit'; blockId: number };

const FIELDS = ['startTime', 'videoIds', 'published', 'loopDaily'];

export function BlockForm(props: { channelId: number; zone: string; target: BlockFormTarget; onClose: () => void; onSaved: () => void }) {
  const { channelId, target } = props;
  const [start, setStart] = useState(target.kind === 'new' ? target.startTime.slice(0, 16) : '');
  const [videos, setVideos] = useState<Chosen[]>([]);
  const [published, setPublished] = useState(true);
  const [loopDaily, setLoopDaily] = useState(false);
  const [allowOverlap, setAllowOverlap] = useState(false);
  const [etag, setEtag] = useState<string | undefined>();
  const [loading, setLoading] = useState(target.kind === 'edit');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [conflicted, setConflicted] = useState(false);
  const [key] = useState(newIdempotencyKey);

  useEffect(() => {
    if (target.kind !== 'edit') return;
    (async () => {
      const answer = await studio<Block>(`/channels/${channelId}/schedules/${target.blockId}`);
      const b = answer.data;
      setEtag(answer.etag);
      setStart(b.startTime.slice(0, 16));
      setPublished(b.published ?? true);
      setLoopDaily(b.loopDaily ?? false);
      const titles = await Promise.all(
        [...new Set(b.videoIds)].map((id) =>
          studio<{ id: number; title: string }>(`/videos/${id}`)
            .then((a) => [id, a.data.title] as const)
            .catch(() => [id, `Video ${id}`] as const),
        ),
      );
      const byId = new Map(titles);
      setVideos(b.videoIds.map((id) => ({ id, title: byId.get(id) ?? `Video ${id}` })));
    })()
      .catch(setError)
      .finally(() => setLoading(false));
  }, [channelId, target]);

  const wall = start.length === 16 ? `${start}:00` : start;

  async function send(body: Record<string, unknown>, method: 'POST' | 'PATCH') {
    setBusy(true);
    setError(null);
    try {
      if (method === 'POST') await studio(`/channels/${channelId}/schedules`, { method, body, idempotencyKey: key });
      else await studio(`/channels/${channelId}/schedules/${(target as { blockId: number }).blockId}`, { method, body, ifMatch: etag });
      props.onSaved();
    } catch (e) {
      setError(e);
      if (e instanceof ApiError && e.code === 'schedule_conflict') setConflicted(true);
    } finally {
      setBusy(false);
    }
  }

  const body = () => ({ startTime: wall, videoIds: videos.map((v) => v.id), published, loopDaily, ...(allowOverlap ? { allowOverlap: true } : {}) });

  async function remove() {
    if (target.kind !== 'edit' || !window.confirm('Delete this block?')) return;
    setBusy(true);
    setError(null);
    try {
      await studio(`/channels/${channelId}/schedules/${target.blockId}`, { method: 'DELETE', ifMatch: etag });
      props.onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const title = target.kind === 'new' ? 'New block' : `Block ${target.blockId}`;
  return (
    <Modal opened onClose={props.onClose} title={title} size="lg">
      {loading ? (
        <Loader aria-label="Loading block" />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send(body(), target.kind === 'new' ? 'POST' : 'PATCH');
          }}
        >
          <Stack gap="sm">
            <FormAlert error={error} fields={FIELDS} />
            <TextInput
              label={`Start time (${props.zone})`}
              description="yyyy-MM-ddTHH:mm in the channel's zone; change it to move the block"
              value={start}
              onChange={(e) => setStart(e.currentTarget.value)}
              error={fieldError(error, 'startTime')}
              required
            />
            <VideoPicker value={videos} onChange={setVideos} error={fieldError(error, 'videoIds')} />
            <Group>
              <Checkbox label="Published" checked={published} onChange={(e) => setPublished(e.currentTarget.checked)} />
              <Checkbox label="Repeats daily" checked={loopDaily} onChange={(e) => setLoopDaily(e.currentTarget.checked)} />
              {conflicted && <Checkbox label="Allow overlap" checked={allowOverlap} onChange={(e) => setAllowOverlap(e.currentTarget.checked)} />}
            </Group>
            <Group justify="space-between">
              <Group>
                <Button type="submit" loading={busy}>
                  {target.kind === 'new' ? 'Create block' : 'Save block'}
                </Button>
                {target.kind === 'edit' && (
                  <Button variant="light" disabled={busy} onClick={() => void send({ published: !published }, 'PATCH')}>
                    {published ? 'Unpublish' : 'Publish'}
                  </Button>
                )}
              </Group>
              {target.kind === 'edit' && (
                <Button color="red" variant="outline" disabled={busy} onClick={() => void remove()}>
                  Delete block
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
