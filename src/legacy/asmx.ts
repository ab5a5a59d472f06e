// Wire format of the legacy ASP.NET ASMX endpoints (.NET Framework 4.x), as pure functions:
// the XML string wrapper, the ScriptService {"d":...} form, the plain-text 500 pages and the
// parameter reading rules. Each rule cites the source file it was checked against.

export const ASMX_XML_CONTENT_TYPE = 'text/xml; charset=utf-8';
export const ASMX_AJAX_CONTENT_TYPE = 'application/json; charset=utf-8';
export const ASMX_ERROR_CONTENT_TYPE = 'text/plain; charset=utf-8';
export const ASMX_ERROR_STATUS = 500;

const CRLF = '\r\n';

// --- success bodies ----------------------------------------------------------------------

// XmlReturnWriter.Write hands the string to XmlSerializer.Serialize(TextWriter), which uses an
// XmlTextWriter with Formatting.Indented (XmlSerializer.cs): declaration, CRLF, one element.
// UTF8Encoding(false) means no BOM.
export function asmxXmlBody(text: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>${CRLF}<string xmlns="http://tempuri.org/">${xmlText(text)}</string>`;
}

// XmlTextEncoder.Write (text content, not an attribute): &, <, > become entities; quotes, tab,
// CR and LF stay; other chars below 0x20 and U+FFFE/U+FFFF become &#xH; (uppercase hex);
// surrogate pairs stay. A lone surrogate makes XmlTextWriter throw, so it throws here too.
function xmlText(text: string): string {
  return text.replace(/[&<>\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => {
    if (ch === '&') return '&amp;';
    if (ch === '<') return '&lt;';
    if (ch === '>') return '&gt;';
    const code = ch.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) throw new RangeError('lone surrogate cannot be written as XML');
    return `&#x${code.toString(16).toUpperCase()};`;
  });
}

// RestHandler.InvokeMethod (System.Web.Extensions): "{\"d\":" + JavaScriptSerializer.Serialize(result)
// + "}"; a string result goes through HttpUtility.JavaScriptStringEncode (JavaScriptSerializer.cs).
export function asmxAjaxBody(text: string): string {
  return `{"d":"${javaScriptStringEncode(text)}"}`;
}

// HttpEncoder.cs (4.5+) JavaScriptStringEncode / CharRequiresJavaScriptEncoding: \r \t \" \\ \n
// \b \f short forms; every other char below 0x20 and ', <, >, & (JavaScriptEncodeAmpersand is on
// by default), U+0085, U+2028, U+2029 as \uXXXX with lowercase hex ("x4").
export function javaScriptStringEncode(s: string): string {
  return s.replace(/[\u0000-\u001f"\\'<>&\u0085\u2028\u2029]/g, (ch) => JS_SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const JS_SHORT: Record<string, string> = {
  '\r': '\\r',
  '\t': '\\t',
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\b': '\\b',
  '\f': '\\f',
};

// --- error bodies ------------------------------------------------------------------------

/**
 * HttpServerProtocol.WriteException writes GenerateFaultString(e, htmlEscapeMessage: true) plus
 * CRLF (StreamWriter.WriteLine) as text/plain, status 500 (ServerProtocol.cs):
 * - 'detailed' (customErrors off): "Type: message" for each exception, joined by " ---> ", then
 *   "\r\n   --- End of inner exception stack trace ---" when there is an inner exception. The real
 *   page also carries .NET stack-trace lines ("   at System.Web.Services..."), left out here.
 * - 'customErrors' (custom errors on, e.g. remote clients with the default RemoteOnly): only the
 *   messages, joined by " ---> ".
 * Messages are HTML-encoded in both styles.
 */
export type AsmxErrorStyle = 'detailed' | 'customErrors';

type Fault = { type: string; message: string };

function faultBody(chain: Fault[], style: AsmxErrorStyle): string {
  const parts = chain.map((f) => (style === 'detailed' ? `${f.type}: ${htmlEncode(f.message)}` : htmlEncode(f.message)));
  const end = style === 'detailed' && chain.length > 1 ? `${CRLF}   --- End of inner exception stack trace ---` : '';
  return `${parts.join(' ---> ')}${end}${CRLF}`;
}

// ValueCollectionParameterReader.Read: a null collection[name] throws
// InvalidOperationException(Res.WebMissingParameter) = "Missing parameter: {0}.".
export function missingParameterBody(name: string, style: AsmxErrorStyle = 'detailed'): string {
  return faultBody([{ type: 'System.InvalidOperationException', message: `Missing parameter: ${name}.` }], style);
}

export type AsmxScalarType = 'string' | 'int32' | 'boolean';
export type ParseFailure = 'format' | 'overflow';

const CLR_TYPE = { string: 'System.String', int32: 'System.Int32', boolean: 'System.Boolean' } as const;

function innerFault(type: AsmxScalarType, reason: ParseFailure): Fault {
  if (reason === 'overflow') return { type: 'System.OverflowException', message: 'Value was either too large or too small for an Int32.' };
  if (type === 'boolean') return { type: 'System.FormatException', message: 'String was not recognized as a valid Boolean.' };
  return { type: 'System.FormatException', message: 'Input string was not in a correct format.' };
}

/**
 * ScalarFormatter.FromString (Scalars.cs) wraps the Convert.ChangeType failure as
 * ArgumentException(Res.WebChangeTypeFailed = "Cannot convert {0} to {1}.", "type", inner); the
 * .NET Framework ArgumentException message appends "\r\nParameter name: type". The parameter's
 * own name is not part of the text; `_name` is kept for call-site readability.
 */
export function invalidValueBody(_name: string, value: string, type: AsmxScalarType = 'int32', reason: ParseFailure = 'format', style: AsmxErrorStyle = 'detailed'): string {
  const outer = { type: 'System.ArgumentException', message: `Cannot convert ${value} to ${CLR_TYPE[type]}.${CRLF}Parameter name: type` };
  return faultBody([outer, innerFault(type, reason)], style);
}

// WebUtility.HtmlEncode (4.5+, Strict conformance): < > " ' & as entities, U+00A0..U+00FF and
// astral chars (surrogate pairs) as decimal &#N;, a lone surrogate as U+FFFD.
export function htmlEncode(s: string): string {
  return s.replace(/[<>"'&\u00a0-\u00ff]|[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]/g, (ch) => {
    const named = HTML_NAMED[ch];
    if (named) return named;
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
    return `&#${cp};`;
  });
}

const HTML_NAMED: Record<string, string> = { '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '&': '&amp;' };

// --- parameter values --------------------------------------------------------------------

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: ParseFailure };

// Int32.Parse(s, NumberStyles.Integer, InvariantCulture) via Convert.ChangeType (Number.cs):
// whitespace is 0x09-0x0D and 0x20 (IsWhite), then an optional + or -, ASCII digits, optional
// trailing whitespace, and trailing NUL chars are tolerated (TrailingZeros). No whitespace after
// the sign, no thousands separators, no decimal point.
const INT32_RE = /^[\t-\r ]*([+-]?)([0-9]+)[\t-\r ]*\0*$/;

export function parseInt32(text: string): Parsed<number> {
  const m = INT32_RE.exec(text);
  if (!m) return { ok: false, reason: 'format' };
  const n = BigInt(`${m[1]}${m[2]}`);
  if (n < -2147483648n || n > 2147483647n) return { ok: false, reason: 'overflow' };
  return { ok: true, value: Number(n) };
}

// Char.IsWhiteSpace: 0x09-0x0D, 0x20, U+0085, U+00A0 and the Zs/Zl/Zp chars.
const TRIM_CHARS = '\t\n\u000b\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\0';

/**
 * Both ends trimmed by index. Not a `[...]+$` pattern: unanchored at its start, it is tried from
 * every position of a run of whitespace, quadratic in the run (30 KB of spaces: 4 s of CPU).
 */
function trimDotNet(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && TRIM_CHARS.includes(text[start]!)) start++;
  while (end > start && TRIM_CHARS.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

// Boolean.TryParse (Boolean.cs): "True"/"False" with OrdinalIgnoreCase, after trimming
// Char.IsWhiteSpace chars and NUL from both ends.
export function parseBoolean(text: string): Parsed<boolean> {
  const t = trimDotNet(text).toUpperCase();
  if (t === 'TRUE') return { ok: true, value: true };
  if (t === 'FALSE') return { ok: true, value: false };
  return { ok: false, reason: 'format' };
}

// --- parameter lookup --------------------------------------------------------------------

export type ParamRecord = Record<string, string | string[] | undefined>;

/**
 * ASP.NET's request collections (HttpValueCollection) match names with OrdinalIgnoreCase. ASMX
 * reads the query string for GET (UrlParameterReader) and the form body for POST
 * (HtmlFormParameterReader); when several records are given, the first that has the name wins.
 * Note: NameValueCollection[name] joins repeated values with ','; get() returns the first one.
 */
export class AsmxParams {
  private readonly sources: ParamRecord[];

  constructor(...sources: (ParamRecord | undefined)[]) {
    this.sources = sources.filter((s): s is ParamRecord => s !== undefined);
  }

  /** Every value sent under `name` (case-insensitive) in the first record that has it. */
  getAll(name: string): string[] | undefined {
    const upper = name.toUpperCase();
    for (const source of this.sources) {
      for (const [key, raw] of Object.entries(source)) {
        if (raw === undefined || key.length !== name.length || key.toUpperCase() !== upper) continue;
        const values = Array.isArray(raw) ? raw : [raw];
        if (values.length > 0) return values;
      }
    }
    return undefined;
  }

  /** The first value, or undefined when absent; an empty string counts as present. */
  get(name: string): string | undefined {
    return this.getAll(name)?.[0];
  }

  /** The values in declaration order, or the first declared name that is missing. */
  require(names: readonly string[]): { ok: true; values: string[] } | { ok: false; missing: string } {
    const values: string[] = [];
    for (const name of names) {
      const value = this.get(name);
      if (value === undefined) return { ok: false, missing: name };
      values.push(value);
    }
    return { ok: true, values };
  }
}

export type AsmxParamDecl = { readonly name: string; readonly type: AsmxScalarType };
type ValueOf<T> = T extends 'int32' ? number : T extends 'boolean' ? boolean : string;
export type AsmxValues<D extends readonly AsmxParamDecl[]> = { -readonly [K in keyof D]: D[K] extends AsmxParamDecl ? ValueOf<D[K]['type']> : never };
export type AsmxError = { status: typeof ASMX_ERROR_STATUS; contentType: typeof ASMX_ERROR_CONTENT_TYPE; body: string };

/**
 * ValueCollectionParameterReader.Read: parameters are read one by one in declaration order,
 * each either missing (error) or converted (error on failure), so the first failing declared
 * parameter decides the page even when a later one is also missing.
 */
export function readAsmxParameters<const D extends readonly AsmxParamDecl[]>(
  params: AsmxParams,
  decls: D,
  style: AsmxErrorStyle = 'detailed',
): { ok: true; values: AsmxValues<D> } | { ok: false; error: AsmxError } {
  const values: (string | number | boolean)[] = [];
  for (const { name, type } of decls) {
    const raw = params.get(name);
    if (raw === undefined) return fail(missingParameterBody(name, style));
    const parsed: Parsed<string | number | boolean> = type === 'int32' ? parseInt32(raw) : type === 'boolean' ? parseBoolean(raw) : { ok: true, value: raw };
    if (!parsed.ok) return fail(invalidValueBody(name, raw, type, parsed.reason, style));
    values.push(parsed.value);
  }
  return { ok: true, values: values as AsmxValues<D> };
}

function fail(body: string): { ok: false; error: AsmxError } {
  return { ok: false, error: { status: ASMX_ERROR_STATUS, contentType: ASMX_ERROR_CONTENT_TYPE, body } };
}
