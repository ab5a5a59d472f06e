// A channel's library or VOD catalog: ordered video ids, replaced whole on save (PUT with the
// ETag it was read with). Add videos by searching the owner's videos; drag to reorder; remove.
import { Alert, Button, Combobox, Group, Loader, Stack, Text, TextInput, Title, useCombobox, CloseButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { studio } from '../../api/client.ts';
import type { Page, Video } from '../../api/types.ts';
import { formMessage } from '../../ui/errors.tsx';
import { SortableList } from '../../ui/SortableList.tsx';

type Listed = { id: number; title: string };

export function VideoListEditor({ channelId, list, title }: { channelId: number; list: 'library' | 'vod'; title: string }) {
  const [items, setItems] = useState<Listed[] | null>(null);
  const [etag, setEtag] = useState<string | undefined>();
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    (async () => {
      const answer = await studio<{ videoIds: number[] }>(`/channels/${channelId}/${list}`);
      setEtag(answer.etag);
      setItems(await titled(answer.data.videoIds));
    })().catch(setError);
  }, [channelId, list]);

  const change = (next: Listed[]) => {
    setItems(next);
    setDirty(true);
    setSaved(false);
  };

  async function save() {
    if (!items) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await studio<{ videoIds: number[] }>(`/channels/${channelId}/${list}`, { method: 'PUT', body: { videoIds: items.map((v) => v.id) }, ifMatch: etag });
      setEtag(answer.etag);
      setDirty(false);
      setSaved(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  if (!items) return error ? <Alert color="red">{formMessage(error)}</Alert> : <Loader aria-label="Loading videos" />;
  return (
    <Stack>
      <Title order={3} size="h4">
        {title}
      </Title>
      <AddVideo exclude={items.map((v) => v.id)} label={list === 'library' ? 'Add a video to the library' : 'Add a video to the VOD catalog'} onAdd={(video) => change([...items, video])} />
      {items.length === 0 ? (
        <Text c="dimmed">No videos yet.</Text>
      ) : (
        <SortableList
          label={list === 'library' ? 'Library videos' : 'VOD catalog videos'}
          items={items}
          idOf={(v) => v.id}
          nameOf={(v) => v.title}
          onChange={change}
          render={(v) => (
            <Group justify="space-between" wrap="nowrap">
              <Text truncate>
                {v.title} <Text span c="dimmed" size="xs">#{v.id}</Text>
              </Text>
              <CloseButton aria-label={`Remove ${v.title}`} onClick={() => change(items.filter((x) => x.id !== v.id))} />
            </Group>
          )}
        />
      )}
      {error ? <Alert color="red" role="alert">{formMessage(error)}</Alert> : null}
      {saved ? <Alert color="green">Saved.</Alert> : null}
      <Group>
        <Button onClick={save} disabled={!dirty} loading={busy}>
          Save order
        </Button>
        {dirty ? <Text size="sm" c="dimmed">Unsaved changes</Text> : null}
      </Group>
    </Stack>
  );
}

/** Titles for ids, from the owner's video pages (ids without a title show as "Video #id"). */
async function titled(ids: number[]): Promise<Listed[]> {
  const titles = new Map<number, string>();
  for (let page = 1; titles.size < ids.length; page++) {
    const { data } = await studio<Page<Video>>('/videos', { query: { page, per_page: 500 } });
    for (const v of data.items) titles.set(v.id, v.title);
    if (page * 500 >= data.total) break;
  }
  return ids.map((id) => ({ id, title: titles.get(id) ?? `Video #${id}` }));
}

function AddVideo({ exclude, label, onAdd }: { exclude: number[]; label: string; onAdd: (video: Listed) => void }) {
  const combobox = useCombobox();
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query, 200);
  const [found, setFound] = useState<Video[]>([]);
  useEffect(() => {
    studio<Page<Video>>('/videos', { query: { q: search, per_page: 20 } }).then(({ data }) => setFound(data.items), () => setFound([]));
  }, [search]);
  const options = found.filter((v) => !exclude.includes(v.id));
  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        const video = found.find((v) => String(v.id) === value);
        if (video) onAdd({ id: video.id, title: video.title });
        setQuery('');
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          label={label}
          placeholder="Search your videos"
          value={query}
          maw={420}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          {options.length === 0 ? <Combobox.Empty>No videos found</Combobox.Empty> : options.map((v) => <Combobox.Option key={v.id} value={String(v.id)}>{v.title} (#{v.id})</Combobox.Option>)}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
