import { Title } from '@mantine/core';

export function LiveStreamsScreen(_props: { rest: string[] }) {
  return <Title order={2}>Live streams</Title>;
}
