// GET /analytics/trends and /analytics/entitlements: an owner's figures per day of a range of
// dates in a zone, against the previous range of as many days; JSON in the REST envelope or,
// with `Accept: text/csv`, the days as CSV (docs/activity.md: Trends).
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownsChannel } from '../data/activity.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { salesTrends } from '../entitlements/sales-trends.ts';
import { numericId } from '../http/params.ts';
import { okSchema } from '../http/success-envelope.ts';
import { resolveZone } from '../schedules/zones.ts';
import { SOURCES } from '../sessions/event.ts';
import { resolveTrendRange, type TrendRange } from '../sessions/trend-range.ts';
import { watchTrends } from '../sessions/trends.ts';
import { STORE_PLATFORMS } from '../vocabulary.ts';
import { dailyCsv, salesCsv } from './analytics-presenter.ts';
import { send } from './analytics-routes.ts';
import { channelNotFound, invalidRequest } from './errors.ts';
import { entitlementTrendsSchema, trendsSchema } from './schemas.ts';

const date = z.iso.date({ error: 'must be a date yyyy-MM-dd' }).refine((d) => d >= '1970-01-02' && d <= '9998-12-30', { error: 'must be between 1970-01-02 and 9998-12-30' });
const zone = z
  .string()
  .transform((text, ctx) => resolveZone(text) ?? (ctx.addIssue({ code: 'custom', message: 'must be a time zone such as Europe/Berlin (IANA or Windows id)' }), z.NEVER));
const days = { from: date.optional(), to: date.optional(), timezone: zone.default('UTC') };
// Strict: a misspelt parameter (channelid) would otherwise silently widen the answer.
const trendsQuery = z.strictObject({ ...days, channelId: numericId.optional(), source: z.enum(SOURCES).optional() });
const entitlementsQuery = z.strictObject({ ...days, store: z.enum(STORE_PLATFORMS).optional() });

function rangeOf(request: FastifyRequest, query: { from?: string | undefined; to?: string | undefined; timezone: string }): TrendRange {
  const range = resolveTrendRange(query.from, query.to, query.timezone, request.now);
  if (!range.ok) throw invalidRequest(range.message);
  return range.value;
}

const head = (r: TrendRange) => ({ from: r.from, to: r.to, timezone: r.zone, days: r.days, previous: r.previous });

export const trendsRoutes: FastifyPluginAsync<{ database: DatabaseHandle }> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/analytics/trends', { schema: { querystring: trendsQuery, response: { 200: okSchema(trendsSchema) } } }, async (request, reply) => {
    const { channelId, source } = request.query;
    const range = rangeOf(request, request.query);
    const ownerId = request.account.id;
    if (channelId !== undefined && !(await ownsChannel(db, ownerId, channelId))) throw channelNotFound();
    const trends = await watchTrends(db, range, { ownerId, channelId, source, now: request.now });
    const data = { ...head(range), channelId: channelId ?? null, source: source ?? null, ...trends };
    return send(request, reply, `trends-${range.from}-${range.to}`, data, () => dailyCsv(trends.daily));
  });

  app.get('/analytics/entitlements', { schema: { querystring: entitlementsQuery, response: { 200: okSchema(entitlementTrendsSchema) } } }, async (request, reply) => {
    const { store } = request.query;
    const range = rangeOf(request, request.query);
    const sales = await salesTrends(db, range, { ownerId: request.account.id, store }, STORE_PLATFORMS);
    const data = { ...head(range), store: store ?? null, ...sales };
    return send(request, reply, `entitlements-${range.from}-${range.to}`, data, () => salesCsv(sales));
  });
};
