// The owner's apps (one per platform; a missing one is null, not an error) and app tokens.
import { useQuery } from '@tanstack/react-query';
import { ApiError, newIdempotencyKey, studio, type Answer } from './client.ts';
import { keys, useWrite } from './query.ts';
import type { App, AppToken, CreatedEpgKey, CreatedToken, EpgKey } from './types.ts';

/** The app of a platform with its ETag, or null when the owner has none there yet. */
export const useApp = (platform: string) =>
  useQuery({
    queryKey: keys.app(platform),
    queryFn: async (): Promise<Answer<App> | null> => {
      try {
        return await studio<App>(`/apps/${platform}`);
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 404) return null;
        throw failure;
      }
    },
  });

/** Creates or replaces the app whole (PUT); If-Match when it replaces one read. */
export const usePutApp = (platform: string) =>
  useWrite(
    (v: { body: Record<string, unknown>; etag: string | undefined }) => studio<App>(`/apps/${platform}`, { method: 'PUT', body: v.body, ifMatch: v.etag }),
    () => [keys.app(platform)],
  );

export const useDeleteApp = (platform: string) =>
  useWrite(
    (etag: string | undefined) => studio(`/apps/${platform}`, { method: 'DELETE', ifMatch: etag }),
    () => [keys.app(platform)],
  );

export const useAppTokens = () => useQuery({ queryKey: keys.appTokens, queryFn: async () => (await studio<{ items: AppToken[] }>('/app-tokens')).data.items });

export const useCreateAppToken = () =>
  useWrite(
    async (label: string) => (await studio<CreatedToken>('/app-tokens', { method: 'POST', body: { label }, idempotencyKey: newIdempotencyKey() })).data,
    () => [keys.appTokens],
  );

export const useRevokeAppToken = () =>
  useWrite(
    (tokenId: number) => studio(`/app-tokens/${tokenId}`, { method: 'DELETE' }),
    () => [keys.appTokens],
  );

/** The app's XMLTV guide key as listed (since when; never the key), or null when it has none. */
export const useEpgKey = (platform: string) =>
  useQuery({
    queryKey: keys.epgKey(platform),
    queryFn: async (): Promise<Answer<EpgKey> | null> => {
      try {
        return await studio<EpgKey>(`/apps/${platform}/epg-key`);
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 404) return null;
        throw failure;
      }
    },
  });

/** Makes a new key (the previous one stops working); the answer shows the key and URL once. */
export const useCreateEpgKey = (platform: string) =>
  useWrite(
    async () => (await studio<CreatedEpgKey>(`/apps/${platform}/epg-key`, { method: 'POST', idempotencyKey: newIdempotencyKey() })).data,
    () => [keys.epgKey(platform)],
  );

export const useRevokeEpgKey = (platform: string) =>
  useWrite(
    (etag: string | undefined) => studio(`/apps/${platform}/epg-key`, { method: 'DELETE', ifMatch: etag }),
    () => [keys.epgKey(platform)],
  );
