// OpenAPI 3.1 generated from the route schemas (zod, through fastify-type-provider-zod):
// the interactive page at /docs, the document at /docs/openapi.json. Which routes are documented
// is the registry's word (src/groups.ts): the Legacy Web Services keep their original contract
// and are left out; so are operational routes.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { docsCsp, protectPages } from './page-headers.ts';

export async function registerDocs(app: FastifyInstance, isDocumented: (url: string) => boolean): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'channelnet',
        version: '1',
        description: 'REST API, Custom Services API and activity ingestion of the channel network service.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'GUID' } } },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // A plugin's '/' route under a prefix is also served without the slash: document that form.
      const url = input.url.replace(/(.)\/$/, '$1');
      if (!isDocumented(url)) return { ...transformed, schema: { ...transformed.schema, hide: true } };
      return { ...transformed, url };
    },
  });
  // The page and the document in one scope, framed by no one (swagger-ui sets the page's CSP).
  await app.register(async (docs) => {
    protectPages(docs);
    await docs.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, transformStaticCSP: docsCsp });
    docs.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}
