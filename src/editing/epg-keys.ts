// The key of an app's public XMLTV guide URL (docs/xmltv.md: XMLTV guide export), one per app.
//
// Decisions:
// - A new key (POST) revokes the app's previous one in the same write: a key handed to the wrong
//   platform is replaced by making another. The key is shown once, inside the full URL of the
//   guide, in the answer of its create; only its hash is kept. A retried create (same
//   Idempotency-Key) answers the first answer without key and URL, as app tokens do: nothing
//   kept could show them again, so the client makes another key.
// - GET says whether the app has a live key and since when, never the key. DELETE revokes it
//   (the row stays, stamped); the URL then answers 404 at once, as keys are read on every request.
//   No live key: GET and DELETE are 404.
// - The app is named by platform as the apps resource names it; an unknown platform or no app of
//   it is 404 "App not found.".
// - A key is no catalog data: no cached answer depends on it, so its change drops no channel's days.
import { epgGuideUrl, hashEpgKey, newEpgKey } from '../access/epg-keys.ts';
import { insertEpgKey, liveEpgKey, revokeEpgKeys } from '../data/epg-keys.ts';
import { ownerAppId } from '../data/studio-apps.ts';
import type { Database, Queryable } from '../db/connect.ts';
import { APP_PLATFORMS, type AppPlatform } from '../vocabulary.ts';
import { assertMatches, etagOf } from './etag.ts';
import { notFound } from './refusals.ts';
import { write, type Change, type Editor, type Idempotency, type Written } from './write.ts';

export interface EpgKeyResource {
  appId: number;
  platform: AppPlatform;
  createdAt: string;
}

/** A created key: the resource and, in the first answer only, the key and the guide's URL. */
export type CreatedEpgKey = EpgKeyResource & { key?: string; url?: string };

async function appIdOf(db: Queryable, ownerId: number, platform: string): Promise<{ appId: number; platform: AppPlatform }> {
  const known = (APP_PLATFORMS as readonly string[]).includes(platform) ? (platform as AppPlatform) : undefined;
  const appId = known === undefined ? undefined : await ownerAppId(db, ownerId, known);
  if (appId === undefined) throw notFound('App');
  return { appId, platform: known! };
}

async function existingKey(db: Queryable, ownerId: number, platform: string): Promise<EpgKeyResource> {
  const app = await appIdOf(db, ownerId, platform);
  const key = await liveEpgKey(db, app.appId);
  if (!key) throw notFound('EPG key');
  return { ...app, createdAt: key.createdAt.toISOString() };
}

const change = (action: Change['action'], platform: string): Change => ({ action, resource: `apps/${platform}/epg-key`, fields: [], channelIds: [] });

export async function readEpgKey(db: Queryable, ownerId: number, platform: string): Promise<{ body: EpgKeyResource; etag: string }> {
  const body = await existingKey(db, ownerId, platform);
  return { body, etag: etagOf(body) };
}

export async function createEpgKey(db: Database, editor: Editor, platform: string, publicUrl: string | undefined, idempotency?: Idempotency): Promise<Written<CreatedEpgKey>> {
  let key: string | undefined;
  const written = await write<EpgKeyResource>(
    db,
    editor,
    async (tx) => {
      const app = await appIdOf(tx, editor.ownerId, platform);
      await revokeEpgKeys(tx, app.appId, editor.now);
      key = newEpgKey();
      await insertEpgKey(tx, { appId: app.appId, keyHash: hashEpgKey(key), createdAt: editor.now });
      const created = { ...app, createdAt: editor.now.toISOString() };
      return { written: { status: 201, body: created, etag: etagOf(created) }, changes: [change('create', app.platform)] };
    },
    idempotency,
  );
  // Only the request that made the key shows it; a replayed answer never had it stored.
  return key === undefined ? written : { ...written, body: { ...written.body, key, url: epgGuideUrl(key, publicUrl) } };
}

export async function revokeEpgKey(db: Database, editor: Editor, platform: string, ifMatch: string | undefined): Promise<Written<null>> {
  return write(db, editor, async (tx) => {
    const current = await existingKey(tx, editor.ownerId, platform);
    assertMatches(ifMatch, current);
    await revokeEpgKeys(tx, current.appId, editor.now);
    return { written: { status: 204, body: null }, changes: [change('delete', current.platform)] };
  });
}
