// What is on air on a channel over a span (GET /channels/{id}/on-air): the timeline every guide,
// the XMLTV export and analytics read. Keyed under the channel's schedule, so every schedule or
// live-stream write makes it stale with the week it is drawn on.
import { useQuery } from '@tanstack/react-query';
import { studio } from './client.ts';
import { keys } from './query.ts';
import type { OnAir } from './types.ts';

/** The timeline from the start of `from` to the end of `to` (dates of the channel's zone). */
export const useOnAir = (channelId: number, from: string, to: string) =>
  useQuery({
    queryKey: [...keys.schedule(channelId), 'on-air', from, to],
    queryFn: async () => (await studio<OnAir>(`/channels/${channelId}/on-air`, { query: { from, to } })).data,
  });
