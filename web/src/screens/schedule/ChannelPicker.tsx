// The owner's channels as a labelled select.
import { Loader, Select } from '@mantine/core';
import type { Channel } from '../../api/types.ts';

export function ChannelPicker(props: { channels: Channel[] | undefined; value: number | undefined; onChange: (id: number) => void }) {
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
