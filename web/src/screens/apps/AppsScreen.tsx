import { Title } from '@mantine/core';

export function AppsScreen(_props: { rest: string[] }) {
  return <Title order={2}>Apps</Title>;
}
