// A channel's linear settings as channel_linear stores them (the ladder column holds
// { container, variants }), read by the live playlists and the Studio's settings alike.
import type { ChannelLinearRow } from '../data/channel-linear.ts';
import { rungOf } from './ladder.ts';
import type { Container, LadderVariant, LinearSettings } from './types.ts';

export interface StoredLadder {
  container: Container;
  variants: LadderVariant[];
}

/** The settings a row holds. */
export function settingsOf(row: ChannelLinearRow): LinearSettings {
  const ladder = row.ladder as StoredLadder;
  return {
    channelId: row.channelId,
    enabled: row.enabled,
    container: ladder.container,
    targetDurationSeconds: row.targetDurationSeconds,
    windowSeconds: row.windowSeconds,
    ladder: ladder.variants.map(rungOf),
    epoch: row.epoch.getTime(),
    version: row.version,
  };
}
