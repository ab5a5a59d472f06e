// A bordered section of a screen under its own heading, with the section's controls (a sort, a
// download) at the heading's right.
import { Group, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Panel({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const heading = (
    <Title order={3} size="h4" mb={actions ? undefined : 'xs'}>
      {title}
    </Title>
  );
  return (
    <Paper withBorder p="md">
      {actions ? (
        <Group justify="space-between" mb="xs" align="flex-end">
          {heading}
          {actions}
        </Group>
      ) : (
        heading
      )}
      {children}
    </Paper>
  );
}
