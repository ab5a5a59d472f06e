// The "same bytes" server of the network scenario: a plain Fastify process that answers
// GET /bytes/<name> with bytes the benchmark stored under that name (PUT /bytes/<name>, the
// content type in the request's Content-Type), with the same Content-Type. What a route costs
// beyond sending its answer is the ratio of its req/s to this server's for the same bytes.
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
const stored = new Map<string, { type: string; body: Buffer }>();
// Every type as raw bytes. Fastify's own JSON parser used to take the JSON answers the benchmark
// stores, so the server kept a parsed object and re-serialized it on every GET: the "same bytes"
// denominator was JSON.stringify's speed, several times too low (issue 29).
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.put<{ Params: { name: string } }>('/bytes/:name', async (request, reply) => {
  if (!Buffer.isBuffer(request.body)) return reply.code(400).send({ error: 'the body must arrive as bytes' });
  stored.set(request.params.name, { type: request.headers['content-type'] ?? 'application/octet-stream', body: request.body as Buffer });
  return { stored: (request.body as Buffer).length };
});
app.get<{ Params: { name: string } }>('/bytes/:name', async (request, reply) => {
  const answer = stored.get(request.params.name);
  if (!answer) return reply.code(404).send({ missing: request.params.name });
  return reply.type(answer.type).send(answer.body);
});
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
process.stdout.write(`same-bytes is listening on ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
