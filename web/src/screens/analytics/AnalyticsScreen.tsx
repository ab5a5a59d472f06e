import { Title } from '@mantine/core';

export function AnalyticsScreen(_props: { rest: string[] }) {
  return <Title order={2}>Analytics</Title>;
}
