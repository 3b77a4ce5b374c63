import sharp from 'sharp';
import type { Config } from '../config.ts';
import { readCutRings } from './cut-rings.ts';
import { flatPictureSvg } from './flat-picture.ts';
import { flatLayout, wornLayout, type PictureKind, type PieceShape } from './layout.ts';
import { wornPictureSvg } from './worn-picture.ts';

/** A piece as stored: its cutting file and how it is worn. */
export interface StoredPiece {
  cutoutsSvg: string;
  shape: PieceShape;
}

export type PieceSvg = { ok: true; svg: string } | { ok: false; reason: string };

/**
 * One of the piece's pictures as an SVG document, drawn from the cutting file at the size
 * `piecePictureSizes` gives (laid out from the shape's stored dimensions, which the pages know
 * too); or why the file could not be read.
 */
export function piecePictureSvg(piece: StoredPiece, kind: PictureKind, config: Config['pictures']): PieceSvg {
  const read = readCutRings(piece.cutoutsSvg);
  if (!read.ok) return read;
  const svg =
    kind === 'flat'
      ? flatPictureSvg(read.value, flatLayout(piece.shape, config))
      : wornPictureSvg(read.value, wornLayout(piece.shape, config));
  return { ok: true, svg };
}

/**
 * The picture as a PNG. The document is built here (proportional to the cutting file's points)
 * and rasterised by librsvg inside sharp, on libuv's thread pool, so the event loop only waits
 * for the building. Full colour: the metal's gradients would band in a palette.
 */
export async function renderPiecePicture(
  piece: StoredPiece,
  kind: PictureKind,
  config: Config['pictures'],
): Promise<{ ok: true; png: Buffer } | { ok: false; reason: string }> {
  const drawn = piecePictureSvg(piece, kind, config);
  if (!drawn.ok) return drawn;
  const png = await sharp(Buffer.from(drawn.svg)).png({ compressionLevel: 9 }).toBuffer();
  return { ok: true, png };
}
