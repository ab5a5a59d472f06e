// Favorites per account, shared by the REST and Custom Services APIs.
import { and, desc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { categories, channels, favorites } from '../db/schema.ts';

/** Idempotent: adding an existing favorite keeps its original favoritedAt. */
export async function addFavorite(db: Queryable, accountId: number, channelId: number, now: Date): Promise<void> {
  await db.insert(favorites).values({ accountId, channelId, favoritedAt: now }).onConflictDoNothing();
}

export async function removeFavorite(db: Queryable, accountId: number, channelId: number): Promise<void> {
  await db.delete(favorites).where(and(eq(favorites.accountId, accountId), eq(favorites.channelId, channelId)));
}

/** The account's favorite live channels, most recently favorited first. */
export async function listFavorites(db: Queryable, accountId: number) {
  return db
    .select({
      channelId: channels.id,
      ownerId: channels.ownerId,
      name: channels.name,
      url: channels.url,
      categoryId: channels.categoryId,
      categoryName: categories.name,
      pictureUrl: channels.pictureUrl,
      description: channels.description,
      favoritedAt: favorites.favoritedAt,
    })
    .from(favorites)
    .innerJoin(channels, and(eq(channels.id, favorites.channelId), eq(channels.deleted, false)))
    .innerJoin(categories, eq(categories.id, channels.categoryId))
    .where(eq(favorites.accountId, accountId))
    .orderBy(desc(favorites.favoritedAt), desc(favorites.channelId));
}
