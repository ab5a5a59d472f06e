import { describe, expect, it } from 'vitest';
import {
  ASMX_AJAX_CONTENT_TYPE,
  ASMX_ERROR_CONTENT_TYPE,
  ASMX_ERROR_STATUS,
  ASMX_XML_CONTENT_TYPE,
  AsmxParams,
  asmxAjaxBody,
  asmxXmlBody,
  htmlEncode,
  invalidValueBody,
  javaScriptStringEncode,
  missingParameterBody,
  parseBoolean,
  parseInt32,
  readAsmxParameters,
} from '../src/legacy/asmx.ts';

const HEAD = '<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">';

describe('asmxXmlBody', () => {
  it('wraps JSON with the declaration, CRLF and the tempuri string element', () => {
    expect(asmxXmlBody('null')).toBe(`${HEAD}null</string>`);
    expect(ASMX_XML_CONTENT_TYPE).toBe('text/xml; charset=utf-8');
  });

  it('has exact bytes: no BOM, CRLF, no trailing newline', () => {
    const bytes = Buffer.from(asmxXmlBody('{}'), 'utf8');
    expect(bytes[0]).toBe(0x3c);
    expect(bytes.toString('utf8')).toBe('<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">{}</string>');
    expect(bytes.at(-1)).toBe(0x3e);
  });

  it('escapes only & < > in text; quotes, apostrophes, tab, CR, LF stay', () => {
    expect(asmxXmlBody('{"A":"x & y <b> \'q\'"}')).toBe(`${HEAD}{"A":"x &amp; y &lt;b&gt; 'q'"}</string>`);
    expect(asmxXmlBody('a\tb\r\nc')).toBe(`${HEAD}a\tb\r\nc</string>`);
    expect(asmxXmlBody('&amp;')).toBe(`${HEAD}&amp;amp;</string>`);
  });

  it('writes other control chars and U+FFFE/U+FFFF as uppercase hex char refs, keeps non-ASCII', () => {
    expect(asmxXmlBody('\u0001\u001b\uffff')).toBe(`${HEAD}&#x1;&#x1B;&#xFFFF;</string>`);
    expect(asmxXmlBody('é 📺 \u2028')).toBe(`${HEAD}é 📺 \u2028</string>`);
  });

  it('throws on lone surrogates like XmlTextWriter', () => {
    expect(() => asmxXmlBody('a\ud800b')).toThrow(RangeError);
    expect(() => asmxXmlBody('\udc00')).toThrow(RangeError);
  });

  it('carries a plain (non-JSON) string the same way', () => {
    expect(asmxXmlBody('One of the required fields is not passed')).toBe(`${HEAD}One of the required fields is not passed</string>`);
  });
});

describe('asmxAjaxBody', () => {
  it('wraps the text as the "d" string', () => {
    expect(asmxAjaxBody('null')).toBe('{"d":"null"}');
    expect(asmxAjaxBody('{"A":1,"B":"x"}')).toBe('{"d":"{\\"A\\":1,\\"B\\":\\"x\\"}"}');
    expect(ASMX_AJAX_CONTENT_TYPE).toBe('application/json; charset=utf-8');
  });

  it('encodes like HttpUtility.JavaScriptStringEncode', () => {
    expect(javaScriptStringEncode(`<a href='x'>&</a>`)).toBe('\\u003ca href=\\u0027x\\u0027\\u003e\\u0026\\u003c/a\\u003e');
    expect(javaScriptStringEncode('\r\t\n\b\f"\\')).toBe('\\r\\t\\n\\b\\f\\"\\\\');
    expect(javaScriptStringEncode('\u0000\u0001\u001f\u000b')).toBe('\\u0000\\u0001\\u001f\\u000b');
    expect(javaScriptStringEncode('\u0085\u2028\u2029')).toBe('\\u0085\\u2028\\u2029');
    expect(javaScriptStringEncode('\u007f é 📺 /')).toBe('\u007f é 📺 /');
  });

  it('double-encodes the backslashes Newtonsoft already wrote', () => {
    expect(asmxAjaxBody('"a\\nb"')).toBe('{"d":"\\"a\\\\nb\\""}');
  });
});

describe('error pages', () => {
  it('missing parameter: one line plus CRLF', () => {
    expect(missingParameterBody('userId')).toBe('System.InvalidOperationException: Missing parameter: userId.\r\n');
    expect(missingParameterBody('userId', 'customErrors')).toBe('Missing parameter: userId.\r\n');
    expect(ASMX_ERROR_CONTENT_TYPE).toBe('text/plain; charset=utf-8');
    expect(ASMX_ERROR_STATUS).toBe(500);
  });

  it('invalid Int32 value', () => {
    expect(invalidValueBody('userId', 'abc')).toBe(
      'System.ArgumentException: Cannot convert abc to System.Int32.\r\nParameter name: type' +
        ' ---> System.FormatException: Input string was not in a correct format.' +
        '\r\n   --- End of inner exception stack trace ---\r\n',
    );
    expect(invalidValueBody('userId', 'abc', 'int32', 'format', 'customErrors')).toBe(
      'Cannot convert abc to System.Int32.\r\nParameter name: type ---> Input string was not in a correct format.\r\n',
    );
  });

  it('Int32 overflow and Boolean failures name their inner exception', () => {
    expect(invalidValueBody('userId', '99999999999', 'int32', 'overflow')).toBe(
      'System.ArgumentException: Cannot convert 99999999999 to System.Int32.\r\nParameter name: type' +
        ' ---> System.OverflowException: Value was either too large or too small for an Int32.' +
        '\r\n   --- End of inner exception stack trace ---\r\n',
    );
    expect(invalidValueBody('skipImages', 'yes', 'boolean', 'format', 'customErrors')).toBe(
      'Cannot convert yes to System.Boolean.\r\nParameter name: type ---> String was not recognized as a valid Boolean.\r\n',
    );
  });

  it('HTML-encodes the echoed value', () => {
    expect(invalidValueBody('userId', '<b>"x"&\'y\'</b>', 'int32', 'format', 'customErrors')).toBe(
      'Cannot convert &lt;b&gt;&quot;x&quot;&amp;&#39;y&#39;&lt;/b&gt; to System.Int32.\r\nParameter name: type ---> Input string was not in a correct format.\r\n',
    );
  });

  it('htmlEncode follows WebUtility.HtmlEncode', () => {
    expect(htmlEncode('é\u00a0ÿ Ā 📺 \ud800 plain')).toBe('&#233;&#160;&#255; Ā &#128250; \ufffd plain');
  });
});

describe('parseInt32', () => {
  const ok = (text: string, value: number) => expect(parseInt32(text), JSON.stringify(text)).toEqual({ ok: true, value });
  const bad = (text: string, reason: 'format' | 'overflow') => expect(parseInt32(text), JSON.stringify(text)).toEqual({ ok: false, reason });

  it('accepts digits with optional sign and surrounding whitespace', () => {
    ok('42', 42);
    ok('-42', -42);
    ok('+42', 42);
    ok('007', 7);
    ok('-0', 0);
    ok(' \t42\r\n', 42);
    ok('\v\f42', 42);
    ok('42\0\0', 42);
    ok('42 \0', 42);
    ok('2147483647', 2147483647);
    ok('-2147483648', -2147483648);
    ok('000000000000000000000000000000000000000000000000000001', 1);
  });

  it('rejects junk', () => {
    for (const t of ['', ' ', 'abc', '12a', '1.0', '1,000', '1e3', '- 1', '+-1', '--1', '0x10', '(1)', '1-', '\u00a01', '１', '42\0 ', '\u200b1']) bad(t, 'format');
  });

  it('reports overflow separately', () => {
    bad('2147483648', 'overflow');
    bad('-2147483649', 'overflow');
    bad('99999999999999999999999', 'overflow');
  });
});

describe('parseBoolean', () => {
  it('accepts true/false in any case with trimmed whitespace and NULs', () => {
    expect(parseBoolean('true')).toEqual({ ok: true, value: true });
    expect(parseBoolean('TRUE')).toEqual({ ok: true, value: true });
    expect(parseBoolean('False')).toEqual({ ok: true, value: false });
    expect(parseBoolean('  fAlSe \r\n')).toEqual({ ok: true, value: false });
    expect(parseBoolean('\u00a0true\u3000')).toEqual({ ok: true, value: true });
    expect(parseBoolean('\0true\0')).toEqual({ ok: true, value: true });
  });

  it('rejects anything else', () => {
    for (const t of ['', '1', '0', 'yes', 'on', 't', 'tru e', '\ufefftrue', 'truee']) {
      expect(parseBoolean(t), t).toEqual({ ok: false, reason: 'format' });
    }
  });
});

describe('AsmxParams', () => {
  it('looks names up case-insensitively', () => {
    const p = new AsmxParams({ USERID: '5', channelid: '9' });
    expect(p.get('userId')).toBe('5');
    expect(p.get('ChannelId')).toBe('9');
    expect(p.get('platform')).toBeUndefined();
  });

  it('treats an empty value as present and undefined as absent', () => {
    const p = new AsmxParams({ userId: '', channelId: undefined });
    expect(p.get('userId')).toBe('');
    expect(p.get('channelId')).toBeUndefined();
  });

  it('returns the first of repeated values', () => {
    const p = new AsmxParams({ userId: ['1', '2'], empty: [] });
    expect(p.get('userId')).toBe('1');
    expect(p.getAll('userid')).toEqual(['1', '2']);
    expect(p.get('empty')).toBeUndefined();
  });

  it('searches the records in order (e.g. query, then form body)', () => {
    const p = new AsmxParams(undefined, { userId: '1' }, { userId: '2', platform: 'fire-tv' });
    expect(p.get('userId')).toBe('1');
    expect(p.get('platform')).toBe('fire-tv');
  });

  it('require returns values in declaration order or the first missing name', () => {
    const p = new AsmxParams({ channelId: '3', userId: '1' });
    expect(p.require(['userId', 'channelId'])).toEqual({ ok: true, values: ['1', '3'] });
    expect(p.require(['userId', 'platform', 'skipImages'])).toEqual({ ok: false, missing: 'platform' });
    expect(new AsmxParams({}).require([])).toEqual({ ok: true, values: [] });
  });
});

describe('readAsmxParameters', () => {
  const decls = [
    { name: 'userId', type: 'int32' },
    { name: 'platform', type: 'string' },
    { name: 'skipImages', type: 'boolean' },
  ] as const;

  it('converts declared types', () => {
    const r = readAsmxParameters(new AsmxParams({ userid: ' 12 ', platform: '', skipImages: 'True' }), decls);
    expect(r).toEqual({ ok: true, values: [12, '', true] });
    if (r.ok) {
      const [userId, platform, skip]: [number, string, boolean] = r.values;
      expect([userId, platform, skip]).toEqual([12, '', true]);
    }
  });

  it('reports the first missing declared parameter', () => {
    const r = readAsmxParameters(new AsmxParams({ userId: '1' }), decls);
    expect(r).toEqual({ ok: false, error: { status: 500, contentType: 'text/plain; charset=utf-8', body: missingParameterBody('platform') } });
  });

  it('stops at a bad value before looking at later missing ones', () => {
    const r = readAsmxParameters(new AsmxParams({ userId: 'abc' }), decls, 'customErrors');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.body).toBe(invalidValueBody('userId', 'abc', 'int32', 'format', 'customErrors'));
  });

  it('reports overflow and bad booleans', () => {
    const over = readAsmxParameters(new AsmxParams({ userId: '3000000000', platform: 'x', skipImages: 'true' }), decls);
    expect(!over.ok && over.error.body).toBe(invalidValueBody('userId', '3000000000', 'int32', 'overflow'));
    const boolBad = readAsmxParameters(new AsmxParams({ userId: '1', platform: 'x', skipImages: '' }), decls);
    expect(!boolBad.ok && boolBad.error.body).toBe(invalidValueBody('skipImages', '', 'boolean', 'format'));
  });
});
