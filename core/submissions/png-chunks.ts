import { crc32 } from 'node:zlib';

const MAX_CHUNK_LENGTH = 2 ** 31 - 1;
const KNOWN_CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);

/**
 * Walks the chunk list after IHDR without inflating anything, and names the first structural
 * fault: truncation, oversized lengths, bad CRCs on critical chunks, unknown critical chunks,
 * a second IHDR, a palette image without PLTE, split or missing image data. Ancillary chunks
 * with a bad CRC and bytes after IEND are tolerated, as decoders do.
 */
export function chunkFault(bytes: Uint8Array, colorType: number): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let sawPlte = false;
  let idatRun: 'none' | 'open' | 'closed' = 'none';
  let first = true;
  while (offset < bytes.length) {
    if (offset + 8 > bytes.length) return 'The PNG is truncated inside a chunk header.';
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (length > MAX_CHUNK_LENGTH) return `The PNG chunk ${printable(type)} declares an impossible length.`;
    const end = offset + 12 + length;
    if (end > bytes.length) return `The PNG is truncated inside its ${printable(type)} chunk.`;
    const critical = isUpper(type.charCodeAt(0));
    if (critical && crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== view.getUint32(offset + 8 + length)) {
      return `The PNG's ${printable(type)} chunk is corrupt (checksum mismatch).`;
    }
    if (critical && !KNOWN_CRITICAL.has(type)) return `The PNG has an unknown critical chunk ${printable(type)}.`;
    if (type === 'IHDR' && !first) return 'The PNG has more than one IHDR header.';
    if (type === 'PLTE') {
      if (length === 0 || length % 3 !== 0 || length > 256 * 3) return 'The PNG palette (PLTE) has an invalid length.';
      sawPlte = true;
    }
    if (type === 'IDAT') {
      if (idatRun === 'closed') return 'The PNG image data (IDAT) is split by other chunks.';
      if (colorType === 3 && !sawPlte) return 'The palette PNG has no palette (PLTE) before its image data.';
      idatRun = 'open';
    } else if (idatRun === 'open') {
      idatRun = 'closed';
    }
    if (type === 'IEND') break;
    first = false;
    offset = end;
  }
  if (idatRun === 'none') return 'The PNG has no image data (IDAT).';
  return undefined;
}

const isUpper = (code: number): boolean => code >= 65 && code <= 90;
const printable = (type: string): string => JSON.stringify(type.replace(/[^\x20-\x7e]/g, '?'));
