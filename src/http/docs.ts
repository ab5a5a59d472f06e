// OpenAPI 3.1 generated from the route schemas (zod, through fastify-type-provider-zod):
// the interactive page at /docs, the document at /docs/openapi.json. Which routes are documented
// is the registry's word (src/groups.ts): the Legacy Web Services keep their original contract
// and are left out; so are operational routes. Each documented operation also carries:
// - its group's failures (status, words, the envelope's schema), as the group declares them;
// - its security requirement: the Bearer token where the group's scope checks one
//   (documentSecurity, called by the group on that scope), none elsewhere;
// - request and answer examples where the docs' executed curl examples call it (openapi-examples.ts).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachExamples } from './openapi-examples.ts';
import { docsCsp, protectPages } from './page-headers.ts';

/** What the docs say of a group's operations: its failure body and the statuses it answers with. */
export interface GroupDocs {
  failure: z.ZodType;
  /** The failure body's name in the document's components (each operation refers to it). */
  failureName: string;
  /** Status -> when (every operation of the group may answer these). */
  failures: Readonly<Record<number, string>>;
}

export const BEARER_SECURITY = [{ bearer: [] }];
const UNAUTHORIZED = 'No valid Bearer token (missing, unknown, expired, revoked, or of another scope).';
const NOT_FOUND = "No such resource (or not the caller's: another owner's is answered as missing).";

/** Marks every route registered on `scope` from now on as behind the Bearer check. */
export function documentSecurity(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    // A route that asks for no sign-in says so itself (`security: []`).
    route.schema = { ...(route.schema ?? {}), security: route.schema?.security ?? BEARER_SECURITY };
  });
}

// Marks a failure body in a route's responses; transformObject swaps it for a $ref to one copy
// in components. Inline, the group's envelope was repeated in each of ~1,000 responses: 1.2 MB
// that swagger-ui took 4.5 s to render (over 20 s on a loaded machine).
const FAILURE_MARK = 'x-channelnet-failure';

const jsonOf = (schema: z.ZodType) => {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

export async function registerDocs(app: FastifyInstance, docsOf: (url: string) => GroupDocs | undefined): Promise<void> {
  const failureJson = new Map<string, Record<string, unknown>>();
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
      const docs = docsOf(url);
      if (!docs) return { ...transformed, schema: { ...transformed.schema, hide: true } };
      const schema = transformed.schema as FastifySchema & { response?: Record<string, unknown> };
      if (!failureJson.has(docs.failureName)) failureJson.set(docs.failureName, jsonOf(docs.failure));
      const failures: Record<number, string> = { ...docs.failures };
      if (schema.security !== undefined && !(401 in failures)) failures[401] = UNAUTHORIZED;
      if (url.includes(':') && !(404 in failures)) failures[404] = NOT_FOUND;
      // A route's own schema for a status (a documented refusal body) wins.
      const response = { ...(schema.response ?? {}) };
      for (const [status, description] of Object.entries(failures)) if (!(status in response)) response[status] = { description, type: 'object', [FAILURE_MARK]: docs.failureName };
      return { ...transformed, url, schema: { ...schema, response } };
    },
    transformObject: (documents) => {
      if (!('openapiObject' in documents)) return documents.swaggerObject;
      const document = referToFailures(documents.openapiObject as OpenApiDocument, failureJson);
      attachExamples(document);
      return document;
    },
  });
  // The page and the document in one scope, framed by no one (swagger-ui sets the page's CSP).
  await app.register(async (docs) => {
    protectPages(docs);
    await docs.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, transformStaticCSP: docsCsp });
    docs.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  });
}

type OpenApiDocument = {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> }>>;
  components?: { schemas?: Record<string, unknown> };
};

/** Each marked failure body becomes a $ref to its one copy under components.schemas. */
function referToFailures(document: OpenApiDocument, failures: Map<string, Record<string, unknown>>): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) {
          const name = media.schema?.[FAILURE_MARK];
          if (typeof name === 'string') media.schema = { $ref: `#/components/schemas/${name}` };
        }
      }
    }
  }
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...Object.fromEntries(failures) } };
  return document;
}
