// `channelnet serve --workers N`: N processes sharing one port through node:cluster, for
// operators without a load balancer. The primary migrates once, then forks; it restarts a
// worker that dies and, on SIGTERM/SIGINT, lets every worker drain before exiting.
import cluster from 'node:cluster';
import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import { openConfiguredDatabase, prepareDatabase } from './server.ts';

export async function servePrimary(config: Config, workers: number): Promise<void> {
  if (!config.DATABASE_URL) {
    throw new ConfigError('--workers needs DATABASE_URL: the embedded database allows one process. Use PostgreSQL for several workers.');
  }
  const database = await openConfiguredDatabase(config);
  try {
    await prepareDatabase(config, database);
  } finally {
    await database.close();
  }
  let stopping = false;
  const fork = () => cluster.fork({ CHANNELNET_WORKER: '1', DEMO_ON_EMPTY: 'false' });
  for (let i = 0; i < workers; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second signal: do not wait
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

export const isClusterWorker = (): boolean => cluster.isWorker;
