// Request metrics for every route, and GET /metrics in Prometheus text format.
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { DatabaseHandle } from '../db/connect.ts';
import { httpRequestDuration, httpRequests, observePool, registry } from '../observability/metrics.ts';

export const metricsPlugin = fp<{ database: DatabaseHandle; expose: boolean }>(
  async (app, { database, expose }) => {
    observePool(() => database.poolStats());
    app.addHook('onResponse', (request, reply, done) => {
      // The route pattern, not the URL, keeps label cardinality bounded.
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
      done();
    });
    if (!expose) return;
    const metricsRoute: FastifyPluginAsync = async (scope) => {
      scope.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
    };
    await app.register(metricsRoute);
  },
  { name: 'channelnet-metrics' },
);
