import { crc32, deflateSync } from 'node:zlib';

export interface PngSpec {
  width?: number;
  height?: number;
  /** Varies the drawing so that different seeds give different bytes. */
  seed?: number;
}

/**
 * A real, valid 8-bit greyscale PNG: white canvas with a black band whose holes depend on
 * `seed`. Encoded here so the tests need no image library.
 */
export function makePng({ width = 1536, height = 1024, seed = 1 }: PngSpec = {}): Buffer {
  const rows: Buffer[] = [];
  const top = Math.floor(height * 0.3);
  const bottom = Math.floor(height * 0.7);
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0;
    if (y >= top && y < bottom) {
      for (let x = Math.floor(width * 0.05); x < Math.floor(width * 0.95); x++) {
        const hole = (x + seed * 7) % 97 < 20 && y > top + 10 && y < bottom - 10;
        row[x + 1] = hole ? 255 : 0;
      }
    }
    rows.push(row);
  }
  return encodePng(width, height, 0, 8, Buffer.concat(rows));
}

export function encodePng(width: number, height: number, colorType: number, bitDepth: number, raw: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG whose IHDR declares any size, with a token image body: for header checks only. */
export function pngWithDeclaredSize(width: number, height: number): Buffer {
  return encodePng(width, height, 0, 1, Buffer.alloc(4));
}

export function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
