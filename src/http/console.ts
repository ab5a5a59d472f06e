// The Studio console: the single-page app built from web/ (bin/build.mjs writes dist/studio) and
// served at /studio; `/` redirects there. The console speaks only the public APIs (Studio, REST
// sign-in and analytics), so this module serves files and nothing else. Unknown paths under
// /studio/ answer index.html (the console routes on the client); hashed assets are immutable.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { consoleCsp, protectPages } from './page-headers.ts';

export const CONSOLE_PREFIX = '/studio';
export const CONSOLE_DIR = fileURLToPath(new URL('../../dist/studio', import.meta.url));

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `mediaOrigins`: origins the operator allowed for creators' media (the console may play from them). */
export const consoleRoutes: FastifyPluginAsync<{ root?: string; mediaOrigins?: readonly string[] }> = async (app, options) => {
  const root = options.root ?? CONSOLE_DIR;
  protectPages(app, consoleCsp(options.mediaOrigins));
  app.get('/', (_request, reply) => reply.redirect(`${CONSOLE_PREFIX}/`, 302));
  app.get(CONSOLE_PREFIX, (_request, reply) => reply.redirect(`${CONSOLE_PREFIX}/`, 301));
  if (!existsSync(path.join(root, 'index.html'))) {
    // Not built (tests of the APIs alone, a source checkout before `npm run build`): say how.
    app.get(`${CONSOLE_PREFIX}/*`, (_request, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The Studio console is not built: run `npm run build` (or `npm start`, which builds it).\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: `${CONSOLE_PREFIX}/`,
    wildcard: false,
    cacheControl: false,
    // The build writes .br and .gz copies (bin/build.mjs); browsers that accept them get those.
    preCompressed: true,
    index: ['index.html'],
    setHeaders: (reply, file) => {
      reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache');
    },
  });
  // Client-side routes (/studio/channels/3) get the page; files that exist were answered above.
  app.get(`${CONSOLE_PREFIX}/*`, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html', root));
};
