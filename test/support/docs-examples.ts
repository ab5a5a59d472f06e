// Reading the docs' curl examples (test/docs-examples.test.ts): the ```sh blocks that call the
// service at localhost:8080, as steps (a command, then the answer written under it as `# ...`
// lines), and each command as the request it makes. Only the curl this house writes is read:
// -s, -X METHOD, -H 'name: value', -d 'body', and NAME=$(curl ... | jq -r .path) to keep a value.
// The same steps are the OpenAPI document's examples (openApiExamples, below).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenApiExample } from '../../src/http/openapi-examples.ts';

export interface DocsStep {
  command: string;
  /** The answer written under the command (`# ` lines joined), or undefined when none is. */
  expected?: string;
}

export interface DocsExample {
  where: string;
  title: string;
  steps: DocsStep[];
}

export interface CurlCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** NAME=$(curl ... | jq -r .a.b): the value at .a.b of the answer is kept as $NAME. */
  assign?: { name: string; pick: (json: unknown) => unknown };
}

const SERVICE = 'localhost:8080';
/** An answer line: a status and a body, or a body. Other comment lines are prose. */
const ANSWER = /^(\d{3} )?[{[]/;

export function docsExamples(where: string, markdown: string): DocsExample[] {
  const examples: DocsExample[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```sh') continue;
    const start = i;
    const block: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) block.push(lines[i]!);
    if (!block.some((line) => line.includes(`curl `) && line.includes(SERVICE))) continue;
    examples.push({ where: `${where}:${start + 1}`, title: titleBefore(lines, start), steps: stepsOf(block) });
  }
  return examples;
}

/** The paragraph line just above a block ("Example: ..."), as the test's name. */
function titleBefore(lines: readonly string[], index: number): string {
  for (let i = index - 1; i >= 0; i--) if (lines[i]!.trim() !== '') return lines[i]!.trim().slice(0, 120);
  return 'example';
}

function stepsOf(block: readonly string[]): DocsStep[] {
  const steps: DocsStep[] = [];
  let command = '';
  let answer: string[] = [];
  const flush = () => {
    if (command) steps.push({ command, ...(answer.length > 0 ? { expected: answer.join('') } : {}) });
    command = '';
    answer = [];
  };
  let continued = false;
  for (const raw of block) {
    const line = raw.trimEnd();
    if (continued) {
      command += ` ${line.replace(/\\$/, '').trim()}`;
      continued = line.endsWith('\\');
      continue;
    }
    if (line.startsWith('#')) {
      const text = line.replace(/^#\s*/, '');
      // An answer goes on over indented `#` lines; anything else under a command is prose.
      if (answer.length > 0 && /^#\s{2,}/.test(line)) answer.push(text);
      else if (command && ANSWER.test(text)) answer.push(text);
      continue;
    }
    if (line.trim() === '') continue;
    flush();
    command = line.replace(/\\$/, '').trim();
    continued = line.endsWith('\\');
  }
  flush();
  return steps;
}

/** Shell words of a command line: single quotes verbatim, double quotes with $NAME substituted. */
function words(text: string, vars: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  let i = 0;
  const substitute = (s: string) =>
    s.replace(/\$([A-Z_][A-Z0-9_]*)/g, (_, name: string) => {
      const value = vars.get(name);
      if (value === undefined) throw new Error(`$${name} is not set`);
      return value;
    });
  while (i < text.length) {
    while (text[i] === ' ') i++;
    if (i >= text.length) break;
    let word = '';
    while (i < text.length && text[i] !== ' ') {
      const quote = text[i];
      if (quote === "'" || quote === '"') {
        const end = text.indexOf(quote, i + 1);
        if (end < 0) throw new Error(`unclosed ${quote} in ${text}`);
        const inner = text.slice(i + 1, end);
        word += quote === '"' ? substitute(inner) : inner;
        i = end + 1;
      } else {
        let j = i;
        while (j < text.length && text[j] !== ' ' && text[j] !== "'" && text[j] !== '"') j++;
        word += substitute(text.slice(i, j));
        i = j;
      }
    }
    out.push(word);
  }
  return out;
}

/** The request a command makes (throws on what this reader does not know: the example must be fixed). */
export function parseCurl(command: string, vars: ReadonlyMap<string, string> = new Map([['TOKEN', 'token']])): CurlCall {
  const assigned = /^([A-Z_][A-Z0-9_]*)=\$\((.*)\|\s*jq -r (\.[\w.]+)\)$/.exec(command);
  if (assigned) {
    const keys = assigned[3]!.slice(1).split('.');
    const call = parseCurl(assigned[2]!.trim(), vars);
    return { ...call, assign: { name: assigned[1]!, pick: (json) => keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], json) } };
  }
  const [curl, ...args] = words(command, vars);
  if (curl !== 'curl') throw new Error(`not a curl command: ${command}`);
  let method: string | undefined;
  let path: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-s') continue;
    if (arg === '-X') method = args[++i];
    else if (arg === '-H') {
      const header = args[++i]!;
      const colon = header.indexOf(':');
      if (colon < 0) throw new Error(`header without a colon: ${header}`);
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d') body = args[++i];
    else if (arg.startsWith(SERVICE)) path = arg.slice(SERVICE.length);
    else throw new Error(`unknown curl argument ${arg} in ${command}`);
  }
  if (path === undefined) throw new Error(`no ${SERVICE} URL in ${command}`);
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), path, headers, ...(body === undefined ? {} : { body }) };
}

/**
 * Whether an answer is the one written: `NNN body` names the status (else any 2xx), and the body
 * must match whole, `...` standing for any text.
 */
export function matchesExpected(expected: string, status: number, body: string): boolean {
  const written = /^(\d{3}) (.*)$/s.exec(expected);
  const wantStatus = written ? Number(written[1]) : undefined;
  if (wantStatus === undefined ? status < 200 || status > 299 : status !== wantStatus) return false;
  const pattern = (written ? written[2]! : expected)
    .split('...')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(body);
}

/** An example larger than this (JSON characters) is left out: the document stays small. */
export const MAX_EXAMPLE_CHARS = 2_000;

/**
 * The OpenAPI examples in the docs' examples (src/http/openapi-examples.ts places each on the
 * operation its path calls): a step's JSON request body (unless its written
 * answer is a refusal: those bodies are wrong on purpose), and its written answer when that is JSON
 * (`...` inside strings elides text and is kept, said in the summary; `...` between fields leaves the
 * answer out, as it is no JSON). A value set by an earlier step reads `{NAME}` (a path parameter).
 */
export function openApiExamples(examples: readonly DocsExample[]): OpenApiExample[] {
  const out: OpenApiExample[] = [];
  const inFile = new Map<string, number>();
  for (const example of examples) {
    // Named by their order in the file, not their line: an edit above a block renames nothing.
    const file = example.where.replace(/:\d+$/, '');
    const nth = (inFile.get(file) ?? 0) + 1;
    inFile.set(file, nth);
    const vars = new Map<string, string>();
    const about = example.title.replace(/^Example:\s*/i, '').replace(/[.:]$/, '');
    example.steps.forEach((step, index) => {
      const call = parseCurl(step.command, vars);
      if (call.assign) vars.set(call.assign.name, `{${call.assign.name}}`);
      const answer = step.expected === undefined ? undefined : /^(?:(\d{3}) )?(.*)$/s.exec(step.expected)!;
      const status = answer?.[1] === undefined ? undefined : Number(answer[1]);
      const refused = status !== undefined && (status < 200 || status > 299);
      const request = !refused && /json/i.test(call.headers['content-type'] ?? '') ? jsonOrUndefined(call.body) : undefined;
      const body = answer ? jsonOrUndefined(answer[2]!) : undefined;
      const elided = body !== undefined && answer![2]!.includes('...');
      const keep = (value: unknown) =>
        value !== undefined && JSON.stringify(value).length <= MAX_EXAMPLE_CHARS && ![...vars.values()].some((v) => JSON.stringify(value).includes(v));
      const keepRequest = keep(request);
      const keepResponse = keep(body);
      if (!keepRequest && !keepResponse) return;
      out.push({
        name: `${file.replace(/^docs\//, '')} example ${nth} step ${index + 1}`,
        summary: `${file}, example ${nth} (${about}), step ${index + 1}${elided ? '; `...` elides text' : ''}`,
        method: call.method.toLowerCase(),
        path: call.path.replace(/\?.*$/, ''),
        ...(keepRequest ? { request } : {}),
        ...(keepResponse ? { response: { ...(status === undefined ? {} : { status }), body } } : {}),
      });
    });
  }
  return out;
}

function jsonOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const DOCS = path.resolve(import.meta.dirname, '..', '..', 'docs');
/** The committed examples the served document carries (src/http/openapi-examples.ts reads them). */
export const OPENAPI_EXAMPLES_FILE = path.resolve(import.meta.dirname, '..', '..', 'src', 'http', 'openapi-examples.json');

/** Every example in docs/*.md, in file order. */
export function readDocsExamples(): DocsExample[] {
  return readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .flatMap((name) => docsExamples(`docs/${name}`, readFileSync(path.join(DOCS, name), 'utf8')));
}

/** What OPENAPI_EXAMPLES_FILE holds when it is what the docs now say (scripts/openapi-examples.ts writes it). */
export function openApiExamplesJson(): string {
  const madeBy = 'npx tsx scripts/openapi-examples.ts, from the curl examples of docs/*.md (test/openapi-examples.test.ts fails when they differ)';
  return `${JSON.stringify({ madeBy, examples: openApiExamples(readDocsExamples()) }, null, 2)}\n`;
}
