import { Title } from '@mantine/core';

export function CatalogScreen(_props: { rest: string[] }) {
  return <Title order={2}>Import &amp; export</Title>;
}
