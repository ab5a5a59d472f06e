// The owner's catalog file (export, import checked first) and the audit log of Studio changes.
import { keepPreviousData, useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import { download, STUDIO, studio } from './client.ts';
import { keys } from './query.ts';
import type { AuditPage, ImportAnswer } from './types.ts';

/** The export as a file (its text, for the counts, and the Blob to save). */
export async function exportCatalog(): Promise<Blob> {
  return download(`${STUDIO}/export`);
}

/**
 * Checks (dryRun) or imports a catalog document. An import can change anything the console
 * shows, so every read is made stale; a check changes nothing.
 */
export function useImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (v: { document: unknown; dryRun: boolean; key: string | undefined }) =>
      (await studio<ImportAnswer>('/import', { method: 'POST', body: v.document, query: { dryRun: v.dryRun ? 1 : undefined }, idempotencyKey: v.key })).data,
    onSuccess: (_answer, v) => (v.dryRun ? undefined : client.invalidateQueries()),
  });
}

/** A page of the audit log, newest first, continuing after `before` (an entry id). */
export const useAudit = (before: number | undefined, limit: number) =>
  useQuery({ queryKey: keys.audit(before), queryFn: async () => (await studio<AuditPage>('/audit', { query: { limit, before } })).data, placeholderData: keepPreviousData });
