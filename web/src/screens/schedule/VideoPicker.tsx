// Choosing videos by search (GET /videos?q=): results as "Add" buttons, the chosen list in order
// with remove buttons, all real buttons so the keyboard alone works. `sortable`: the chosen list
// is reordered by dragging a row's handle or with its up and down buttons (SortableList), each
// move announced by title and position.
import { Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import type { Video } from '../../api/types.ts';
import { useVideoPage } from '../../api/videos.ts';
import { SortableList } from '../../ui/SortableList.tsx';
import { Thumbnail } from '../../ui/Thumbnail.tsx';

export interface Chosen {
  id: number;
  title: string;
}

export function VideoPicker(props: { value: Chosen[]; onChange: (v: Chosen[]) => void; single?: boolean; error?: string | undefined; label?: string; sortable?: boolean }) {
  const [q, setQ] = useState('');
  // A row's key for the sortable list: one per chosen entry (the same video may be chosen twice), kept across moves.
  const keys = useRef(new WeakMap<Chosen, number>());
  const next = useRef(1);
  const keyOf = (c: Chosen) => {
    let key = keys.current.get(c);
    if (key === undefined) keys.current.set(c, (key = next.current++));
    return key;
  };
  const [search] = useDebouncedValue(q.trim(), 200);
  const found = useVideoPage({ q: search || undefined, per_page: 8 });
  const results = found.isError ? [] : (found.data?.items ?? []);
  const loading = found.isFetching || search !== q.trim();

  const add = (v: Video) => props.onChange(props.single ? [{ id: v.id, title: v.title }] : [...props.value, { id: v.id, title: v.title }]);
  // A chosen video's Remove button goes with it once pressed, which would drop the focus to the
  // page: it moves to the Remove button now in its place (the next video's), else the previous
  // one's, else the search field. Done once the list shows the removal.
  const root = useRef<HTMLDivElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const removed = useRef<{ at: number; left: number } | null>(null);
  useEffect(() => {
    const r = removed.current;
    if (r === null || props.value.length !== r.left) return;
    removed.current = null;
    const buttons = root.current?.querySelectorAll<HTMLElement>('[data-chosen-remove]') ?? [];
    (buttons[Math.min(r.at, buttons.length - 1)] ?? searchField.current)?.focus();
  });
  const remove = (i: number) => {
    removed.current = { at: i, left: props.value.length - 1 };
    props.onChange(props.value.filter((_, j) => j !== i));
  };
  return (
    <Stack gap={4} ref={root}>
      <Text size="sm" fw={500}>
        {props.label ?? 'Videos'} ({props.value.length} chosen)
      </Text>
      {props.value.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet: search below.
        </Text>
      ) : props.sortable ? (
        <SortableList
          items={props.value}
          idOf={keyOf}
          nameOf={(v) => v.title}
          label={props.label ?? 'Videos'}
          onChange={props.onChange}
          render={(v, i) => (
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" style={{ flex: 1 }}>
                {i + 1}. {v.title}
              </Text>
              <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${v.title}`} data-chosen-remove onClick={() => remove(i)}>
                Remove
              </Button>
            </Group>
          )}
        />
      ) : (
        props.value.map((v, i) => (
          <Group key={`${v.id}-${i}`} gap="xs" wrap="nowrap">
            <Text size="sm" style={{ flex: 1 }}>
              {i + 1}. {v.title} (#{v.id})
            </Text>
            <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${v.title}`} data-chosen-remove onClick={() => remove(i)}>
              Remove
            </Button>
          </Group>
        ))
      )}
      {props.error && (
        <Text size="sm" c="red">
          {props.error}
        </Text>
      )}
      <TextInput ref={searchField} label="Search videos" value={q} onChange={(e) => setQ(e.currentTarget.value)} rightSection={loading ? <Loader size="xs" /> : null} />
      <Group gap={4}>
        {results.map((v) => (
          <Button key={v.id} size="compact-sm" variant="light" aria-label={`Add ${v.title}`} onClick={() => add(v)} leftSection={<Thumbnail url={v.thumbnailUrl} width={32} />}>
            + {v.title}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
