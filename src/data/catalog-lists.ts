// Reference lists (categories, languages) limited to the ids a channel list uses.
import { asc, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { categories, languages } from '../db/schema.ts';

export async function categoriesWithIds(db: Queryable, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.select().from(categories).where(inArray(categories.id, [...ids])).orderBy(asc(categories.id));
}

export async function languagesWithIds(db: Queryable, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.select().from(languages).where(inArray(languages.id, [...ids])).orderBy(asc(languages.id));
}
