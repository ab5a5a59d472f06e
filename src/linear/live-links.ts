// Viewers' personal live links (docs/linear.md: Who may tune in): a signed-in viewer makes a
// revocable key for one app, whose M3U, guide, tuner and playlists list what that viewer holds
// there (src/linear/live-access.ts). The key is shown once, when made; only its SHA-256 is kept.
// A viewer holds at most MAX_LIVE_LINKS live ones. No HTTP here: refusals are codes.
import { hashLiveLinkKey, newLiveLinkKey } from '../access/live-keys.ts';
import { activeApp, insertLiveLink, revokeLiveLink, viewerLinks, type LiveLinkRow } from '../data/live-access.ts';
import type { Database } from '../db/connect.ts';

export const MAX_LIVE_LINKS = 10;

export type LiveLinkRefusal = 'app_not_found' | 'too_many_live_links';

export async function createLiveLink(db: Database, viewerId: number, appId: number, now: Date): Promise<LiveLinkRefusal | (LiveLinkRow & { key: string })> {
  if (!(await activeApp(db, appId))) return 'app_not_found';
  const key = newLiveLinkKey();
  const row = await insertLiveLink(db, { viewerId, appId, keyHash: hashLiveLinkKey(key), createdAt: now }, MAX_LIVE_LINKS);
  return row ? { ...row, key } : 'too_many_live_links';
}

export const listLiveLinks = (db: Database, viewerId: number): Promise<LiveLinkRow[]> => viewerLinks(db, viewerId);

/** Whether the viewer had this live link (it is revoked now). Its playlists stop within ACCESS_KEEP_MS. */
export const revokeViewerLiveLink = (db: Database, viewerId: number, id: number, now: Date): Promise<boolean> => revokeLiveLink(db, viewerId, id, now);
