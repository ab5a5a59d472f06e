// How much one Studio import may hold. An import is validated and written in one request and one
// transaction, and its cost grows with every entity and every list entry it writes (on PGlite,
// about 2 ms of CPU per entity and 0.1 ms per entry), so one owner's import could hold a core for
// minutes. Beyond the caps the import is refused before it is validated: the owner splits the
// file (an import merges by id, so the parts add up to the whole) or the operator runs
// `channelnet import`, which has no such caps. docs/studio.md: Studio API.
import { invalid } from './refusals.ts';

/** Accounts, categories, languages, videos, channels, schedule blocks, live streams and apps together. */
export const MAX_IMPORT_ENTITIES = 300;

/** Every other list entry: library and VOD video ids, block video ids, app channels, renditions, products... */
export const MAX_IMPORT_LIST_ENTRIES = 5000;

/** The lists of a channel whose entries are entities of their own (rows with ids). */
const CHANNEL_ENTITIES = ['schedules', 'liveStreams'] as const;
/** The document's lists of entities. */
const ENTITY_LISTS = ['accounts', 'categories', 'languages', 'videos', 'channels', 'apps'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/** Elements of every array in `value`, at any depth (iterative: a deep value costs no stack). */
function arrayElements(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (Array.isArray(current)) {
      count += current.length;
      for (const item of current) if (typeof item === 'object' && item !== null) pending.push(item);
    } else if (isRecord(current)) {
      for (const member of Object.values(current)) if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
  return count;
}

/** The entities of a document as sent (not yet validated: whatever is not a list counts nothing). */
function entitiesOf(document: Record<string, unknown>): number {
  const channels = Array.isArray(document['channels']) ? document['channels'] : [];
  const children = channels.reduce<number>((n, c) => n + (isRecord(c) ? CHANNEL_ENTITIES.reduce((m, key) => m + lengthOf(c[key]), 0) : 0), 0);
  const entitlements = isRecord(document['entitlements']) ? arrayElements(document['entitlements']) : 0;
  return ENTITY_LISTS.reduce((n, key) => n + lengthOf(document[key]), 0) + children + entitlements;
}

/**
 * Refuses (422 invalid_request) an import document holding more than the caps, counted in one
 * pass over the body as sent, before validation spends anything on its entries.
 */
export function assertImportSize(document: unknown): void {
  if (!isRecord(document)) return;
  const entities = entitiesOf(document);
  const entries = arrayElements(document) - entities;
  const problems: string[] = [];
  const split = 'split the file (an import merges by id) or use `channelnet import`';
  if (entities > MAX_IMPORT_ENTITIES) problems.push(`(root): holds ${entities} entities; one import may hold at most ${MAX_IMPORT_ENTITIES}: ${split}`);
  if (entries > MAX_IMPORT_LIST_ENTRIES) problems.push(`(root): holds ${entries} list entries; one import may hold at most ${MAX_IMPORT_LIST_ENTRIES}: ${split}`);
  if (problems.length > 0) throw invalid(problems);
}
