import { describe, expect, it } from 'vitest';
import { nDateTime, nDouble, nGuid, quoteNewtonsoft, serializeNewtonsoft, type NValue } from '../src/legacy/newtonsoft.ts';

const s = (v: NValue): string => serializeNewtonsoft(v);

describe('serializeNewtonsoft: structure', () => {
  it('writes scalars', () => {
    expect(s(null)).toBe('null');
    expect(s(true)).toBe('true');
    expect(s(false)).toBe('false');
    expect(s(0)).toBe('0');
    expect(s(-5)).toBe('-5');
    expect(s(2147483647)).toBe('2147483647');
    expect(s(9007199254740991)).toBe('9007199254740991');
    expect(s(9223372036854775807n)).toBe('9223372036854775807');
    expect(s('')).toBe('""');
  });

  it('refuses numbers that are not exact integers', () => {
    expect(() => s(1.5)).toThrow(TypeError);
    expect(() => s(2 ** 60)).toThrow(TypeError);
    expect(() => s(NaN)).toThrow(TypeError);
  });

  it('keeps key insertion order, nulls and nesting, without whitespace', () => {
    const value = { UserID: 7, AppName: 'Demo', LogoIOS: null, Settings: [{ ChannelTubeId: 1, AddedToTV: true }, []], Empty: {} };
    expect(s(value)).toBe('{"UserID":7,"AppName":"Demo","LogoIOS":null,"Settings":[{"ChannelTubeId":1,"AddedToTV":true},[]],"Empty":{}}');
    expect(s({ b: 1, a: 2 })).toBe('{"b":1,"a":2}');
  });

  it('escapes property names like values', () => {
    expect(s({ 'a"b\n': 1 })).toBe('{"a\\"b\\n":1}');
  });

  it('accepts null-prototype objects and refuses other classes', () => {
    const bare = Object.assign(Object.create(null) as Record<string, NValue>, { A: 1 });
    expect(s(bare)).toBe('{"A":1}');
    expect(() => s(new Date() as unknown as NValue)).toThrow(TypeError);
    expect(() => s(new Map() as unknown as NValue)).toThrow(TypeError);
  });
});

describe('serializeNewtonsoft: byte arrays', () => {
  it('writes padded standard base64', () => {
    expect(s(new Uint8Array([]))).toBe('""');
    expect(s(new Uint8Array([0xff]))).toBe('"/w=="');
    expect(s(new Uint8Array([0xfb, 0xff]))).toBe('"+/8="');
    expect(s(new Uint8Array([1, 2, 3]))).toBe('"AQID"');
    expect(s(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe('"iVBORw=="');
  });

  it('has no line breaks for long arrays and respects subarray views', () => {
    const big = new Uint8Array(200).fill(7);
    expect(s(big)).toBe(`"${Buffer.from(big).toString('base64')}"`);
    expect(s(big)).not.toContain('\n');
    expect(s(new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4))).toBe('"AQID"');
  });
});

describe('serializeNewtonsoft: GUIDs', () => {
  it('writes format D in lowercase', () => {
    expect(s(nGuid('3F2504E0-4F89-11D3-9A0C-0305E82C3301'))).toBe('"3f2504e0-4f89-11d3-9a0c-0305e82c3301"');
    expect(s({ ApiKey: nGuid('00000000-0000-0000-0000-000000000000') })).toBe('{"ApiKey":"00000000-0000-0000-0000-000000000000"}');
  });

  it('refuses text that is not a GUID', () => {
    expect(() => nGuid('3F2504E04F8911D39A0C0305E82C3301')).toThrow(TypeError);
    expect(() => nGuid('not-a-guid')).toThrow(TypeError);
  });
});

describe('serializeNewtonsoft: DateTime (kind Unspecified)', () => {
  it('writes whole seconds without a fraction or zone', () => {
    expect(s(nDateTime('2021-04-19T20:11:16'))).toBe('"2021-04-19T20:11:16"');
    expect(s(nDateTime('2021-04-19T20:11:16.0000000'))).toBe('"2021-04-19T20:11:16"');
    expect(s(nDateTime('2021-04-19T20:11:16.000'))).toBe('"2021-04-19T20:11:16"');
  });

  it('trims trailing zeros of the fraction', () => {
    expect(s(nDateTime('2021-04-19T20:11:16.37'))).toBe('"2021-04-19T20:11:16.37"');
    expect(s(nDateTime('2021-04-19T20:11:16.370'))).toBe('"2021-04-19T20:11:16.37"');
    expect(s(nDateTime('2021-04-19T20:11:16.1234567'))).toBe('"2021-04-19T20:11:16.1234567"');
    expect(s(nDateTime('2021-04-19T20:11:16.5000000'))).toBe('"2021-04-19T20:11:16.5"');
    expect(s(nDateTime('2021-04-19T20:11:16.0000001'))).toBe('"2021-04-19T20:11:16.0000001"');
    expect(s({ LastUpdateDate: nDateTime('0001-01-01T00:00:00') })).toBe('{"LastUpdateDate":"0001-01-01T00:00:00"}');
  });

  it('refuses malformed or impossible wall times', () => {
    for (const bad of [
      '2021-04-19 20:11:16',
      '2021-04-19T20:11:16Z',
      '2021-04-19T20:11:16.12345678',
      '2021-02-29T00:00:00',
      '2021-13-01T00:00:00',
      '2021-04-19T24:00:00',
      '0000-01-01T00:00:00',
      '2021-04-19T20:11',
    ]) {
      expect(() => nDateTime(bad), bad).toThrow(TypeError);
    }
    expect(s(nDateTime('2024-02-29T23:59:59'))).toBe('"2024-02-29T23:59:59"');
    expect(() => nDateTime('1900-02-29T00:00:00')).toThrow(TypeError);
    expect(s(nDateTime('2000-02-29T00:00:00'))).toBe('"2000-02-29T00:00:00"');
  });
});

describe('serializeNewtonsoft: string escaping', () => {
  it('escapes quote and backslash', () => {
    expect(s('say "hi"')).toBe('"say \\"hi\\""');
    expect(s('C:\\path')).toBe('"C:\\\\path"');
  });

  it('uses the short forms for \\n \\r \\t \\b \\f', () => {
    expect(s('\n')).toBe('"\\n"');
    expect(s('\r')).toBe('"\\r"');
    expect(s('\t')).toBe('"\\t"');
    expect(s('\b')).toBe('"\\b"');
    expect(s('\f')).toBe('"\\f"');
    expect(s('a\r\nb')).toBe('"a\\r\\nb"');
  });

  it('writes other control chars as \\u00xx with lowercase hex', () => {
    expect(s('\u0000')).toBe('"\\u0000"');
    expect(s('\u0001')).toBe('"\\u0001"');
    expect(s('\u000b')).toBe('"\\u000b"');
    expect(s('\u001f')).toBe('"\\u001f"');
    expect(s('\u001b[0m')).toBe('"\\u001b[0m"');
  });

  it('escapes U+0085, U+2028 and U+2029', () => {
    expect(s('a\u0085b')).toBe('"a\\u0085b"');
    expect(s('\u2028')).toBe('"\\u2028"');
    expect(s('\u2029')).toBe('"\\u2029"');
  });

  it('leaves DEL, HTML-sensitive chars, slash and non-ASCII as is', () => {
    expect(s('\u007f')).toBe('"\u007f"');
    expect(s(`<a href='x'>&</a>`)).toBe(`"<a href='x'>&</a>"`);
    expect(s('a/b')).toBe('"a/b"');
    expect(s('café é ñ')).toBe('"café é ñ"');
    expect(s('\u00a0\u0080\u009f\u200b\ufeff')).toBe('"\u00a0\u0080\u009f\u200b\ufeff"');
    expect(s('📺 ok')).toBe('"📺 ok"');
  });

  it('quoteNewtonsoft escapes mixed text in one pass', () => {
    expect(quoteNewtonsoft('x"\\\u0002\u2028y')).toBe('"x\\"\\\\\\u0002\\u2028y"');
  });
});

describe('serializeNewtonsoft: doubles ("R" + EnsureDecimalPlace)', () => {
  const cases: [number, string][] = [
    [1, '1.0'],
    [0, '0.0'],
    [-0, '0.0'],
    [-2.5, '-2.5'],
    [0.1, '0.1'],
    [3.14159, '3.14159'],
    [100, '100.0'],
    [1e14, '100000000000000.0'],
    [1e15, '1E+15'],
    [1e21, '1E+21'],
    [1.5e-7, '1.5E-07'],
    [0.0001, '0.0001'],
    [0.00001, '1E-05'],
    [123456789012345680000, '1.2345678901234568E+20'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1 / 3, '0.33333333333333331'],
    [0.7999999999999999, '0.79999999999999993'],
    [12345678901234567, '12345678901234568.0'],
    [1000000000000000.25, '1000000000000000.2'],
    [5e-324, '4.94065645841247E-324'],
    [1.7976931348623157e308, '1.7976931348623157E+308'],
    [1e100, '1E+100'],
  ];
  it.each(cases)('%s -> %s', (x, text) => {
    expect(s(nDouble(x))).toBe(text);
  });

  it('writes NaN and infinities as quoted strings (FloatFormatHandling.String)', () => {
    expect(s(nDouble(NaN))).toBe('"NaN"');
    expect(s(nDouble(Infinity))).toBe('"Infinity"');
    expect(s(nDouble(-Infinity))).toBe('"-Infinity"');
  });
});
