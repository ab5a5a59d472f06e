// The support record of purchase verifications (schema: verificationAttempts).
import type { Queryable } from '../db/connect.ts';
import { verificationAttempts } from '../db/schema.ts';

export type VerificationAttempt = typeof verificationAttempts.$inferInsert;

export async function recordVerificationAttempt(db: Queryable, attempt: VerificationAttempt): Promise<void> {
  await db.insert(verificationAttempts).values(attempt);
}
