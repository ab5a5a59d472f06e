// A channel's library or VOD catalog: ordered video ids, replaced whole on save (PUT with the
// ETag it was read with). Add videos by searching the owner's videos; drag to reorder; remove.
// Changes wait for "Save order" (one PUT of the whole list); leaving before it asks first.
import { Alert, Button, Combobox, Group, Stack, Text, TextInput, Title, useCombobox, CloseButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { usePutVideoList, useVideoList } from '../../api/channels.ts';
import type { Answer } from '../../api/client.ts';
import type { VideoList } from '../../api/types.ts';
import { titleOf, useVideoPage, useVideoTitles } from '../../api/videos.ts';
import { Thumbnail } from '../../ui/Thumbnail.tsx';
import { formMessage } from '../../ui/errors.tsx';
import { allOf, Loaded } from '../../ui/Loaded.tsx';
import { SortableList } from '../../ui/SortableList.tsx';
import { useSubmit } from '../../ui/submit.ts';
import { useUnsavedChanges } from '../../ui/unsaved.ts';

type Listed = { id: number; title: string };
type Props = { channelId: number; list: 'library' | 'vod'; title: string };

export function VideoListEditor(props: Props) {
  const read = useVideoList(props.channelId, props.list);
  const titles = useVideoTitles(read.data?.data.videoIds ?? []);
  return (
    <Loaded query={allOf({ read, titles })} label="Loading videos" fresh>
      {({ read, titles }) => <Editor {...props} read={read} titles={titles} />}
    </Loaded>
  );
}

function Editor({ channelId, list, title, read, titles }: Props & { read: Answer<VideoList>; titles: ReadonlyMap<number, string> }) {
  const [items, setItems] = useState<Listed[]>(() => read.data.videoIds.map((id) => ({ id, title: titleOf(titles, id) })));
  const [etag, setEtag] = useState(read.etag);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState(false);
  const put = usePutVideoList(channelId, list);
  // An order changed but not saved survives neither a reload nor another screen: both ask first.
  useUnsavedChanges(dirty);
  const submit = useSubmit(async () => {
    setEtag((await put.mutateAsync({ videoIds: items.map((v) => v.id), etag })).etag);
    setDirty(false);
    setSaved(true);
  });

  const change = (next: Listed[]) => {
    setItems(next);
    setDirty(true);
    setSaved(false);
  };

  return (
    <Stack>
      <Title order={3} size="h4">
        {title}
      </Title>
      <AddVideo
        exclude={items.map((v) => v.id)}
        label={list === 'library' ? 'Add a video to the library' : 'Add a video to the VOD catalog'}
        onAdd={(video) => change([...items, video])}
      />
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
                {v.title}{' '}
                <Text span c="dimmed" size="xs">
                  #{v.id}
                </Text>
              </Text>
              <CloseButton aria-label={`Remove ${v.title}`} onClick={() => change(items.filter((x) => x.id !== v.id))} />
            </Group>
          )}
        />
      )}
      {submit.error ? (
        <Alert color="red" role="alert">
          {formMessage(submit.error)}
        </Alert>
      ) : null}
      {saved ? <Alert color="green">Saved.</Alert> : null}
      <Group>
        <Button onClick={() => void submit.run()} disabled={!dirty} loading={submit.busy}>
          Save order
        </Button>
        {dirty ? (
          <Text size="sm" c="dimmed">
            Unsaved changes
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}

function AddVideo({ exclude, label, onAdd }: { exclude: number[]; label: string; onAdd: (video: Listed) => void }) {
  const combobox = useCombobox();
  const [query, setQuery] = useState('');
  const [search] = useDebouncedValue(query, 200);
  const found = useVideoPage({ q: search, per_page: 20 }).data?.items ?? [];
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
          {options.length === 0 ? (
            <Combobox.Empty>No videos found</Combobox.Empty>
          ) : (
            options.map((v) => (
              <Combobox.Option key={v.id} value={String(v.id)}>
                <Group gap="xs" wrap="nowrap">
                  <Thumbnail url={v.thumbnailUrl} width={40} />
                  <span>
                    {v.title} (#{v.id})
                  </span>
                </Group>
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
