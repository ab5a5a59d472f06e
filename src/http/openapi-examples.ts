// The OpenAPI document's request and answer examples are the docs' curl examples: the ```sh blocks
// of docs/*.md that test/docs-examples.test.ts runs against the service, so an example that went
// stale fails CI there. scripts/openapi-examples.ts extracts them into openapi-examples.json (the
// server reads no docs at run time: the bundle and the image carry no docs/), and
// test/openapi-examples.test.ts fails while that file differs from what the docs say. Here each
// one is put on the operation it calls, in OpenAPI 3's `examples` maps.
import committed from './openapi-examples.json' with { type: 'json' };

/** One docs step as an example: the request it sends and the answer written under it. */
export interface OpenApiExample {
  /** The key in the operation's `examples` map: the docs file, the example's place in it and the step. */
  name: string;
  summary: string;
  method: string;
  /** The path as the docs call it (`/api/v1/studio/channels/10000000/schedules`), without its query. */
  path: string;
  /** The JSON body sent, when the step is not answered with a refusal. */
  request?: unknown;
  /** The answer written: its status when the docs name one (else the operation's one 2xx), its JSON body. */
  response?: { status?: number; body: unknown };
}

/** At most this many examples per request body and per answer status: the document stays small. */
export const MAX_EXAMPLES_PER_PLACE = 3;

type Media = { schema?: unknown; examples?: Record<string, { summary: string; value: unknown }> };
type Operation = { requestBody?: { content?: Record<string, Media> }; responses?: Record<string, { content?: Record<string, Media> }> };
export type ExamplesDocument = { paths?: Record<string, Record<string, Operation>> };

export const DOCS_EXAMPLES: readonly OpenApiExample[] = committed.examples;

/**
 * The document path (`/api/v1/studio/channels/{channelId}/schedules`) that serves `path`, chosen
 * as the router does: segment by segment, a fixed segment before a parameter.
 */
export function templateOf(paths: readonly string[], path: string): string | undefined {
  const segments = path.split('/');
  let best: { template: string; rank: string } | undefined;
  for (const template of paths) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    let rank = '';
    for (let i = 0; i < parts.length && rank.length === i; i++) {
      if (parts[i] === segments[i]) rank += '2';
      else if (/^\{[^}]+\}$/.test(parts[i]!)) rank += '1';
    }
    if (rank.length === parts.length && (!best || rank > best.rank)) best = { template, rank };
  }
  return best?.template;
}

/** Puts each example on its operation (in place); answers how many request and answer examples it placed. */
export function attachExamples(document: ExamplesDocument, examples: readonly OpenApiExample[] = DOCS_EXAMPLES): number {
  const paths = document.paths ?? {};
  let placed = 0;
  const add = (media: Media, example: OpenApiExample, value: unknown) => {
    if (Object.keys(media.examples ?? {}).length >= MAX_EXAMPLES_PER_PLACE) return;
    media.examples = { ...media.examples, [example.name]: { summary: example.summary, value } };
    placed++;
  };
  for (const example of examples) {
    const template = templateOf(Object.keys(paths), example.path);
    const operation = template === undefined ? undefined : paths[template]?.[example.method];
    if (!operation) continue;
    // Fresh objects on the way down: a response or media object may be shared between operations.
    const body = operation.requestBody;
    if (example.request !== undefined && body?.content?.['application/json']) {
      const media = { ...body.content['application/json'] };
      operation.requestBody = { ...body, content: { ...body.content, 'application/json': media } };
      add(media, example, example.request);
    }
    if (example.response) {
      const responses = operation.responses ?? {};
      const success = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
      const status = example.response.status === undefined ? (success.length === 1 ? success[0] : undefined) : String(example.response.status);
      const response = status === undefined ? undefined : responses[status];
      if (status !== undefined && response?.content?.['application/json']) {
        const media = { ...response.content['application/json'] };
        operation.responses = { ...responses, [status]: { ...response, content: { ...response.content, 'application/json': media } } };
        add(media, example, example.response.body);
      }
    }
  }
  return placed;
}
