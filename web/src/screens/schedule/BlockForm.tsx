// Creating or editing one schedule block: start (picked, the keyboard's way to move a block), videos,
// published and daily toggles; create with an Idempotency-Key, save with If-Match, and the API's
// conflict (409) and stale (412) answers in words, with "Allow overlap" offered after a conflict;
// the answer scrolls into view and takes the focus (it sits above the fields). Its videos are
// reordered by dragging or with each row's up and down buttons, saved with the block.
import { Button, Checkbox, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError, newIdempotencyKey, type Answer } from '../../api/client.ts';
import { useBlock, useCreateBlock, useDeleteBlock, useUpdateBlock } from '../../api/schedules.ts';
import type { Block, BlockPatch } from '../../api/types.ts';
import { titleOf, useVideoTitles } from '../../api/videos.ts';
import { FormAlert, fieldError } from '../../ui/errors.tsx';
import { allOf, Loaded } from '../../ui/Loaded.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { VideoPicker, type Chosen } from './VideoPicker.tsx';

export type BlockFormTarget = { kind: 'new'; startTime: string } | { kind: 'edit'; blockId: number };

const FIELDS = ['startTime', 'videoIds', 'published', 'loopDaily'];

interface Props {
  channelId: number;
  zone: string;
  target: BlockFormTarget;
  onClose: () => void;
  onSaved: () => void;
}

export function BlockForm(props: Props) {
  const { target } = props;
  const title = target.kind === 'new' ? 'New block' : 'Edit block';
  return (
    <Modal opened onClose={props.onClose} title={title} size="lg">
      {target.kind === 'new' ? <Fields {...props} read={undefined} titles={undefined} /> : <EditFields {...props} blockId={target.blockId} />}
    </Modal>
  );
}

/** An edit starts from the block read when the form opened, its videos titled. */
function EditFields(props: Props & { blockId: number }) {
  const read = useBlock(props.channelId, props.blockId);
  const titles = useVideoTitles(read.data?.data.videoIds ?? []);
  return (
    <Loaded query={allOf({ read, titles })} label="Loading block" fresh>
      {({ read, titles }) => <Fields {...props} read={read} titles={titles} />}
    </Loaded>
  );
}

function Fields({ channelId, zone, target, onSaved, read, titles }: Props & { read: Answer<Block> | undefined; titles: ReadonlyMap<number, string> | undefined }) {
  const stored = read?.data;
  const [start, setStart] = useState((target.kind === 'new' ? target.startTime : (stored?.startTime ?? '')).slice(0, 16));
  const [videos, setVideos] = useState<Chosen[]>(() => (stored?.videoIds ?? []).map((id) => ({ id, title: titleOf(titles, id) })));
  const [published, setPublished] = useState(stored?.published ?? true);
  const [loopDaily, setLoopDaily] = useState(stored?.loopDaily ?? false);
  const [allowOverlap, setAllowOverlap] = useState(false);
  const [key] = useState(newIdempotencyKey);
  const create = useCreateBlock(channelId);
  const update = useUpdateBlock(channelId);
  const remove = useDeleteBlock(channelId);
  const etag = read?.etag;
  const blockId = target.kind === 'edit' ? target.blockId : 0;

  const submit = useSubmit(async (action: 'save' | 'toggle' | 'delete') => {
    if (action === 'delete') await remove.mutateAsync({ blockId, etag });
    else if (action === 'toggle') await update.mutateAsync({ blockId, body: { published: !published }, etag });
    else if (target.kind === 'new') await create.mutateAsync({ body: body(), key });
    else await update.mutateAsync({ blockId, body: body(), etag });
    onSaved();
  });
  const { error, busy } = submit;
  const conflicted = error instanceof ApiError && error.code === 'schedule_conflict';
  // Once offered, "Allow overlap" stays until the form closes.
  const [offered, setOffered] = useState(false);
  if (conflicted && !offered) setOffered(true);

  // The refusal is read where the eye is: scrolled to and focused (a long video list scrolls the dialog past it).
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!error) return;
    alert.current?.scrollIntoView({ block: 'nearest' });
    alert.current?.focus();
  }, [error]);

  const wall = start.length === 16 ? `${start}:00` : start;
  const body = (): BlockPatch & { startTime: string; videoIds: number[] } => ({
    startTime: wall,
    videoIds: videos.map((v) => v.id),
    published,
    loopDaily,
    ...(allowOverlap ? { allowOverlap: true } : {}),
  });

  return (
    <form onSubmit={submit.onSubmit('save')}>
      <Stack gap="sm">
        <div ref={alert} tabIndex={-1} style={{ outline: 'none' }}>
          <FormAlert error={error} fields={FIELDS} />
        </div>
        <TextInput
          type="datetime-local"
          label={`Start time (${zone})`}
          description="Picked in the channel's zone; change it to move the block"
          value={start}
          onChange={(e) => setStart(e.currentTarget.value)}
          error={fieldError(error, 'startTime')}
          required
        />
        <VideoPicker value={videos} onChange={setVideos} error={fieldError(error, 'videoIds')} sortable />
        <Group>
          <Checkbox label="Published" checked={published} onChange={(e) => setPublished(e.currentTarget.checked)} />
          <Checkbox label="Repeats daily" checked={loopDaily} onChange={(e) => setLoopDaily(e.currentTarget.checked)} />
          {offered && <Checkbox label="Allow overlap" checked={allowOverlap} onChange={(e) => setAllowOverlap(e.currentTarget.checked)} />}
        </Group>
        <Group justify="space-between">
          <Group>
            <Button type="submit" loading={busy}>
              {target.kind === 'new' ? 'Create block' : 'Save block'}
            </Button>
            {target.kind === 'edit' && (
              <Button variant="light" disabled={busy} onClick={() => void submit.run('toggle')}>
                {published ? 'Unpublish' : 'Publish'}
              </Button>
            )}
          </Group>
          {target.kind === 'edit' && (
            <Button color="red" variant="outline" disabled={busy} onClick={() => window.confirm('Delete this block?') && void submit.run('delete')}>
              Delete block
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
