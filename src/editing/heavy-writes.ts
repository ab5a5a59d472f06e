// Fairness between tenants for the Studio's heavy work (issue 35 item 6, issue 37 item 2): a
// programming apply, template copy, undo or preview may touch 2,000 blocks. Two rules keep one
// owner's heavy work from making other owners' requests wait:
// - at most one heavy request per owner runs in a process at a time; a second is refused at once
//   with 409 write_in_progress (not queued: a queued write would hold a database connection
//   waiting on the owner's lock, and the owner's console sends one at a time anyway). Across
//   instances, the owner's transaction lock (write.ts) still serializes the writes themselves;
// - heavy work yields the event loop between slices (yieldToOthers), so requests of other owners
//   that arrive meanwhile are answered between two slices, never after the whole write.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EditRefusal } from './refusals.ts';

const running = new Set<number>();

/** Runs `work` as the owner's one heavy request, or refuses it (409 write_in_progress) while another runs. */
export async function heavy<T>(ownerId: number, work: () => Promise<T>): Promise<T> {
  if (running.has(ownerId)) {
    throw new EditRefusal('write_in_progress', 'Another programming write or preview of this account is running; retry when it has finished.');
  }
  running.add(ownerId);
  try {
    return await work();
  } finally {
    running.delete(ownerId);
  }
}

/**
 * Blocks (or audit rows) a heavy write handles between two turns of the event loop. Building one
 * insert statement costs ~0.1-0.2 ms a block with its videos (bench:fairness's profile: 250 held
 * the loop ~40-60 ms), so 50 keeps each turn under ~10 ms for the other owners' requests.
 */
export const SLICE = 50;

/** Lets the requests that arrived meanwhile run (after I/O, like any other callback). */
export const yieldToOthers = (): Promise<void> => nextTurn();

/** Whether the `i`th item of a long loop ends a slice (yield after it). */
export const endsSlice = (i: number): boolean => (i + 1) % SLICE === 0;
