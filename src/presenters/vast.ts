// The VAST settings object in the original service's PascalCase. The Legacy Web Services write
// it with Newtonsoft (GetVastSettings, TV app Settings) and the Custom API answers the same
// object for GET /channels/{id}/vast, so a player reads one shape from either. Key order is the
// wire order. Shared by both groups, so it imports neither.
import type { VastSetting } from '../data/channel-settings.ts';

export function vastSettingsObject(row: VastSetting) {
  return {
    ChannelId: row.channelId,
    VastVersion: row.vastVersion,
    VastUrl: row.vastUrl,
    Skippable: row.skippable,
    AdFrequency: row.adFrequency,
    MidRollFrequency: row.midRollFrequency,
    Slottable: row.slottable,
    TimeFrom: row.timeFrom,
    TimeTo: row.timeTo,
    VastType: row.vastType,
    Platform: row.platform,
    AllowAdsInVod: row.allowAdsInVod,
  };
}
