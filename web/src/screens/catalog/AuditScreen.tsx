import { Title } from '@mantine/core';

export function AuditScreen(_props: { rest: string[] }) {
  return <Title order={2}>Audit log</Title>;
}
