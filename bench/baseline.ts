// The framework's ceiling on this machine: a Fastify hello-world answering GET / with a small
// JSON, run as its own process like the service, so both pay the same process and socket costs.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
// The same announcement line as `channelnet serve`, so one launcher reads both.
process.stdout.write(`baseline is listening on ${address}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
