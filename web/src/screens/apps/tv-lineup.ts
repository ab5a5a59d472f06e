// The mock TV's lineup from the Studio guide route: today's rows of the app's first channel in
// that channel's zone (what a TV app opening on it receives), read again each minute so "Now"
// moves on while the editor stays open.
import { DateTime } from 'luxon';
import { useChannelList } from '../../api/channels.ts';
import { useGuide } from '../../api/schedules.ts';
import type { TvLineup } from './Previews.tsx';
import { firstCarried, nowAndNext } from './tv-guide.ts';

export function useTvLineup(carried: readonly { channelId: number; sorting: number | null }[]): TvLineup | undefined {
  const channelId = firstCarried(carried);
  const channel = useChannelList().data?.find((c) => c.id === channelId);
  const zone = channel?.timezone ?? 'UTC';
  const today = DateTime.now().setZone(zone).toISODate() ?? '';
  const guide = useGuide(channelId ?? 0, today, zone, { enabled: channel !== undefined, refetchInterval: 60_000 });
  if (channelId === undefined) return { now: 'no channel carried yet', next: 'carry a channel below', clock: '' };
  if (!guide.data) return guide.error ? { now: 'the guide could not be read', next: '', clock: '' } : undefined;
  const wall = DateTime.now().setZone(zone);
  const { now, next } = nowAndNext(guide.data.items, wall.toFormat('yyyy-MM-dd HH:mm:ss'));
  return {
    now: now ? `${now.title} (${now.startDate.slice(11, 16)})` : 'nothing on air',
    next: next ? `${next.title} (${next.startDate.slice(11, 16)})` : 'nothing more today',
    clock: wall.toFormat('HH:mm'),
  };
}
