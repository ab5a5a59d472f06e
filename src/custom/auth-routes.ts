// POST /auth/login (open; JSON or form), and behind the Bearer check POST /auth/refresh,
// GET /auth/me, POST /auth/logout. Tokens are the REST API's, with a fixed 3600 s lifetime.
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { login } from '../access/login.ts';
import { bearerToken, revoke, revokeForRefresh } from '../access/tokens.ts';
import type { GroupOptions } from '../http/group.ts';
import { loginRateLimit } from '../http/limits.ts';
import { customData, failure, unauthenticated } from './errors.ts';
import { bodyObject, text } from './params.ts';
import { presentMe, presentToken } from './presenter.ts';
import { meResponse, messageResponse, tokenResponse } from './schemas.ts';
import { CUSTOM_TOKEN_LIFETIME, issueCustomToken } from './tokens.ts';

/** `email` may hold a username too (spec). */
const loginBody = bodyObject(z.object({ email: text('email', 320), password: text('password', 1024) }));

const LOGIN_FAILURES = {
  invalid_credentials: [401, 'Invalid credentials.'],
  account_locked: [403, 'Your account is locked.'],
  account_not_activated: [403, 'Your account is not activated.'],
} as const;

export const authRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post('/auth/login', { schema: { body: loginBody, response: tokenResponse }, config: loginRateLimit(config) }, async (request) => {
    const { email, password } = request.body;
    const result = await login(database.db, { login: email, password, address: request.ip, now: request.now, lifetime: CUSTOM_TOKEN_LIFETIME });
    if (result.ok) return presentToken(result.token);
    if (result.reason === 'too_many_attempts') {
      throw failure(429, 'Too many login attempts. Please try again later.', { 'retry-after': String(result.retryAfterSeconds) });
    }
    const [status, message] = LOGIN_FAILURES[result.reason];
    throw failure(status, message);
  });
};

export const sessionRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  // The Bearer check accepted this exact token, so it is well-formed.
  const tokenOf = (header: string | undefined) => bearerToken(header)!;

  app.post('/auth/refresh', { schema: { response: tokenResponse } }, async (request) =>
    database.db.transaction(async (tx) => {
      // A concurrent refresh or logout may have revoked it since the check: then nothing is issued.
      if (!(await revokeForRefresh(tx, tokenOf(request.headers.authorization), request.now))) throw unauthenticated();
      return presentToken(await issueCustomToken(tx, request.viewer!.id, request.now));
    }),
  );

  app.get('/auth/me', { schema: { response: meResponse } }, async (request) => customData(presentMe(request.viewer!)));

  app.post('/auth/logout', { schema: { response: messageResponse } }, async (request) => {
    await revoke(database.db, tokenOf(request.headers.authorization), request.now, request.ip);
    return customData({ message: 'Successfully logged out.' });
  });
};
