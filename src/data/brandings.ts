// An account's branding (Custom API /users/{id}/settings) with its two logos' bytes.
import { eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import { blobs, brandings } from '../db/schema.ts';

export type BrandingRow = typeof brandings.$inferSelect;

export interface Branding {
  row: BrandingRow;
  logoHeader: Buffer | null;
  logoAndroid: Buffer | null;
}

export async function brandingOf(db: Queryable, accountId: number): Promise<Branding | undefined> {
  const [row] = await db.select().from(brandings).where(eq(brandings.accountId, accountId));
  if (!row) return undefined;
  const keys = [row.logoHeaderBlob, row.logoAndroidBlob].filter((k): k is string => k !== null);
  const found = keys.length === 0 ? [] : await db.select().from(blobs).where(inArray(blobs.sha256, keys));
  const bytes = (key: string | null) => found.find((b) => b.sha256 === key)?.bytes ?? null;
  return { row, logoHeader: bytes(row.logoHeaderBlob), logoAndroid: bytes(row.logoAndroidBlob) };
}
