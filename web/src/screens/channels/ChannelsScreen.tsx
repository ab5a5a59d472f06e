import { Title } from '@mantine/core';

export function ChannelsScreen(_props: { rest: string[] }) {
  return <Title order={2}>Channels</Title>;
}
