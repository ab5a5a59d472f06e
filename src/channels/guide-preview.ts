// The Studio's guide preview: the rows a TV app receives for one of the owner's channels and one
// day. Anyone's view (no app, no device, no purchases) when the channel is free to all; when an
// app of the owner sells it, anyone gets no rows, so the owner previews the rows that app hands
// its subscribers instead (issue 30: the preview went empty once a paid app carried the channel).
import { anyone, type CatalogReads, type Caller } from '../access/caller.ts';
import { appChannelAssignment, findAppByOwnerAndPlatform, type App } from '../data/apps.ts';
import { APP_PLATFORMS } from '../vocabulary.ts';
import { guideRows, type GuideRows, type TooBigGuide } from './guide-rows.ts';
import { requestedChannels } from './listing.ts';

export interface GuidePreview {
  /** Whether a TV app with no purchases gets the rows (false: an app sells the channel). */
  listed: boolean;
  /** The app whose subscribers' rows are shown when the channel is sold; undefined when listed. */
  soldBy: App | undefined;
  rows: GuideRows | TooBigGuide;
}

export async function guidePreview(reads: CatalogReads, ownerId: number, now: Date, zone: string | undefined, channelId: number, date: string): Promise<GuidePreview> {
  const open = anyone(ownerId, now, zone);
  if ((await requestedChannels(reads, open, [channelId])).length > 0) return { listed: true, soldBy: undefined, rows: await guideRows(reads, open, [channelId], [date]) };
  const soldBy = await sellingApp(reads, ownerId, channelId);
  const caller: Caller = soldBy ? { ...open, app: soldBy } : open;
  return { listed: false, soldBy, rows: await guideRows(reads, caller, [channelId], [date]) };
}

/** The owner's app that sells the channel: a paid one carrying it first, else any carrying it (platform order). */
async function sellingApp({ db }: CatalogReads, ownerId: number, channelId: number): Promise<App | undefined> {
  const carrying: App[] = [];
  for (const platform of APP_PLATFORMS) {
    const app = await findAppByOwnerAndPlatform(db, ownerId, platform);
    if (app && (await appChannelAssignment(db, app.id, channelId))) carrying.push(app);
  }
  return carrying.find((app) => app.isPaid) ?? carrying[0];
}
