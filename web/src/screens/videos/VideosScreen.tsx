// Videos: the owner's library of videos with thumbnails, searchable and paginated; add from pasted
// URLs, add one, paste a list, edit,
// see where a video is used, delete (refused in words while it is used).
import { Badge, Button, Group, Modal, Pagination, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { newIdempotencyKey } from '../../api/client.ts';
import type { Video } from '../../api/types.ts';
import { useCreateVideos, useVideoPage } from '../../api/videos.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { Loaded } from '../../ui/Loaded.tsx';
import { Thumbnail } from '../../ui/Thumbnail.tsx';
import { AddFromUrls } from './AddFromUrls.tsx';
import { PasteVideos } from './PasteVideos.tsx';
import { formatDuration } from '../../ui/duration.ts';
import { VideoDetails } from './VideoDetails.tsx';
import { VideoForm } from './VideoForm.tsx';

const PER_PAGE = 25;

export function VideosScreen(_props: { rest: string[] }) {
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query, 250);
  const [page, setPage] = useState(1);
  const list = useVideoPage({ q: search, page, per_page: PER_PAGE });
  const create = useCreateVideos();
  const [dialog, setDialog] = useState<'add' | 'urls' | 'paste' | { videoId: number } | null>(null);
  useEffect(() => setPage(1), [search]);

  const close = () => setDialog(null);
  const columns: Column<Video>[] = [
    { header: 'Thumbnail', cell: (video) => <Thumbnail url={video.thumbnailUrl} /> },
    { header: 'Id', cell: (video) => video.id },
    {
      header: 'Title',
      cell: (video) => (
        <>
          {video.title} {video.isPrivate ? <Badge size="xs">private</Badge> : null}
        </>
      ),
    },
    { header: 'Duration', cell: (video) => formatDuration(video.durationSeconds) },
    { header: 'Provider', cell: (video) => `${video.providerName} ${video.providerVideoId}` },
    {
      header: '',
      cell: (video) => (
        <Button size="xs" variant="subtle" onClick={() => setDialog({ videoId: video.id })} aria-label={`Edit ${video.title}`}>
          Edit
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Videos</Title>
        <Group>
          <Button onClick={() => setDialog('urls')}>Add from URLs</Button>
          <Button variant="light" onClick={() => setDialog('add')}>
            Add video
          </Button>
          <Button variant="light" onClick={() => setDialog('paste')}>
            Paste a list
          </Button>
        </Group>
      </Group>
      <TextInput label="Search videos" placeholder="Title, description or provider id" value={query} onChange={(e) => setQuery(e.currentTarget.value)} maw={420} />
      <Loaded query={list} label="Loading videos">
        {(videos) => (
          <>
            <Text size="sm" c="dimmed">
              {videos.total === 1 ? '1 video' : `${videos.total} videos`}
            </Text>
            <DataTable label="Videos" columns={columns} rows={videos.items} rowKey={(video) => video.id} minWidth={560} striped highlightOnHover />
            {videos.total > PER_PAGE ? <Pagination total={Math.ceil(videos.total / PER_PAGE)} value={page} onChange={setPage} aria-label="Video pages" /> : null}
          </>
        )}
      </Loaded>
      <Modal opened={dialog === 'add'} onClose={close} title="Add a video" size="lg">
        <VideoForm
          submitLabel="Add video"
          onCancel={close}
          onSubmit={async (video) => {
            await create.mutateAsync({ body: video, key: newIdempotencyKey() });
            close();
          }}
        />
      </Modal>
      <Modal opened={dialog === 'urls'} onClose={close} title="Add videos from URLs" size="xl">
        <AddFromUrls onDone={close} onCancel={close} />
      </Modal>
      <Modal opened={dialog === 'paste'} onClose={close} title="Paste a list of videos" size="xl">
        <PasteVideos onDone={close} onCancel={close} />
      </Modal>
      <Modal opened={typeof dialog === 'object' && dialog !== null} onClose={close} title="Edit video" size="lg">
        {typeof dialog === 'object' && dialog !== null ? <VideoDetails videoId={dialog.videoId} onDone={close} /> : null}
      </Modal>
    </Stack>
  );
}
