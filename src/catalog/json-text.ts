// JSON.parse's messages differ between Node versions and often omit the position, so on
// failure the text is re-scanned here to name the first bad character by line and column.

export type ParsedText = { ok: true; value: unknown } | { ok: false; errors: string[] };

class SyntaxProblem extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4_RE = /^[0-9a-fA-F]{4}$/;

/** A recursive-descent recogniser for RFC 8259 JSON; it only finds where the text goes wrong. */
class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  scanDocument(): void {
    this.skipSpace();
    this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail('unexpected text after the JSON value');
  }

  private fail(message: string): never {
    throw new SyntaxProblem(this.pos, message);
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && WHITESPACE.has(this.text[this.pos]!)) this.pos++;
  }

  private expect(ch: string): void {
    const got = this.peek();
    if (got === undefined) this.fail(`unexpected end of input, expected '${ch}' (file truncated?)`);
    if (got !== ch) this.fail(`unexpected ${describe(got)}, expected '${ch}'`);
    this.pos++;
  }

  private value(): void {
    const ch = this.peek();
    if (ch === undefined) this.fail('unexpected end of input (file truncated?)');
    if (ch === '{') return this.object();
    if (ch === '[') return this.array();
    if (ch === '"') return this.string();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    NUMBER_RE.lastIndex = this.pos;
    const match = NUMBER_RE.exec(this.text);
    if (match === null || match[0].length === 0) this.fail(`unexpected ${describe(ch)}`);
    this.pos += match[0].length;
  }

  private members(close: string, member: () => void): void {
    this.pos++;
    this.skipSpace();
    if (this.peek() === close) {
      this.pos++;
      return;
    }
    for (;;) {
      member();
      this.skipSpace();
      const ch = this.peek();
      if (ch === ',') {
        this.pos++;
        this.skipSpace();
        continue;
      }
      if (ch === close) {
        this.pos++;
        return;
      }
      if (ch === undefined) this.fail(`unexpected end of input, expected ',' or '${close}' (file truncated?)`);
      this.fail(`unexpected ${describe(ch)}, expected ',' or '${close}'`);
    }
  }

  private object(): void {
    this.members('}', () => {
      if (this.peek() !== '"') {
        if (this.peek() === undefined) this.fail('unexpected end of input, expected a property name (file truncated?)');
        this.fail(`unexpected ${describe(this.peek()!)}, expected a property name in double quotes`);
      }
      this.string();
      this.skipSpace();
      this.expect(':');
      this.skipSpace();
      this.value();
    });
  }

  private array(): void {
    this.members(']', () => this.value());
  }

  private string(): void {
    this.pos++;
    for (;;) {
      const ch = this.peek();
      if (ch === undefined) this.fail('unexpected end of input inside a string (file truncated?)');
      if (ch === '"') {
        this.pos++;
        return;
      }
      if (ch < ' ') this.fail('control character inside a string');
      if (ch === '\\') this.escape();
      else this.pos++;
    }
  }

  private escape(): void {
    const ch = this.text[this.pos + 1];
    if (ch === 'u' && HEX4_RE.test(this.text.slice(this.pos + 2, this.pos + 6))) {
      this.pos += 6;
      return;
    }
    if (ch !== undefined && ESCAPES.has(ch)) {
      this.pos += 2;
      return;
    }
    if (ch === undefined) this.fail('unexpected end of input inside a string (file truncated?)');
    this.fail('bad escape sequence in a string');
  }
}

function describe(ch: string): string {
  return WHITESPACE.has(ch) || ch < ' ' ? `character U+${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : `'${ch}'`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function locateSyntaxError(text: string, fallback: string): string {
  try {
    new Scanner(text).scanDocument();
  } catch (e) {
    if (e instanceof SyntaxProblem) {
      const { line, column } = lineAndColumn(text, e.offset);
      return `(root): JSON syntax error at line ${line}, column ${column}: ${e.message}`;
    }
    throw e;
  }
  return `(root): JSON syntax error: ${fallback}`;
}

/** Parses catalog text; a leading UTF-8 byte order mark is ignored. */
export function parseCatalogText(text: string): ParsedText {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (e) {
    const fallback = e instanceof Error ? e.message : String(e);
    return { ok: false, errors: [locateSyntaxError(body, fallback)] };
  }
}
