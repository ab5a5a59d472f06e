// Schemas shared by the Studio routes: ids in paths, pagination, the success envelope. Bodies
// use the catalog format's own schemas (src/catalog/format.ts), made open where the service
// fills a field (id, ownerId) and partial for PATCH.
import { z } from 'zod';
import { numericId } from '../http/params.ts';

export { numericId };

/** The answer of a delete: 204, no body. */
export const NO_CONTENT = z.null().describe('No content');

export const MAX_PER_PAGE = 500;

/**
 * Up to this many ids in one list (a library, a VOD catalog, a reorder, an app's channels): a
 * 10,000-video library is written in about 1 s of CPU on PGlite.
 */
export const MAX_LIST = 10_000;

export const pageQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(50),
  q: z.string().max(200).optional(),
});

/** A page of a list: the items and where they sit in the whole. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), page: z.number(), perPage: z.number(), total: z.number() });

/**
 * A PATCH body: any subset of an entity's fields (catalog rules checked on the merged whole),
 * minus the fields a PATCH may not change.
 */
export function patchOf<S extends z.ZodRawShape, K extends keyof S & string>(shape: S, fixed: readonly K[]) {
  const open = Object.fromEntries(Object.entries(shape).filter(([key]) => !(fixed as readonly string[]).includes(key))) as Omit<S, K>;
  return z.strictObject(open).partial();
}
