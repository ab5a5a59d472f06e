// Videos: the owner's library of videos, searchable and paginated; add one, paste a list, edit,
// see where a video is used, delete (refused in words while it is used).
import { Alert, Badge, Button, Group, Loader, Modal, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useState } from 'react';
import { newIdempotencyKey, studio } from '../../api/client.ts';
import type { Page, Video } from '../../api/types.ts';
import { formMessage } from '../../ui/errors.tsx';
import { PasteVideos } from './PasteVideos.tsx';
import { formatDuration } from './paste.ts';
import { VideoDetails } from './VideoDetails.tsx';
import { VideoForm } from './VideoForm.tsx';

const PER_PAGE = 25;

export function VideosScreen(_props: { rest: string[] }) {
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query, 250);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<Page<Video> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [dialog, setDialog] = useState<'add' | 'paste' | { videoId: number } | null>(null);

  const load = useCallback(async () => {
    try {
      const { data } = await studio<Page<Video>>('/videos', { query: { q: search, page, per_page: PER_PAGE } });
      setList(data);
      setError(null);
    } catch (failure) {
      setError(failure);
    }
  }, [search, page]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => setPage(1), [search]);

  const close = () => {
    setDialog(null);
    void load();
  };
  const pages = list ? Math.max(1, Math.ceil(list.total / PER_PAGE)) : 1;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Videos</Title>
        <Group>
          <Button onClick={() => setDialog('add')}>Add video</Button>
          <Button variant="light" onClick={() => setDialog('paste')}>
            Paste a list
          </Button>
        </Group>
      </Group>
      <TextInput label="Search videos" placeholder="Title, description or provider id" value={query} onChange={(e) => setQuery(e.currentTarget.value)} maw={420} />
      {error ? <Alert color="red">{formMessage(error)}</Alert> : null}
      {!list ? (
        <Loader aria-label="Loading videos" />
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {list.total === 1 ? '1 video' : `${list.total} videos`}
          </Text>
          <Table.ScrollContainer minWidth={560}>
            <Table striped highlightOnHover aria-label="Videos">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Id</Table.Th>
                  <Table.Th>Title</Table.Th>
                  <Table.Th>Duration</Table.Th>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.items.map((video) => (
                  <Table.Tr key={video.id}>
                    <Table.Td>{video.id}</Table.Td>
                    <Table.Td>
                      {video.title} {video.isPrivate ? <Badge size="xs">private</Badge> : null}
                    </Table.Td>
                    <Table.Td>{formatDuration(video.durationSeconds)}</Table.Td>
                    <Table.Td>
                      {video.providerName} {video.providerVideoId}
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="subtle" onClick={() => setDialog({ videoId: video.id })} aria-label={`Edit ${video.title}`}>
                        Edit
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} aria-label="Video pages" /> : null}
        </>
      )}
      <Modal opened={dialog === 'add'} onClose={() => setDialog(null)} title="Add a video" size="lg">
        <VideoForm
          submitLabel="Add video"
          onCancel={() => setDialog(null)}
          onSubmit={async (video) => {
            await studio('/videos', { method: 'POST', body: video, idempotencyKey: newIdempotencyKey() });
            close();
          }}
        />
      </Modal>
      <Modal opened={dialog === 'paste'} onClose={() => setDialog(null)} title="Paste a list of videos" size="xl">
        <PasteVideos onDone={close} onCancel={() => setDialog(null)} />
      </Modal>
      <Modal opened={typeof dialog === 'object' && dialog !== null} onClose={() => setDialog(null)} title="Edit video" size="lg">
        {typeof dialog === 'object' && dialog !== null ? <VideoDetails videoId={dialog.videoId} onDone={close} /> : null}
      </Modal>
    </Stack>
  );
}
