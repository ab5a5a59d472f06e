// POST /auth/login (open) and POST /auth/logout (Bearer).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { login } from '../access/login.ts';
import { bearerToken, revoke, REST_TOKEN_SLIDING_SECONDS } from '../access/tokens.ts';
import type { GroupOptions } from '../http/group.ts';
import { loginRateLimit } from '../http/limits.ts';
import { RestError } from './errors.ts';
import { presentLogin } from './presenter.ts';
import { loginSchema, messageSchema } from './schemas.ts';
import { okBody, okSchema } from '../http/success-envelope.ts';

const loginBody = z.object({
  username: z.string().min(1, { error: 'username is required' }).max(320),
  password: z.string().min(1, { error: 'password is required' }).max(1024),
});

const LOGIN_FAILURES = {
  invalid_credentials: [401, 'The username or password is incorrect.'],
  account_locked: [403, 'The account is locked.'],
  account_not_activated: [403, 'The account email address has not been confirmed.'],
} as const;

const loginResponse = { 200: okSchema(loginSchema) };
const logoutResponse = { 200: okSchema(messageSchema) };

export const authRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post('/auth/login', { schema: { body: loginBody, response: loginResponse }, config: loginRateLimit(config) }, async (request) => {
    const result = await login(database.db, {
      login: request.body.username,
      password: request.body.password,
      address: request.ip,
      now: request.now,
      lifetime: { kind: 'sliding', seconds: REST_TOKEN_SLIDING_SECONDS },
    });
    if (result.ok) return okBody(presentLogin(result.account, result.token));
    if (result.reason === 'too_many_attempts') {
      throw new RestError(429, 'too_many_attempts', 'Too many failed logins; try again later.', {
        'retry-after': String(result.retryAfterSeconds),
      });
    }
    const [status, message] = LOGIN_FAILURES[result.reason];
    throw new RestError(status, result.reason, message);
  });
};

export const sessionRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post('/auth/logout', { schema: { response: logoutResponse } }, async (request) => {
    // The auth hook accepted this exact token, so it is well-formed.
    await revoke(database.db, bearerToken(request.headers.authorization)!, request.now, request.ip);
    return okBody({ message: 'Logged out.' });
  });
};
