// GET /analytics/summary, /analytics/sessions, /analytics/concurrency: watch analytics of the
// caller's own channels, in the REST envelope or, with `Accept: text/csv`, as CSV.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownsChannel, type SessionFilter } from '../data/activity.ts';
import type { DatabaseHandle, Queryable } from '../db/connect.ts';
import { concurrency, INTERVALS, resolveRange, sessionsPage, summary, type Interval } from '../sessions/analytics.ts';
import { concurrencyCsv, sessionsCsv, summaryCsv } from './analytics-presenter.ts';
import { channelNotFound, invalidRequest } from './errors.ts';

import { concurrencySchema, sessionsSchema, summarySchema } from './schemas.ts';
import { okBody, okSchema } from '../http/success-envelope.ts';
import { numericId } from '../http/params.ts';

export const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'must be an ISO 8601 instant with Z or an offset (encode + as %2B), or a date yyyy-MM-dd (UTC midnight)',
  })
  .transform((text) => new Date(text))
  .refine((date) => !Number.isNaN(date.getTime()), { error: 'must be a real date' });

export const count = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, { error: 'must be a positive integer' })
    .transform(Number)
    .pipe(z.number().min(1).max(max));

export const range = { from: instant.optional(), to: instant.optional(), channelId: numericId.optional() };
// Strict: a misspelt parameter (channelid) would otherwise silently widen the answer.
const summaryQuery = z.strictObject({ ...range, groupBy: z.enum(['channel', 'source', 'day']).default('channel') });
const sessionsQuery = z.strictObject({ ...range, page: count(1_000_000).default(1), perPage: count(500).default(50) });
const intervals = Object.keys(INTERVALS) as [Interval, ...Interval[]];
const concurrencyQuery = z.strictObject({ ...range, interval: z.enum(intervals).default('1h') });

// JSON answers only: a CSV answer is text of its own type, sent as it is.
const summaryResponse = { 200: okSchema(summarySchema) };
const sessionsResponse = { 200: okSchema(sessionsSchema) };
const concurrencyResponse = { 200: okSchema(concurrencySchema) };

type RangeQuery = { from?: Date | undefined; to?: Date | undefined; channelId?: number | undefined };

/** The caller's range and channel; another owner's channel is "not found", as elsewhere in REST. */
export async function filterFor(db: Queryable, request: FastifyRequest, query: RangeQuery): Promise<SessionFilter> {
  const resolved = resolveRange(query.from, query.to, request.now);
  if (!resolved.ok) throw invalidRequest(resolved.message);
  const ownerId = request.account.id;
  if (query.channelId !== undefined && !(await ownsChannel(db, ownerId, query.channelId))) throw channelNotFound();
  return { ownerId, ...resolved.value, channelId: query.channelId, now: request.now };
}

/** CSV when the client lists text/csv at least as high as JSON; JSON otherwise (also for errors). */
export function prefersCsv(accept: string | undefined): boolean {
  const quality = (type: string) => {
    const ranges = (accept ?? '').split(',').map((part) => part.trim().toLowerCase().split(';'));
    const match = ranges.find(([mediaType]) => mediaType?.trim() === type);
    if (!match) return -1;
    const q = match
      .slice(1)
      .map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1])
      .find((v) => v !== undefined);
    return q === undefined ? 1 : Number(q);
  };
  const csv = quality('text/csv');
  return csv > 0 && csv >= quality('application/json');
}

export function send(request: FastifyRequest, reply: FastifyReply, name: string, data: unknown, csv: () => string) {
  if (!prefersCsv(request.headers.accept)) return reply.send(okBody(data));
  return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}.csv"`).send(csv());
}

export const analyticsRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/analytics/summary', { schema: { querystring: summaryQuery, response: summaryResponse } }, async (request, reply) => {
    const filter = await filterFor(db, request, request.query);
    const { groupBy } = request.query;
    const result = await summary(db, filter, groupBy);
    const data = { from: filter.from, to: filter.to, channelId: filter.channelId ?? null, groupBy, ...result };
    return send(request, reply, `summary-by-${groupBy}`, data, () => summaryCsv(groupBy, result.groups));
  });

  app.get('/analytics/sessions', { schema: { querystring: sessionsQuery, response: sessionsResponse } }, async (request, reply) => {
    const filter = await filterFor(db, request, request.query);
    const page = await sessionsPage(db, filter, request.query.page, request.query.perPage);
    const data = { from: filter.from, to: filter.to, channelId: filter.channelId ?? null, ...page, totalPages: Math.ceil(page.total / page.perPage) };
    reply.header('x-total-count', String(page.total));
    return send(request, reply, 'sessions', data, () => sessionsCsv(page.items));
  });

  app.get('/analytics/concurrency', { schema: { querystring: concurrencyQuery, response: concurrencyResponse } }, async (request, reply) => {
    const filter = await filterFor(db, request, request.query);
    const { interval } = request.query;
    const buckets = await concurrency(db, filter, interval);
    if (!buckets.ok) throw invalidRequest(buckets.message);
    const first = buckets.value[0]!;
    const last = buckets.value[buckets.value.length - 1]!;
    const data = { from: first.start, to: last.end, channelId: filter.channelId ?? null, interval, intervalSeconds: INTERVALS[interval], buckets: buckets.value };
    return send(request, reply, 'concurrency', data, () => concurrencyCsv(buckets.value));
  });
};
