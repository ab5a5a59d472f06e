import { Title } from '@mantine/core';

export function ScheduleScreen(_props: { rest: string[] }) {
  return <Title order={2}>Schedule</Title>;
}
