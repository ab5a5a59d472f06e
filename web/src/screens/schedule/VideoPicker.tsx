// Choosing videos by search (GET /videos?q=): results as "Add" buttons, the chosen list in order
// with remove buttons, all real buttons so the keyboard alone works.
import { Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { studio } from '../../api/client.ts';
import type { Page, Video } from '../../api/types.ts';

export interface Chosen {
  id: number;
  title: string;
}

export function VideoPicker(props: { value: Chosen[]; onChange: (v: Chosen[]) => void; single?: boolean; error?: string | undefined; label?: string }) {
  const [q, setQ] = useState('');
  const [results, setResults] = useState<Video[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let live = true;
    setLoading(true);
    const timer = setTimeout(() => {
      studio<Page<Video>>('/videos', { query: { q: q.trim() || undefined, per_page: 8 } })
        .then((a) => live && setResults(a.data.items))
        .catch(() => live && setResults([]))
        .finally(() => live && setLoading(false));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);

  const add = (v: Video) => props.onChange(props.single ? [{ id: v.id!, title: v.title }] : [...props.value, { id: v.id!, title: v.title }]);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {props.label ?? 'Videos'} ({props.value.length} chosen)
      </Text>
      {props.value.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet: search below.
        </Text>
      ) : (
        props.value.map((v, i) => (
          <Group key={`${v.id}-${i}`} gap="xs" wrap="nowrap">
            <Text size="sm" style={{ flex: 1 }}>
              {i + 1}. {v.title} (#{v.id})
            </Text>
            <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${v.title}`} onClick={() => props.onChange(props.value.filter((_, j) => j !== i))}>
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
      <TextInput label="Search videos" value={q} onChange={(e) => setQ(e.currentTarget.value)} rightSection={loading ? <Loader size="xs" /> : null} />
      <Group gap={4}>
        {results.map((v) => (
          <Button key={v.id} size="compact-xs" variant="light" aria-label={`Add ${v.title}`} onClick={() => add(v)}>
            + {v.title}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
