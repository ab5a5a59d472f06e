import { Title } from '@mantine/core';

export function VideosScreen(_props: { rest: string[] }) {
  return <Title order={2}>Videos</Title>;
}
