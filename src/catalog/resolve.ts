// What the database already holds, and lookups over "file plus database" for the cross checks.
import type { Catalog } from './format.ts';

/** Rows already in the database, so references in a catalog file can resolve there. */
export interface ExistingCatalog {
  accounts: Array<{ id: number; username: string; email: string; publicUrl: string }>;
  categoryIds: ReadonlySet<number>;
  languageIds: ReadonlySet<number>;
  videoIds: ReadonlySet<number>;
  channels: Array<{ id: number; ownerId: number; url: string }>;
  apps: Array<{ id: number; ownerId: number; platform: string }>;
  scheduleBlocks: Array<{ id: number; channelId: number }>;
}

export const EMPTY_EXISTING: ExistingCatalog = {
  accounts: [],
  categoryIds: new Set(),
  languageIds: new Set(),
  videoIds: new Set(),
  channels: [],
  apps: [],
  scheduleBlocks: [],
};

export interface Resolver {
  account(id: number): boolean;
  category(id: number): boolean;
  language(id: number): boolean;
  video(id: number): boolean;
  app(id: number): boolean;
  /** Owner of the channel as it will be after import, or undefined when it does not exist. */
  channelOwner(id: number): number | undefined;
}

const ids = (list: ReadonlyArray<{ id: number }>): Set<number> => new Set(list.map((e) => e.id));

function union(a: Iterable<number>, b: Iterable<number>): Set<number> {
  return new Set([...a, ...b]);
}

export function buildResolver(catalog: Catalog, existing: ExistingCatalog): Resolver {
  const accounts = union(ids(catalog.accounts), ids(existing.accounts));
  const categories = union(ids(catalog.categories), existing.categoryIds);
  const languages = union(ids(catalog.languages), existing.languageIds);
  const videos = union(ids(catalog.videos), existing.videoIds);
  const apps = union(ids(catalog.apps), ids(existing.apps));
  // File channels replace database rows with the same id, so they are applied last.
  const owners = new Map<number, number>();
  for (const c of [...existing.channels, ...catalog.channels]) owners.set(c.id, c.ownerId);
  return {
    account: (id) => accounts.has(id),
    category: (id) => categories.has(id),
    language: (id) => languages.has(id),
    video: (id) => videos.has(id),
    app: (id) => apps.has(id),
    channelOwner: (id) => owners.get(id),
  };
}

/** Database rows that survive the import: those whose id the file does not replace. */
export function untouched<T extends { id: number }>(rows: readonly T[], fileRows: ReadonlyArray<{ id: number }>): T[] {
  const replaced = ids(fileRows);
  return rows.filter((r) => !replaced.has(r.id));
}

/**
 * Calls `report` for every item whose key an earlier item already had.
 * A null key takes no part (e.g. an optional field that is absent).
 */
export function eachDuplicate<T>(items: readonly T[], key: (item: T) => string | null, report: (item: T, index: number, firstIndex: number) => void): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const k = key(item);
    if (k === null) return;
    const first = seen.get(k);
    if (first === undefined) seen.set(k, index);
    else report(item, index, first);
  });
}
