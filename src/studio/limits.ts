// Body limits of the Studio routes. Every Studio request is signed in as an owner before its body
// is read (plugin.ts), so these bound what one owner's request may make the service do; each
// limit is the largest body whose worst case (validation and write, measured on PGlite) stays
// under the 2 s CPU an owner's request may cost. 413 `payload_too_large` beyond.

/** Every route that names no other: one entity, a list of ids, a password. */
export const STUDIO_BODY_LIMIT = 64 * 1024;

/** PUT /channels/{id}/library, /vod and /channels/order: up to 10,000 ids of up to 10 digits. */
export const LIST_BODY_LIMIT = 128 * 1024;

/** POST /videos: up to MAX_BULK_VIDEOS videos in one body. */
export const BULK_VIDEOS_BODY_LIMIT = 512 * 1024;

/** PUT /apps/{platform} and PUT /branding: an app's images travel inside its body, base64. */
export const IMAGES_BODY_LIMIT = 2 * 1024 * 1024;

/** POST /import: the owner's slice of the catalog (images included). */
export const IMPORT_BODY_LIMIT = 2 * 1024 * 1024;
