// A small XML 1.0 well-formedness checker and tree builder for tests (no package does it here):
// the XML declaration, a DOCTYPE without internal subset, one root element, properly nested and
// matching tags, quoted and unique attributes, only the five predefined entities and character
// references naming XML characters, no `<` or stray `&` in text or attribute values, no `]]>` in
// text, comments without `--`, CDATA sections, processing instructions, and every character one
// XML 1.0 allows. Anything else throws an XmlError naming the offset.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (entities resolved), children's left out. */
  text: string;
}

export interface XmlDocument {
  declaration: Record<string, string> | undefined;
  doctype: { name: string; system: string | undefined } | undefined;
  root: XmlElement;
}

export class XmlError extends Error {}

const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const NAME = /^[A-Za-z_:\u00C0-\uFFFD][A-Za-z0-9_:.\-\u00B7\u00C0-\uFFFD]*/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const isXmlChar = (code: number) =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new XmlError(`${message} at offset ${this.at}: ${JSON.stringify(this.text.slice(this.at, this.at + 40))}`);
  }
  startsWith(s: string) {
    return this.text.startsWith(s, this.at);
  }
  expect(s: string) {
    if (!this.startsWith(s)) this.fail(`expected ${JSON.stringify(s)}`);
    this.at += s.length;
  }
  spaces(required = false) {
    const start = this.at;
    while (/[ \t\r\n]/.test(this.text[this.at] ?? '')) this.at++;
    if (required && this.at === start) this.fail('expected white space');
  }
  name(): string {
    const match = NAME.exec(this.text.slice(this.at, this.at + 200));
    if (!match) this.fail('expected a name');
    this.at += match[0].length;
    return match[0];
  }
  until(end: string, what: string): string {
    const stop = this.text.indexOf(end, this.at);
    if (stop < 0) this.fail(`unterminated ${what}`);
    const inside = this.text.slice(this.at, stop);
    this.at = stop + end.length;
    return inside;
  }
  quoted(): string {
    const quote = this.text[this.at];
    if (quote !== '"' && quote !== "'") this.fail('expected a quoted value');
    this.at++;
    return this.until(quote, 'quoted value');
  }
}

/** Text with its references resolved; `<` and unterminated or unknown references refused. */
function resolveReferences(reader: Reader, raw: string): string {
  if (raw.includes('<')) reader.fail('"<" in character data or an attribute value');
  return raw.replace(/&([^;&\s]*)(;?)/g, (whole, body: string, semicolon: string) => {
    if (semicolon !== ';') reader.fail(`bare "&" (${JSON.stringify(whole)})`);
    if (body in PREDEFINED) return PREDEFINED[body]!;
    const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
    if (!numeric) reader.fail(`unknown entity &${body};`);
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
    if (!isXmlChar(code)) reader.fail(`character reference &${body}; names no XML character`);
    return String.fromCodePoint(code);
  });
}

function misc(reader: Reader): void {
  for (;;) {
    reader.spaces();
    if (reader.startsWith('<!--')) comment(reader);
    else if (reader.startsWith('<?')) processingInstruction(reader);
    else return;
  }
}

function comment(reader: Reader): void {
  reader.expect('<!--');
  const inside = reader.until('-->', 'comment');
  if (inside.includes('--') || inside.endsWith('-')) reader.fail('"--" inside a comment');
}

function processingInstruction(reader: Reader): void {
  reader.expect('<?');
  const target = reader.name();
  if (target.toLowerCase() === 'xml') reader.fail('XML declaration not at the start');
  reader.until('?>', 'processing instruction');
}

function attributes(reader: Reader): Record<string, string> {
  const found: Record<string, string> = {};
  for (;;) {
    const before = reader.at;
    reader.spaces();
    if (reader.startsWith('>') || reader.startsWith('/>') || reader.startsWith('?>')) return found;
    if (reader.at === before) reader.fail('expected white space before an attribute');
    const name = reader.name();
    reader.spaces();
    reader.expect('=');
    reader.spaces();
    if (Object.hasOwn(found, name)) reader.fail(`attribute ${name} given twice`);
    found[name] = resolveReferences(reader, reader.quoted());
  }
}

function declaration(reader: Reader): Record<string, string> | undefined {
  if (!reader.startsWith('<?xml')) return undefined;
  reader.expect('<?xml');
  const values = attributes(reader);
  reader.spaces();
  reader.expect('?>');
  if (values['version'] !== '1.0') reader.fail('XML declaration without version="1.0"');
  const allowed = ['version', 'encoding', 'standalone'];
  if (Object.keys(values).some((k) => !allowed.includes(k)) || Object.keys(values)[0] !== 'version') reader.fail('bad XML declaration');
  return values;
}

function doctype(reader: Reader): XmlDocument['doctype'] {
  if (!reader.startsWith('<!DOCTYPE')) return undefined;
  reader.expect('<!DOCTYPE');
  reader.spaces(true);
  const name = reader.name();
  reader.spaces();
  let system: string | undefined;
  if (reader.startsWith('SYSTEM')) {
    reader.expect('SYSTEM');
    reader.spaces(true);
    system = reader.quoted();
    reader.spaces();
  }
  if (reader.startsWith('[')) reader.fail('internal DTD subsets are not supported by this checker');
  reader.expect('>');
  return { name, system };
}

function element(reader: Reader): XmlElement {
  reader.expect('<');
  const name = reader.name();
  const node: XmlElement = { name, attributes: attributes(reader), children: [], text: '' };
  if (reader.startsWith('/>')) {
    reader.at += 2;
    return node;
  }
  reader.expect('>');
  for (;;) {
    const next = reader.text.indexOf('<', reader.at);
    if (next < 0) reader.fail(`unclosed element <${name}>`);
    const raw = reader.text.slice(reader.at, next);
    if (raw.includes(']]>')) reader.fail('"]]>" in character data');
    node.text += resolveReferences(reader, raw);
    reader.at = next;
    if (reader.startsWith('</')) {
      reader.at += 2;
      const closing = reader.name();
      if (closing !== name) reader.fail(`</${closing}> closes <${name}>`);
      reader.spaces();
      reader.expect('>');
      return node;
    }
    if (reader.startsWith('<!--')) comment(reader);
    else if (reader.startsWith('<![CDATA[')) {
      reader.at += 9;
      node.text += reader.until(']]>', 'CDATA section');
    } else if (reader.startsWith('<?')) processingInstruction(reader);
    else node.children.push(element(reader));
  }
}

/** Parses a whole document, or throws an XmlError saying where it is not well-formed. */
export function parseXml(text: string): XmlDocument {
  const reader = new Reader(text);
  if (!XML_CHAR.test(text)) {
    let bad = 0;
    while (isXmlChar(text.codePointAt(bad)!)) bad += text.codePointAt(bad)! > 0xffff ? 2 : 1;
    reader.at = bad;
    reader.fail(`character U+${text.codePointAt(bad)!.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML 1.0`);
  }
  const decl = declaration(reader);
  misc(reader);
  const type = doctype(reader);
  misc(reader);
  if (!reader.startsWith('<')) reader.fail('expected the root element');
  const root = element(reader);
  misc(reader);
  if (reader.at !== text.length) reader.fail('content after the root element');
  if (type && type.name !== root.name) reader.fail(`DOCTYPE ${type.name} does not name the root <${root.name}>`);
  return { declaration: decl, doctype: type, root };
}
