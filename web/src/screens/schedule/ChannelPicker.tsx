// The owner's channels (GET /channels, paged through) as a labelled select.
import { Loader, Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import { studio } from '../../api/client.ts';
import type { Channel, Page } from '../../api/types.ts';

export function useChannels(): { channels: Channel[] | null; error: unknown } {
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    (async () => {
      const all: Channel[] = [];
      for (let page = 1; ; page++) {
        const { data } = await studio<Page<Channel>>('/channels', { query: { page, per_page: 100 } });
        all.push(...data.items);
        if (all.length >= data.total || data.items.length === 0) break;
      }
      setChannels(all);
    })().catch(setError);
  }, []);
  return { channels, error };
}

export function ChannelPicker(props: { channels: Channel[] | null; value: number | undefined; onChange: (id: number) => void }) {
  if (!props.channels) return <Loader size="sm" aria-label="Loading channels" />;
  return (
    <Select
      label="Channel"
      searchable
      w={{ base: '100%', sm: 320 }}
      data={props.channels.map((c) => ({ value: String(c.id), label: `${c.name} (#${c.id}, ${c.timezone})` }))}
      value={props.value === undefined ? null : String(props.value)}
      onChange={(v) => v && props.onChange(Number(v))}
      allowDeselect={false}
    />
  );
}
