// The owner's collections: named sets of videos (a list, or rules resolved by the server) that
// slots of any channel play. Kept under the videos' key: a video write changes what a smart
// collection holds. A slot plan names a collection by id, so the programming reads stay as they are.
import { useQuery } from '@tanstack/react-query';
import { studio } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { Collection, CollectionBody } from './types.ts';

export const useCollections = () => useQuery({ queryKey: keys.collections, queryFn: async () => (await studio<Collection[]>('/collections')).data });

export const useCreateCollection = () =>
  useWrite(
    (v: { body: CollectionBody; key: string }) => studio<Collection>('/collections', { method: 'POST', body: v.body, idempotencyKey: v.key }),
    () => [keys.collections],
  );

export const useReplaceCollection = () =>
  useWrite(
    (v: { id: number; body: CollectionBody }) => studio<Collection>(`/collections/${v.id}`, { method: 'PUT', body: v.body }),
    () => [keys.collections],
  );

export const useDeleteCollection = () =>
  useWrite(
    (v: { id: number }) => studio(`/collections/${v.id}`, { method: 'DELETE' }),
    () => [keys.collections],
  );
