// Public ids (userId, channelTubeId, videoTubeId, appId, channelScheduleId, category and
// language ids): one number space per table, shared by every owner, held by clients as 32-bit
// integers. Two ranges keep people's choices and the service's assignments apart:
// - chosen: 1..9,999,999, for ids a legacy system already handed out (a Studio body's `id`, the
//   Studio import's new entities, `channelnet owner create --id`);
// - assigned: 10,000,000..2,147,483,647, from each table's sequence (src/data/ids.ts).
// No choice can move a sequence (so no owner's id changes another owner's next one) and no
// assigned id can meet a chosen one. The operator's catalog import takes any id of the 32-bit
// range, as an export of this service (assigned ids included) or a legacy system holds them.
import { z } from 'zod';

export const MAX_ID = 2_147_483_647;
export const MAX_CHOSEN_ID = 9_999_999;
export const FIRST_ASSIGNED_ID = MAX_CHOSEN_ID + 1;
const MIN_INT32 = -2_147_483_648;

const wholeNumber = (v: number) => (Number.isSafeInteger(v) ? null : `expected integer, got ${v}`);

/** A number checked by `test` (not z.int(): its failure would hide the enclosing object's other errors). */
const checkedNumber = (test: (v: number) => string | null) =>
  z.number().superRefine((v, ctx) => {
    const problem = test(v);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** An entity's own id in the catalog format: 1..2,147,483,647. */
export const id = checkedNumber((v) => wholeNumber(v) ?? (v <= 0 ? 'must be an integer > 0' : v > MAX_ID ? `must be at most ${MAX_ID} (ids are 32-bit)` : null));

/** A reference to an id: any 32-bit integer (one that names nothing is "unknown", as before). */
export const refId = checkedNumber((v) => wholeNumber(v) ?? (v < MIN_INT32 || v > MAX_ID ? 'must be a 32-bit integer' : null));

/** Why `value` cannot be a new id someone chooses, or null when it can. */
export function chosenIdProblem(value: number): string | null {
  if (Number.isInteger(value) && value >= 1 && value <= MAX_CHOSEN_ID) return null;
  return `a chosen id must be 1-${MAX_CHOSEN_ID} (ids from ${FIRST_ASSIGNED_ID} up are assigned by the service); leave id out to have one assigned`;
}

/** A new id someone chooses (owner create --id). */
export const chosenId = checkedNumber((v) => wholeNumber(v) ?? chosenIdProblem(v));
