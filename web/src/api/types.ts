// The Studio API's shapes, shared with the server: the catalog format's zod schemas are the
// one definition of every field (src/catalog/format.ts), so the console cannot drift from them.
import type { z } from 'zod';
import type {
  appSchema,
  categorySchema,
  channelSchema,
  languageSchema,
  liveStreamSchema,
  scheduleBlockSchema,
  storeProductSchema,
  vastSchema,
  videoSchema,
} from '../../../src/catalog/format.ts';

export type Video = z.input<typeof videoSchema>;
export type Channel = z.input<typeof channelSchema> & { hasPassword?: boolean };
export type Block = z.input<typeof scheduleBlockSchema>;
export type LiveStream = z.input<typeof liveStreamSchema>;
export type Vast = z.input<typeof vastSchema>;
export type App = z.input<typeof appSchema> & { configuredStores?: string[] };
export type StoreProduct = z.input<typeof storeProductSchema>;
export type Category = z.input<typeof categorySchema>;
export type Language = z.input<typeof languageSchema>;

/** A Studio list page: `{ items, page, perPage, total }` (src/studio/schemas.ts pageOf). */
export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
}

/** One problem of a refused body: a JSON path relative to the body and the import's wording. */
export interface Detail {
  path: string;
  message: string;
}
