// POST /videos/{id}/hls/refresh: the owner asks for their HLS video's playlists to be read again
// (after re-encoding it at the same URL, or after fixing what ingest refused). Audited like every
// video write; the ingest itself runs in the background (src/linear/ingest-worker.ts).
import type { Database } from '../db/connect.ts';
import { hlsSourceOf } from '../catalog/video-url.ts';
import { requestIngest, syncHlsSources } from '../data/video-hls.ts';
import { hlsStateOf, type HlsState } from '../linear/ingest-state.ts';
import { EditRefusal, notFound } from './refusals.ts';
import { readVideo } from './videos.ts';
import { write, type Editor, type Written } from './write.ts';

export async function refreshVideoHls(db: Database, editor: Editor, videoId: number): Promise<Written<HlsState>> {
  return write(db, editor, async (tx) => {
    const video = await readVideo(tx, editor.ownerId, videoId);
    if (!video) throw notFound('Video');
    const sourceUrl = hlsSourceOf(video);
    if (!sourceUrl) {
      throw new EditRefusal('invalid_request', `Video ${videoId} is not an HLS video: only a Custom video whose stream URL ends in .m3u8 is read for linear output.`);
    }
    // A row is missing only for a video written before ingest existed: it is made now.
    if (!(await requestIngest(tx, videoId, editor.now))) await syncHlsSources(tx, [{ videoId, sourceUrl }], editor.now);
    const state = (await hlsStateOf(tx, videoId))!;
    // Nothing of the owner's slice grows: no holdings to count.
    return { written: { status: 202, body: state }, changes: [{ action: 'update', resource: `videos/${videoId}/hls`, fields: ['hls'], channelIds: [] }], moved: [] };
  });
}
