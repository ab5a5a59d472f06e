// The operator's route (src/operator-link.ts): `channelnet owner create` while this server holds
// the embedded database sends the account here with the secret the server wrote into its data
// directory. No sign-in; without the secret (or on a server that has none) it answers 404 as an
// unknown path does. The account is made by owner create's own rule (src/catalog/owners.ts).
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isOperatorSecret, OPERATOR_HEADER } from '../access/operator.ts';
import { createOwner } from '../catalog/owners.ts';
import { invalid } from '../editing/refusals.ts';
import type { GroupOptions } from '../http/group.ts';
import { loginRateLimit } from '../http/limits.ts';
import { okSchema } from '../http/success-envelope.ts';
import { newOwnerCreatedSchema, newOwnerSchema } from './contract.ts';
import { StudioError } from './errors.ts';

const operatorOwnerSchema = newOwnerSchema.extend({ id: z.int().optional().describe('a public id a legacy system handed out (1-9,999,999)') });

export const operatorRoutes: FastifyPluginAsync<GroupOptions> = async (plain, { database, config, operatorSecret }) => {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/operator/owners',
    {
      config: { anonymous: true, ...loginRateLimit(config) },
      schema: {
        description: `The operator's \`channelnet owner create\` while this server holds the embedded database: the secret it wrote to DATA_DIR/channelnet.operator.json in the ${OPERATOR_HEADER} header (docs/operations.md).`,
        security: [],
        body: operatorOwnerSchema,
        response: { 201: okSchema(newOwnerCreatedSchema) },
      },
      // The secret before the body: an outsider's body is never read.
      onRequest: async (request) => {
        if (!isOperatorSecret(operatorSecret, request.headers[OPERATOR_HEADER]))
          throw new StudioError(404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
      },
    },
    async (request, reply) => {
      const result = await createOwner(database.db, request.body, request.now);
      if (!result.ok) throw invalid(result.errors);
      return reply.code(201).send({ success: true as const, data: { id: result.id, username: request.body.username } });
    },
  );
};
