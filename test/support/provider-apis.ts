// Local servers answering as YouTube's Data API v3 and Vimeo's API document their answers
// (https://developers.google.com/youtube/v3/docs: videos.list, playlistItems.list, channels.list,
// the error body with errors[].reason; https://developer.vimeo.com/api: /albums/{id}/videos with
// `paging`, `data[].uri`, `duration`, `pictures.sizes`), and YouTube's oEmbed. Each can be made
// down (500), garbled (200 with HTML), out of quota (403 quotaExceeded) or silent (holds the
// request until the server closes), so the Studio's lookup is tested against each.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const YOUTUBE_KEY = 'test-youtube-key';
export const VIMEO_TOKEN = 'test-vimeo-token';

export interface FakeVideo {
  title: string;
  /** ISO 8601, as contentDetails.duration. */
  duration: string;
  description?: string;
  live?: 'none' | 'live' | 'upcoming';
  embeddable?: boolean;
}

export interface FakeVimeoVideo {
  id: string;
  name: string;
  duration: number;
  description?: string;
}

export type Mode = 'ok' | 'down' | 'garbage' | 'quota' | 'silent';

export interface ProviderApis {
  /** The YouTube Data API's base (YOUTUBE_API_URL). */
  youtube: string;
  /** Vimeo's API base (VIMEO_API_URL). */
  vimeo: string;
  /** YouTube's oEmbed endpoint (OEMBED_YOUTUBE_URL). */
  oembed: string;
  /** Each request's path and query, as asked. */
  asked: string[];
  videos: Map<string, FakeVideo>;
  /** Playlist id -> video ids; an id starting with `private:` is listed as a private video. */
  playlists: Map<string, string[]>;
  /** Handle (with @) -> channel id; its uploads are the playlist UU + the id's tail. */
  handles: Map<string, { channelId: string; title: string }>;
  showcases: Map<string, FakeVimeoVideo[]>;
  mode: { youtube: Mode; vimeo: Mode };
  close(): Promise<void>;
}

const thumbnails = (id: string) => ({
  default: { url: `https://i.ytimg.com/vi/${id}/default.jpg`, width: 120, height: 90 },
  high: { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, width: 480, height: 360 },
});

const youtubeError = (code: number, reason: string, message: string) => ({
  error: { code, message, errors: [{ message, domain: code === 403 ? 'youtube.quota' : 'global', reason }] },
});

export async function providerApis(): Promise<ProviderApis> {
  const held: ServerResponse[] = [];
  const state: Omit<ProviderApis, 'youtube' | 'vimeo' | 'oembed' | 'close'> = {
    asked: [],
    videos: new Map(),
    playlists: new Map(),
    handles: new Map(),
    showcases: new Map(),
    mode: { youtube: 'ok', vimeo: 'ok' },
  };
  const json = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));

  const youtube = (url: URL, response: ServerResponse) => {
    const mode = state.mode.youtube;
    if (mode === 'silent') return void held.push(response);
    if (mode === 'down') return json(response, 503, youtubeError(503, 'backendError', 'Backend Error'));
    if (mode === 'garbage') return response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sorry…</body></html>');
    if (mode === 'quota') return json(response, 403, youtubeError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'));
    if (url.searchParams.get('key') !== YOUTUBE_KEY)
      return json(response, 400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          errors: [{ message: 'API key not valid. Please pass a valid API key.', domain: 'global', reason: 'badRequest' }],
        },
      });
    const parts = (url.searchParams.get('part') ?? '').split(',');
    const resource = url.pathname.split('/').at(-1);
    const maxResults = Math.min(50, Number(url.searchParams.get('maxResults') ?? 5));
    if (resource === 'videos') {
      const ids = (url.searchParams.get('id') ?? '').split(',').filter(Boolean);
      if (ids.length > 50) return json(response, 400, youtubeError(400, 'badRequest', 'too many ids'));
      const items = ids.flatMap((id) => {
        const video = state.videos.get(id);
        if (!video) return [];
        return [
          {
            kind: 'youtube#video',
            etag: `e-${id}`,
            id,
            ...(parts.includes('snippet')
              ? {
                  snippet: {
                    publishedAt: '2026-01-01T00:00:00Z',
                    channelId: 'UCxxxxxxxxxxxxxxxxxxxxxx',
                    title: video.title,
                    description: video.description ?? '',
                    thumbnails: thumbnails(id),
                    channelTitle: 'Harbour',
                    liveBroadcastContent: video.live ?? 'none',
                  },
                }
              : {}),
            ...(parts.includes('contentDetails')
              ? { contentDetails: { duration: video.duration, dimension: '2d', definition: 'hd', caption: 'false', licensedContent: false, projection: 'rectangular' } }
              : {}),
            ...(parts.includes('status')
              ? { status: { uploadStatus: 'processed', privacyStatus: 'public', license: 'youtube', embeddable: video.embeddable ?? true, publicStatsViewable: true } }
              : {}),
          },
        ];
      });
      return json(response, 200, { kind: 'youtube#videoListResponse', etag: 'x', items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } });
    }
    if (resource === 'playlistItems') {
      const playlistId = url.searchParams.get('playlistId') ?? '';
      if (playlistId === 'PLprivate')
        return json(response, 403, youtubeError(403, 'playlistItemsNotAccessible', 'The request is not properly authorized to retrieve the specified playlist.'));
      const list = state.playlists.get(playlistId);
      if (!list) return json(response, 404, youtubeError(404, 'playlistNotFound', "The playlist identified with the request's <code>playlistId</code> parameter cannot be found."));
      const offset = url.searchParams.has('pageToken') ? Number(Buffer.from(url.searchParams.get('pageToken')!, 'base64url').toString()) : 0;
      const page = list.slice(offset, offset + maxResults);
      const items = page.map((entry, i) => {
        const hidden = entry.startsWith('private:');
        const id = hidden ? entry.slice('private:'.length) : entry;
        const video = state.videos.get(id);
        return {
          kind: 'youtube#playlistItem',
          etag: `p-${id}`,
          id: `item-${offset + i}`,
          snippet: {
            publishedAt: '2026-01-01T00:00:00Z',
            channelId: 'UCxxxxxxxxxxxxxxxxxxxxxx',
            title: hidden ? 'Private video' : (video?.title ?? 'Deleted video'),
            description: hidden ? 'This video is private.' : (video?.description ?? ''),
            ...(hidden ? { thumbnails: {} } : { thumbnails: thumbnails(id) }),
            channelTitle: 'Harbour',
            playlistId,
            position: offset + i,
            resourceId: { kind: 'youtube#video', videoId: id },
          },
          contentDetails: { videoId: id, ...(hidden ? {} : { videoPublishedAt: '2026-01-01T00:00:00Z' }) },
          status: { privacyStatus: hidden ? 'private' : 'public' },
        };
      });
      const next = offset + maxResults < list.length ? Buffer.from(String(offset + maxResults)).toString('base64url') : undefined;
      return json(response, 200, {
        kind: 'youtube#playlistItemListResponse',
        etag: 'x',
        ...(next ? { nextPageToken: next } : {}),
        items,
        pageInfo: { totalResults: list.length, resultsPerPage: maxResults },
      });
    }
    if (resource === 'channels') {
      const handle = url.searchParams.get('forHandle');
      const channel = handle === null ? undefined : state.handles.get(handle.startsWith('@') ? handle : `@${handle}`);
      // Nothing found: YouTube leaves `items` out.
      if (!channel) return json(response, 200, { kind: 'youtube#channelListResponse', etag: 'x', pageInfo: { totalResults: 0, resultsPerPage: 5 } });
      return json(response, 200, {
        kind: 'youtube#channelListResponse',
        etag: 'x',
        pageInfo: { totalResults: 1, resultsPerPage: 5 },
        items: [
          {
            kind: 'youtube#channel',
            etag: 'c',
            id: channel.channelId,
            snippet: { title: channel.title, description: '' },
            contentDetails: { relatedPlaylists: { likes: '', uploads: `UU${channel.channelId.slice(2)}` } },
          },
        ],
      });
    }
    return json(response, 404, youtubeError(404, 'notFound', 'Not Found'));
  };

  const vimeo = (url: URL, request: IncomingMessage, response: ServerResponse) => {
    const mode = state.mode.vimeo;
    if (mode === 'silent') return void held.push(response);
    if (mode === 'down') return json(response, 500, { error: 'Something strange occurred. Please try again.' });
    if (mode === 'garbage') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [');
    if (mode === 'quota') return json(response, 429, { error: 'Too many API requests.' });
    if (request.headers.authorization !== `bearer ${VIMEO_TOKEN}`) return json(response, 401, { error: 'You must provide a valid authenticated access token.' });
    const match = /^\/albums\/(\d+)\/videos$/.exec(url.pathname.replace(/^\/vimeo/, ''));
    const videos = match ? state.showcases.get(match[1]!) : undefined;
    if (!match || !videos) return json(response, 404, { error: "The requested album couldn't be found.", error_code: 5000 });
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 25));
    const data = videos.slice((page - 1) * perPage, page * perPage).map((v) => ({
      uri: `/videos/${v.id}`,
      name: v.name,
      description: v.description ?? null,
      duration: v.duration,
      link: `https://vimeo.com/${v.id}`,
      pictures: {
        uri: `/videos/${v.id}/pictures/1`,
        active: true,
        sizes: [100, 640, 1280].map((width) => ({
          width,
          height: Math.round((width * 9) / 16),
          link: `https://i.vimeocdn.com/video/${v.id}-d_${width}x${Math.round((width * 9) / 16)}`,
        })),
      },
    }));
    const last = Math.max(1, Math.ceil(videos.length / perPage));
    const path = (p: number) => `/albums/${match[1]}/videos?page=${p}&per_page=${perPage}`;
    return json(response, 200, {
      total: videos.length,
      page,
      per_page: perPage,
      paging: { next: page < last ? path(page + 1) : null, previous: page > 1 ? path(page - 1) : null, first: path(1), last: path(last) },
      data,
    });
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    state.asked.push(`${url.pathname}${url.search}`);
    if (url.pathname.startsWith('/youtube/v3/')) return youtube(url, response);
    if (url.pathname.startsWith('/vimeo/')) return vimeo(url, request, response);
    if (url.pathname === '/youtube/oembed') {
      const id = new URL(url.searchParams.get('url') ?? 'http://x').searchParams.get('v') ?? '';
      const video = state.videos.get(id);
      if (!video) return response.writeHead(404).end('Not Found');
      return json(response, 200, { type: 'video', version: '1.0', title: video.title, thumbnail_url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg`, provider_name: 'YouTube' });
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    ...state,
    youtube: `${base}/youtube/v3`,
    vimeo: `${base}/vimeo`,
    oembed: `${base}/youtube/oembed`,
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The configuration that points the Studio at these servers. */
export const providerConfig = (apis: ProviderApis, timeoutMs = 5_000) => ({
  YOUTUBE_API_KEY: YOUTUBE_KEY,
  YOUTUBE_API_URL: apis.youtube,
  VIMEO_API_TOKEN: VIMEO_TOKEN,
  VIMEO_API_URL: apis.vimeo,
  PROVIDER_API_TIMEOUT_MS: timeoutMs,
  OEMBED_YOUTUBE_URL: apis.oembed,
  OEMBED_VIMEO_URL: '',
  OEMBED_TIMEOUT_MS: timeoutMs,
});
