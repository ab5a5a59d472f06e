// Path and query parameters shared by REST routes, as zod schemas (they validate and document).
import { z } from 'zod';
import { numericId } from '../http/params.ts';
import { isValidDate } from '../schedules/labels.ts';

export const channelIdParams = z.object({ channelId: numericId });

export const dateQuery = z.object({
  date: z.string({ error: 'date is required (yyyy-MM-dd)' }).refine(isValidDate, { error: 'date must be a real date in the form yyyy-MM-dd' }),
});
