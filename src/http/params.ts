// Path parameters every group reads the same way, as zod schemas (they validate and document).
import { z } from 'zod';

const MAX_INT = 2_147_483_647;

/** A numeric id; one beyond the column range exists nowhere, so it maps to -1 (not found). */
export const numericId = z
  .string()
  .regex(/^\d{1,30}$/, { error: 'must be a numeric id' })
  .transform((text) => {
    const value = Number(text);
    return value > MAX_INT ? -1 : value;
  });
