// A gzip document stitched from parts deflated ahead of time (issue 35: the XMLTV guide went out
// uncompressed, 58 MB for a 200-channel week, and compressing it per request would cost what
// serving it costs many times over). Each part is a raw deflate stream closed with a sync flush:
// byte-aligned and not final, with back-references only into itself, so parts laid end to end
// are one valid deflate stream (as pigz writes it). The document is a gzip header, the parts,
// an empty final block, and the trailer: the CRC-32 of the whole, combined from the parts' CRCs
// without reading their bytes again (zlib's crc32_combine), and the length mod 2^32.
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface DeflatedPart {
  /** Raw deflate, ended by a sync flush (never final). */
  deflated: Buffer;
  /** CRC-32 of the bytes before deflating. */
  crc: number;
  /** Bytes before deflating. */
  length: number;
}

/**
 * Level 1: kept parts are made when a guide day is rendered (on its request's budget, or by the
 * preparer), and XMLTV's repeated markup shrinks about 8 times even so.
 */
const LEVEL = 1;

export function deflatedPart(bytes: Buffer): DeflatedPart {
  return { deflated: deflateRawSync(bytes, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH }), crc: crc32(bytes), length: bytes.length };
}

const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC polynomial (bit-reflected), as zlib's multmodp. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^n) modulo the polynomial, n = 0..31 (zlib's x2n_table). */
const X2N: number[] = (() => {
  const table: number[] = [];
  let p = 0x40000000; // x^1
  table.push(p);
  for (let n = 1; n < 32; n++) table.push((p = multModP(p, p)));
  return table;
})();

/** x^(n * 2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A then B, from crc(A), crc(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}

const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** An empty fixed-Huffman block marked final. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** The gzip document of these parts, in order, a Buffer at a time (the parts' own Buffers, never copied). */
export function* gzipDocument(parts: Iterable<DeflatedPart>): Generator<Buffer> {
  yield HEADER;
  let crc = 0;
  let length = 0;
  for (const part of parts) {
    if (part.length === 0) continue;
    yield part.deflated;
    crc = crc32Combine(crc, part.crc, part.length);
    length = (length + part.length) % 0x1_0000_0000;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length, 4);
  yield Buffer.concat([FINAL_BLOCK, trailer]);
}
