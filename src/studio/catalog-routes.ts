// /export and /import of the owner's slice of the catalog (the catalog format, the import's
// rules), and /audit, the trail of every change made through the Studio.
//
// GET /export answers the document itself, not in the envelope, as a download: it is a file
// (the CLI writes and reads the same format), and what it answers is what POST /import takes,
// byte for byte. Its failures (401, 403, 503) keep the envelope, as the REST API's CSV
// downloads do.
import { sendJsonText } from '../http/json-text.ts';
import type { FastifyPluginAsync } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountSchema, appSchema, catalogSchema, channelSchema } from '../catalog/format.ts';
import { MAX_AUDIT_PAGE, auditEntries } from '../editing/audit.ts';
import { etagOf } from '../editing/etag.ts';
import { assertImportSize } from '../editing/import-size.ts';
import { exportSlice, importSlice, sliceDocumentSchema, type ExportedSlice } from '../editing/slice.ts';
import type { GroupOptions } from '../http/group.ts';
import { IMAGE_ROLES } from '../vocabulary.ts';
import { idempotencyOf, ifMatchOf, sendResource, sendWritten } from './context.ts';
import { auditPageSchema, importAnswerSchema } from './contract.ts';
import { IMPORT_BODY_LIMIT } from './limits.ts';
import { numericId } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

/** An object schema's shape without some keys (`.omit()` refuses a refined object). */
function without<S extends z.ZodRawShape, K extends keyof S & string>(shape: S, keys: readonly K[]): Omit<S, K> {
  return Object.fromEntries(Object.entries(shape).filter(([key]) => !(keys as readonly string[]).includes(key))) as Omit<S, K>;
}

const { format, version, categories, languages, videos } = catalogSchema.shape;
/** The export: the catalog format without write-only secrets (images as the export orders them). */
const sliceDocument = z.object({
  format,
  version,
  accounts: z.array(z.object(without(accountSchema.shape, ['password', 'passwordHash', 'appTokens']))),
  categories: categories.unwrap(),
  languages: languages.unwrap(),
  videos: videos.unwrap(),
  channels: z.array(z.object(without(channelSchema.shape, ['password', 'passwordHash']))),
  apps: z.array(z.object({ ...without(appSchema.shape, ['storeCredentials']), images: z.partialRecord(z.enum(IMAGE_ROLES), z.string()).optional() })),
});

/** Characters of exports kept (a full slice's document is ~30 MB; an owner's newest only). */
const KEPT_EXPORT_CHARS = 64 * 1024 * 1024;

const importQuery = z.strictObject({ dryRun: z.enum(['0', '1', 'false', 'true']).optional() });

const auditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50),
  before: numericId.optional(),
});

export const catalogRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, ingests }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  // Each owner's last export, served again while the slice's tag is the same (a full slice's
  // document costs 2.2-2.6 s of CPU on PGlite to build, its tag ~1 ms to read); bounded in characters.
  const kept = new LRUCache<number, ExportedSlice>({ maxSize: KEPT_EXPORT_CHARS, sizeCalculation: (exported) => exported.text.length });
  app.get('/export', { schema: { response: { 200: sliceDocument } } }, async (request, reply) => {
    const { ownerId, now } = request.editor;
    const exported = await exportSlice(db, ownerId, kept.get(ownerId));
    kept.set(ownerId, exported);
    const { text, etag } = exported;
    const file = `channelnet-owner-${ownerId}-${now.toISOString().slice(0, 10)}.json`;
    // Sent as the JSON text exportSlice wrote, built to the sliceDocument shape (a string is not
    // serialized again): checking and serializing a full slice's 32 MB was most of its CPU.
    return sendJsonText(reply.header('etag', etag).header('content-disposition', `attachment; filename="${file}"`), text);
  });

  app.post(
    '/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      preValidation: async (request) => assertImportSize(request.body),
      schema: { querystring: importQuery, body: sliceDocumentSchema, response: { 200: okSchema(importAnswerSchema) } },
    },
    async (request, reply) => {
      const dryRun = request.query.dryRun === '1' || request.query.dryRun === 'true';
      const written = await importSlice(db, request.editor, request.body, { dryRun, ifMatch: ifMatchOf(request), idempotency: idempotencyOf(request) });
      // HLS videos it added or changed were queued for ingest: read them now.
      if (!dryRun) ingests?.kick();
      return sendWritten(reply, written);
    },
  );

  app.get('/audit', { schema: { querystring: auditQuery, response: { 200: okSchema(auditPageSchema) } } }, async (request, reply) => {
    const { limit, before } = request.query;
    const page = await auditEntries(db, request.editor.ownerId, limit, before);
    const data = {
      items: page.items.map((e) => ({ id: e.id, at: e.at.toISOString(), actorId: e.actorId, action: e.action, resource: e.resource, fields: e.fields, address: e.address })),
      next: page.next,
    };
    return sendResource(reply, etagOf(data), data);
  });
};
