// What is on air on a channel now (GET /channels/{id}/now): asked again when the answer goes out
// of date (the programme's end, the next one's start: screens/watch/plan.ts), not every second.
import { useQuery } from '@tanstack/react-query';
import { askAgainIn } from '../screens/watch/plan.ts';
import { studio } from './client.ts';
import { keys } from './query.ts';
import type { NowOnAir } from './types.ts';

export const useNowOnAir = (channelId: number | undefined) =>
  useQuery({
    queryKey: keys.nowOnAir(channelId ?? 0),
    queryFn: async () => (await studio<NowOnAir>(`/channels/${channelId}/now`)).data,
    enabled: channelId !== undefined,
    refetchInterval: (query) => (query.state.data ? askAgainIn(query.state.data) : false),
    refetchIntervalInBackground: true,
  });
