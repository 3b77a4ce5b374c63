import { crc32 } from 'node:zlib';
import type { Config } from '../config.ts';
import { configuredError, coreError } from '../errors.ts';
import { err, ok, type Result } from '../result.ts';
import { chunkFault } from './png-chunks.ts';

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR_LENGTH = 13;
/** Bit depths the PNG specification allows for each colour type. */
const DEPTHS_BY_COLOR_TYPE: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * Checks an upload without decoding it, in the contract's order: signature and IHDR, then too
 * small, then too large, then the chunk structure (see `chunkFault`).
 */
export function inspectPngHeader(bytes: Uint8Array, image: Config['image']): Result<PngHeader> {
  if (bytes.length < SIGNATURE.length || SIGNATURE.some((b, i) => bytes[i] !== b)) {
    return invalid('The file is not a PNG: the PNG signature is missing.');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunkStart = SIGNATURE.length;
  if (bytes.length < chunkStart + 8 + IHDR_LENGTH + 4) return invalid('The PNG ends before its IHDR header.');
  const length = view.getUint32(chunkStart);
  const type = String.fromCharCode(...bytes.subarray(chunkStart + 4, chunkStart + 8));
  if (type !== 'IHDR' || length !== IHDR_LENGTH) return invalid('The PNG does not start with a valid IHDR header.');
  const data = chunkStart + 8;
  const storedCrc = view.getUint32(data + IHDR_LENGTH);
  if (crc32(bytes.subarray(chunkStart + 4, data + IHDR_LENGTH)) !== storedCrc) {
    return invalid("The PNG's IHDR header is corrupt (checksum mismatch).");
  }
  const width = view.getUint32(data);
  const height = view.getUint32(data + 4);
  const bitDepth = bytes[data + 8]!;
  const colorType = bytes[data + 9]!;
  const compression = bytes[data + 10]!;
  const filter = bytes[data + 11]!;
  const interlace = bytes[data + 12]!;
  const maxDimension = 2 ** 31 - 1;
  if (width === 0 || height === 0 || width > maxDimension || height > maxDimension) {
    return invalid('The PNG header declares an invalid width or height.');
  }
  if (!DEPTHS_BY_COLOR_TYPE[colorType]?.includes(bitDepth)) {
    return invalid(`The PNG header declares an invalid bit depth ${bitDepth} for colour type ${colorType}.`);
  }
  if (compression !== 0 || filter !== 0 || interlace > 1) {
    return invalid('The PNG header declares an unknown compression, filter or interlace method.');
  }
  const shortSide = Math.min(width, height);
  const longSide = Math.max(width, height);
  if (shortSide < image.minShortSidePx) {
    return err(
      configuredError('IMAGE_TOO_SMALL', image, {
        message: `The image is ${width}x${height} pixels; its short side must be at least ${image.minShortSidePx} pixels.`,
      }),
    );
  }
  if (longSide > image.maxLongSidePx || width * height > image.maxPixels) {
    return err(
      configuredError('IMAGE_TOO_LARGE', image, {
        message: `The image is ${width}x${height} pixels; the long side may be at most ${image.maxLongSidePx} pixels and the image at most ${image.maxPixels} pixels.`,
      }),
    );
  }
  const fault = chunkFault(bytes, colorType);
  if (fault) return invalid(fault);
  return ok({ width, height, bitDepth, colorType, interlaced: interlace === 1 });
}

const invalid = (message: string) => err(coreError('INVALID_FILE', { message }));
