// A request refused at the edge, before any route sees it, for what its bytes are rather than
// what they mean: a JSON body nested too deep to parse cheaply, a NUL character (which no
// PostgreSQL text or jsonb value can hold) in a body or query value. src/http knows no group, so
// each group presents the refusal in its own validation envelope (REST 400, Studio 400 or 422
// with `details`, Custom API 422 naming the field), by `where` and `path`.

export type InputPart = 'body' | 'querystring';

export class RefusedInput extends Error {
  /** Fastify's own status for a client fault, for any handler that reads only the status. */
  readonly statusCode = 400;

  constructor(
    /** `too_deep`: the body as a whole; `nul`: one value (or key) at `path`. */
    readonly reason: 'too_deep' | 'nul',
    readonly where: InputPart,
    /** Keys from the body (or query) root to the refused value; empty for the whole body. */
    readonly path: readonly (string | number)[],
    /** What is wrong, without the part or path: "must not contain NUL (U+0000) characters". */
    readonly problem: string,
  ) {
    super(path.length === 0 ? `${where}: ${problem}` : `${where}.${path.join('.')}: ${problem}`);
    this.name = 'RefusedInput';
  }
}

/** The path as a JSON pointer (`/channels/0/name`), as fastify-type-provider-zod words paths. */
export const pointerOf = (path: readonly (string | number)[]): string => path.map((key) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
