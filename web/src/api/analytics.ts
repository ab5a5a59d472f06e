// REST's analytics (the owner's viewers, watch time, sessions, programmes, a channel's day, the
// trends of days and the subscriptions and purchases per day) and their CSV downloads.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type * as schemas from '../../../src/rest/schemas.ts';
import { download, REST, rest } from './client.ts';
import { keys } from './query.ts';
import type { Concurrency, Curve, Programmes, Sessions, Summary } from './types.ts';

type Range = { from: string; to: string };

const analytics = <T>(what: string, query: Record<string, string | number | undefined>, options: { enabled?: boolean; placeholderData?: typeof keepPreviousData } = {}) =>
  useQuery({ queryKey: keys.analytics(what, query), queryFn: async () => (await rest<T>(`/analytics/${what}`, { query })).data, ...options });

export const useConcurrency = (range: Range, interval: string) => analytics<Concurrency>('concurrency', { ...range, interval });

/** Viewers in the last minute, asked again every 30 s. */
export const useViewersNow = () =>
  useQuery({
    queryKey: keys.analytics('viewers-now', {}),
    queryFn: async () => {
      const to = new Date();
      const from = new Date(to.getTime() - 60_000);
      const { data } = await rest<Concurrency>('/analytics/concurrency', { query: { from: from.toISOString(), to: to.toISOString(), interval: '1m' } });
      return Math.max(0, ...data.buckets.map((b) => b.viewers));
    },
    refetchInterval: 30_000,
  });

export const useSummary = (range: Range, groupBy: 'channel' | 'source') => analytics<Summary>('summary', { ...range, groupBy });
/** A page of sessions; the page shown stays while the next one comes. */
export const useSessions = (range: Range, page: number) => analytics<Sessions>('sessions', { ...range, page, perPage: 25 }, { placeholderData: keepPreviousData });
export const useProgrammes = (range: Range, sort: string) => analytics<Programmes>('programmes', { ...range, sort, perPage: 20 });
export const useCurve = (channelId: number | undefined, date: string) => analytics<Curve>(`channels/${channelId}/curve`, { date }, { enabled: channelId !== undefined });

/** The sessions of a range as CSV (up to 500 rows). */
export const sessionsCsv = (range: Range) => download(`${REST}/analytics/sessions`, { ...range, perPage: 500 }, 'text/csv');

/** Watch figures per day against the previous range (REST /analytics/trends; no dates in it, so the output type is the wire's). */
export type Trends = z.output<typeof schemas.trendsSchema>;
/** Subscriptions and purchases per day against the previous range (REST /analytics/entitlements). */
export type EntitlementTrends = z.output<typeof schemas.entitlementTrendsSchema>;

/** Dates yyyy-MM-dd (both included) of `timezone`, and the filters. */
export type TrendQuery = { from: string; to: string; timezone: string; channelId?: number | undefined; source?: string | undefined };
export type SalesQuery = { from: string; to: string; timezone: string; store?: string | undefined };

/** The figures shown stay while another range or filter is read. */
export const useTrends = (query: TrendQuery) => analytics<Trends>('trends', query, { placeholderData: keepPreviousData });
export const useEntitlementTrends = (query: SalesQuery) => analytics<EntitlementTrends>('entitlements', query, { placeholderData: keepPreviousData });

/** The days of a trend read as CSV (the JSON's `daily` rows). */
export const trendsCsv = (query: TrendQuery) => download(`${REST}/analytics/trends`, query, 'text/csv');
export const entitlementsCsv = (query: SalesQuery) => download(`${REST}/analytics/entitlements`, query, 'text/csv');
