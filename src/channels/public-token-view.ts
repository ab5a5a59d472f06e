// What a public token sees of an owner's channels (REST with a TV archive app token: it ships in
// every copy of a TV app, so whoever unpacks one holds it). The Custom API blanks what plays in a
// locked private channel (playback.ts); REST lists the owner's whole catalog, so with an app token
// it withholds the same thing: a video that only private channels hold keeps its title and
// picture, and its provider id (a YouTube id is the video) is the empty string. A video a public
// channel also holds is public anyway. A sign-in token acts as the owner and sees everything.
import type { Queryable } from '../db/connect.ts';
import { privateOnlyVideoIds } from '../data/channels.ts';
import { withheldVideo } from './playback.ts';

/** The videos to withhold from a public token: none when the owner has no private channel. */
export async function videosWithheldFromPublicTokens(db: Queryable, ownerId: number, channels: readonly { passwordHash: string | null }[]): Promise<ReadonlySet<number>> {
  if (!channels.some((c) => c.passwordHash !== null)) return new Set();
  return new Set(await privateOnlyVideoIds(db, ownerId));
}

/** `video` as the public token sees it. */
export function asSeenByPublicToken<T extends { providerVideoId: string }>(withheld: ReadonlySet<number>, id: number, video: T): T {
  return withheld.has(id) ? withheldVideo(video) : video;
}
