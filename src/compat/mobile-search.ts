// GET users/{id}/search on the /mobile tree: the search screen of the 2023 Android TV template
// (chetanvaghela457/Android-TV: retrofit/StrimmApi.kt searchItem, model/SearchResponse.kt,
// SearchedData.kt, Video.kt; EpgFragment.searchDialog). It sends key_word, channel_skip,
// channel_take, video_skip, video_take and timezone, reads `data[0].videos` (Title,
// ProviderVideoId, providerName "youtube"/"vimeo", everything a Gson String) and holds `channels`
// as opaque objects. The spec's Custom tree has no such route (its 404 stays).
// Only what the caller may list is searched: the app's listed channels (a paid app without a
// subscription is refused as everywhere), and videos only of channels without a password, never
// private videos. Bounded: a query of at most 100 characters, at most 50 of each per page.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listedChannels } from '../channels/listing.ts';
import { entitledCaller } from '../custom/caller.ts';
import { customData } from '../custom/errors.ts';
import { optionalText, wholeNumber, zoneField } from '../custom/params.ts';
import { presentListedChannel } from '../custom/presenter.ts';
import { channelItemSchema, customDataSchema } from '../custom/schemas.ts';
import { searchChannelVideos, type FoundVideo } from '../data/video-search.ts';
import type { GroupOptions } from '../http/group.ts';

export const MAX_SEARCH_TEXT = 100;
export const MAX_SEARCH_TAKE = 50;
const DEFAULT_TAKE = 10;

const searchQuery = z.object({
  ...zoneField,
  key_word: optionalText('key_word', MAX_SEARCH_TEXT),
  channel_skip: wholeNumber('channel_skip', 0),
  channel_take: wholeNumber('channel_take', 0, MAX_SEARCH_TAKE),
  video_skip: wholeNumber('video_skip', 0),
  video_take: wholeNumber('video_take', 0, MAX_SEARCH_TAKE),
});

/** Video.kt's fields, all strings (Gson would refuse a boolean there); VideoKey is Any. */
const s = z.string();
const foundVideoSchema = z.object({
  CategoryId: s,
  CategoryName: s,
  ChannelScheduleId: s,
  ChannelTubeId: s,
  Description: s,
  Duration: s,
  EndDate: s,
  IsInPublicLibrary: s,
  IsPrivate: s,
  IsRRated: s,
  IsRemovedByProvider: s,
  IsRestrictedByProvider: s,
  PlaybackEndTime: s,
  PlaybackOrderNumber: s,
  PlaybackStartTime: s,
  ProviderVideoId: s,
  StartDate: s,
  Thumbnail: s,
  Title: s,
  VideoKey: z.null(),
  VideoProviderId: s,
  VideoProviderName: s,
  VideoTubeId: s,
  VideoTubeTitle: s,
  providerName: s,
});
const searchResponse = {
  200: customDataSchema(
    z.array(
      z.object({
        channels: z.array(channelItemSchema),
        channels_count: z.int(),
        videos: z.array(foundVideoSchema),
        videos_count: z.int(),
      }),
    ),
  ),
};

/** A found video as Video.kt reads it; schedule fields are empty (a search is of the library, not the guide). */
function presentFoundVideo(v: FoundVideo): z.input<typeof foundVideoSchema> {
  return {
    CategoryId: v.categoryId === null ? '' : String(v.categoryId),
    CategoryName: v.categoryName ?? '',
    ChannelScheduleId: '',
    ChannelTubeId: String(v.channelId),
    Description: v.description ?? '',
    Duration: String(Math.max(0, Math.trunc(v.durationSeconds))),
    EndDate: '',
    IsInPublicLibrary: 'true',
    IsPrivate: 'false',
    IsRRated: String(v.isRRated),
    IsRemovedByProvider: String(v.isRemovedByProvider),
    IsRestrictedByProvider: String(v.isRestrictedByProvider),
    PlaybackEndTime: '',
    PlaybackOrderNumber: '',
    PlaybackStartTime: '',
    ProviderVideoId: v.providerVideoId,
    StartDate: '',
    Thumbnail: v.thumbnailUrl,
    Title: v.title,
    VideoKey: null,
    VideoProviderId: '',
    VideoProviderName: v.providerName,
    VideoTubeId: String(v.id),
    VideoTubeTitle: v.title,
    providerName: v.providerName,
  };
}

export const mobileSearchRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, cache, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;
  const reads = { db, cache, timelines };

  app.get('/users/:id/search', { schema: { querystring: searchQuery, response: searchResponse } }, async (request) => {
    const listed = await listedChannels(reads, await entitledCaller(reads, request));
    const text = (request.query.key_word ?? '').trim().toLowerCase();
    if (text === '') return customData([{ channels: [], channels_count: 0, videos: [], videos_count: 0 }]);
    const channels = listed.filter((l) => l.channel.name.toLowerCase().includes(text));
    const channelSkip = request.query.channel_skip ?? 0;
    const videoSkip = request.query.video_skip ?? 0;
    const open = listed.filter((l) => l.channel.passwordHash === null).map((l) => l.channel.id);
    const found = await searchChannelVideos(db, open, text, videoSkip, request.query.video_take ?? DEFAULT_TAKE);
    return customData([
      {
        channels: channels.slice(channelSkip, channelSkip + (request.query.channel_take ?? DEFAULT_TAKE)).map(presentListedChannel),
        channels_count: channels.length,
        videos: found.rows.map(presentFoundVideo),
        videos_count: found.total,
      },
    ]);
  });
};
