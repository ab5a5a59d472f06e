// A tiny dependency-free PNG encoder for the demo catalog's logos and backgrounds.
// Only what the demo needs: 8-bit truecolour (colour type 2), no alpha, no interlace,
// filter type 0 on every row. Solid and gradient images deflate to a few hundred bytes,
// so the generated catalog stays small. Node 20 has no zlib.crc32, hence the table below.
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) lookup table, as in the PNG spec. */
const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 of `bytes`, an unsigned 32-bit integer. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC over type + data. */
function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  typeAndData.copy(out, 4);
  out.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return out;
}

type Rgb = [number, number, number];

/** '1a2b3c' or '#1a2b3c' to [r, g, b]; anything else is a programming error. */
function parseHex(hex: string): Rgb {
  const m = /^#?([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(hex);
  if (!m) throw new RangeError(`bad colour ${JSON.stringify(hex)} (want 6 hex digits)`);
  return [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)];
}

function checkSize(width: number, height: number): void {
  for (const [name, v] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(v) || v < 1 || v > 4096) throw new RangeError(`bad ${name} ${v} (want 1-4096)`);
  }
}

/** Encodes rows produced by `rowColour(y)`: every pixel of a row has the same colour. */
function encode(width: number, height: number, rowColour: (y: number) => Rgb): Buffer {
  checkSize(width, height);
  const stride = 1 + width * 3; // leading filter byte (0 = None) per scanline
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const [r, g, b] = rowColour(y);
    const row = y * stride;
    for (let x = 0; x < width; x++) {
      const p = row + 1 + x * 3;
      raw[p] = r;
      raw[p + 1] = g;
      raw[p + 2] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A single-colour PNG. */
export function solidPng(width: number, height: number, rgbHex: string): Buffer {
  const rgb = parseHex(rgbHex);
  return encode(width, height, () => rgb);
}

/** A vertical gradient PNG: the top row is `fromHex`, the bottom row `toHex`. */
export function gradientPng(width: number, height: number, fromHex: string, toHex: string): Buffer {
  const from = parseHex(fromHex);
  const to = parseHex(toHex);
  const span = Math.max(1, height - 1);
  const mix = (a: number, b: number, y: number): number => Math.round(a + ((b - a) * y) / span);
  return encode(width, height, (y) => [mix(from[0], to[0], y), mix(from[1], to[1], y), mix(from[2], to[2], y)]);
}
