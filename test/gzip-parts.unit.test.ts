import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32Combine, deflatedPart, gzipDocument } from '../src/presenters/gzip-parts.ts';

describe('gzip documents stitched from parts deflated ahead of time', () => {
  it('combines CRC-32s as computing them over the whole would', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
      }),
    );
    const big = randomBytes(70_000);
    expect(crc32Combine(crc32('head'), crc32(big), big.length)).toBe(crc32(Buffer.concat([Buffer.from('head'), big])));
  });

  it('makes one valid gzip document whose bytes are the parts in order (empty parts, one part, none)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 2000 }),
            fc.uint8Array({ maxLength: 3000 }).map((u) => Buffer.from(u).toString('latin1')),
          ),
          { maxLength: 12 },
        ),
        (texts) => {
          const parts = texts.map((t) => Buffer.from(t, 'latin1'));
          const document = Buffer.concat([...gzipDocument(parts.map(deflatedPart))]);
          expect(gunzipSync(document).equals(Buffer.concat(parts))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('shrinks repeated markup as a guide has it', () => {
    const day = Buffer.from(
      '  <programme start="20261121150000 +0000" stop="20261121153000 +0000" channel="channel-201.channelnet">\n    <title>Morning news</title>\n  </programme>\n'.repeat(200),
    );
    const part = deflatedPart(day);
    expect(part.deflated.length).toBeLessThan(day.length / 8);
  });
});
