// Body limits of the Studio routes. Every Studio request is signed in as an owner before its body
// is read (plugin.ts), so these bound what one owner's request may make the service do: each is
// the largest body whose worst case (validation and write, measured on PGlite, where the
// database's work is this process's CPU too) stays under the 2 s an owner's request may cost.
// 413 `payload_too_large` beyond. Figures: docs/security.md: Studio body limits.

/** Every route that names no other: one entity, a password (a new channel's 1,100 blocks: 1.3 s). */
export const STUDIO_BODY_LIMIT = 64 * 1024;

/** PUT /channels/{id}/library, /vod and /channels/order: MAX_LIST (10,000) ids of up to 10 digits (1.1 s). */
export const LIST_BODY_LIMIT = 128 * 1024;

/**
 * POST /collections and PUT /collections/{id}: a manual collection of COLLECTION_LIMITS.videos
 * (20,000, an owner's whole video bound) ids of up to 10 digits and a name. Before this limit a
 * collection the schema allows could not be sent (20,000 seven-digit ids are 160 KB).
 */
export const COLLECTION_BODY_LIMIT = 256 * 1024;

/** POST /videos: up to MAX_BULK_VIDEOS (1,000) videos; full of renditions, 1.0-1.7 s. */
export const BULK_VIDEOS_BODY_LIMIT = 512 * 1024;

/**
 * PUT /apps/{platform} and PUT /branding: images travel inside the body, base64. PGlite encodes and
 * decodes bytea in JavaScript, about 0.6 s of CPU per MiB of image written and read back: 2 MiB of
 * body (1.5 MiB of images) is 1.3 s.
 */
export const IMAGES_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * POST /import: the owner's slice of the catalog, images included, and at most
 * MAX_IMPORT_ENTITIES and MAX_IMPORT_LIST_ENTRIES (src/editing/import-size.ts): 300 entities and
 * 5,000 list entries are written in 0.7-0.9 s, and the rest of a MiB as images in 0.5 s more.
 */
export const IMPORT_BODY_LIMIT = 1024 * 1024;
