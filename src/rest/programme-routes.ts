// GET /analytics/programmes, /analytics/top, /analytics/channels/{channelId}/curve: programme
// analytics of the caller's own channels (sessions/programme-analytics.ts), in the REST envelope
// or, with `Accept: text/csv`, as CSV.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GroupOptions } from '../http/group.ts';
import { ownerChannelCurve, PROGRAMME_GROUPS, PROGRAMME_METRICS, programmeFigures, topFigures, type LeftOut } from '../sessions/programme-analytics.ts';
import { count, filterFor, range, send } from './analytics-routes.ts';
import { channelNotFound } from './errors.ts';
import { channelIdParams } from './params.ts';
import { curveCsv, programmesCsv, topCsv } from './programme-presenter.ts';
import { curveSchema, programmesSchema, topSchema } from './schemas.ts';
import { okSchema } from '../http/success-envelope.ts';

/** The most a top list holds. */
export const MAX_TOP = 100;

// Strict, as the other analytics queries: a misspelt parameter would silently widen the answer.
const programmesQuery = z.strictObject({
  ...range,
  groupBy: z.enum(PROGRAMME_GROUPS).default('programme'),
  sort: z.enum(PROGRAMME_METRICS).default('watchSeconds'),
  page: count(1_000_000).default(1),
  perPage: count(500).default(50),
});
const topQuery = z.strictObject({ ...range, metric: z.enum(PROGRAMME_METRICS).default('watchSeconds'), limit: count(MAX_TOP).default(10) });
const curveQuery = z.strictObject({
  date: z.iso.date({ error: "must be a date yyyy-MM-dd of the channel's own zone" }).refine((d) => d >= '1970-01-02' && d <= '9998-12-30', {
    error: 'must be between 1970-01-02 and 9998-12-30',
  }),
});

/**
 * Sessions not credited yet that the figures leave out (past a read's bounds; docs/activity.md: Programme
 * analytics), as a header so JSON and CSV say it alike: `12`, or `12+` when there were more than
 * the most a read takes. Absent when nothing is left out.
 */
function sayLeftOut(reply: FastifyReply, leftOut: LeftOut): void {
  if (leftOut.sessions > 0 || leftOut.more) reply.header('x-sessions-left-out', `${leftOut.sessions}${leftOut.more ? '+' : ''}`);
}

export const programmeRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, timelines }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const { db } = database;

  app.get('/analytics/programmes', { schema: { querystring: programmesQuery, response: { 200: okSchema(programmesSchema) } } }, async (request, reply) => {
    const filter = await filterFor(db, request, request.query);
    const { groupBy, sort, page, perPage } = request.query;
    const result = await programmeFigures(db, timelines, filter, { groupBy, orderBy: sort, page, perPage });
    sayLeftOut(reply, result.leftOut);
    const data = {
      from: filter.from,
      to: filter.to,
      channelId: filter.channelId ?? null,
      groupBy,
      sort,
      items: result.items,
      totals: result.totals,
      page,
      perPage,
      total: result.total,
      totalPages: Math.ceil(result.total / perPage),
    };
    reply.header('x-total-count', String(result.total));
    return send(request, reply, `programmes-by-${groupBy}`, data, () => programmesCsv(result.items));
  });

  app.get('/analytics/top', { schema: { querystring: topQuery, response: { 200: okSchema(topSchema) } } }, async (request, reply) => {
    const filter = await filterFor(db, request, request.query);
    const { metric, limit } = request.query;
    const { leftOut, ...lists } = await topFigures(db, timelines, filter, metric, limit);
    sayLeftOut(reply, leftOut);
    const data = { from: filter.from, to: filter.to, channelId: filter.channelId ?? null, metric, ...lists };
    return send(request, reply, `top-by-${metric}`, data, () => topCsv(lists.programmes, lists.channels));
  });

  app.get(
    '/analytics/channels/:channelId/curve',
    { schema: { params: channelIdParams, querystring: curveQuery, response: { 200: okSchema(curveSchema) } } },
    async (request, reply) => {
      const curve = await ownerChannelCurve(db, timelines, request.account.id, request.params.channelId, request.query.date);
      if (curve === 'channel_not_found') throw channelNotFound();
      return send(request, reply, `curve-${curve.channelId}-${curve.date}`, curve, () => curveCsv(curve.minutes));
    },
  );
};
