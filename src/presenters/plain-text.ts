// plainText(): a string schema the response serializer (serializer.ts) writes without escaping.
// Apart from the serializer so that schema modules stay pure (zod only): the console type-checks
// the Studio contract, which reaches the Custom guide row's schema, without Node or Fastify.
import { z } from 'zod';

/** String schemas made by plainText(). */
const plainTexts = new WeakSet<z.core.$ZodType>();

/**
 * Text the service composes itself from digits, ASCII letters, spaces and punctuation other
 * than `"` and `\` (times and dates it formats, duration labels, ids built from numbers), never
 * text from the catalog or a request: it needs no escaping, and writing it as it is saves the
 * escaping loop, most of the cost of a guide row.
 */
export function plainText(): z.ZodString {
  const schema = z.string();
  plainTexts.add(schema);
  return schema;
}

export const isPlainText = (schema: z.core.$ZodType): boolean => plainTexts.has(schema);
