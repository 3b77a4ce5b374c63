import sharp from 'sharp';
import type { Config } from '../config.ts';
import { readCutRings } from './cut-rings.ts';
import { flatPictureSvg } from './flat-picture.ts';
import { flatLayout, wornLayout, type PictureKind, type PieceShape } from './layout.ts';
import { pacer } from './path-data.ts';
import { wornPictureSvg } from './worn-picture.ts';

/** A piece as stored: its cutting file and how it is worn. */
export interface StoredPiece {
  cutoutsSvg: string;
  shape: PieceShape;
}

type PieceSvg = { ok: true; svg: string } | { ok: false; reason: string };

/**
 * Longest stretch the drawing is built without letting the event loop answer others: a lace file
 * of 50,000 points takes some 50 ms to turn into a picture's SVG.
 */
const SLICE_MS = 8;

/**
 * One of the piece's pictures as an SVG document, drawn from the cutting file at the size
 * `piecePictureSizes` gives (laid out from the shape's stored dimensions, which the pages know
 * too); or why the file could not be read.
 */
async function piecePictureSvg(piece: StoredPiece, kind: PictureKind, config: Config['pictures']): Promise<PieceSvg> {
  const pace = pacer(SLICE_MS);
  const read = await readCutRings(piece.cutoutsSvg, pace);
  if (!read.ok) return read;
  const svg =
    kind === 'flat'
      ? await flatPictureSvg(read.value, flatLayout(piece.shape, config), pace)
      : await wornPictureSvg(read.value, wornLayout(piece.shape, config), pace);
  return { ok: true, svg };
}

/**
 * The picture as a PNG. The document is built here (in slices, proportional to the cutting
 * file's points) and rasterised by librsvg inside sharp, on libuv's thread pool, so the event
 * loop is never held for long. Full colour: the metal's gradients would band in a palette.
 */
export async function renderPiecePicture(
  piece: StoredPiece,
  kind: PictureKind,
  config: Config['pictures'],
): Promise<{ ok: true; png: Buffer } | { ok: false; reason: string }> {
  const drawn = await piecePictureSvg(piece, kind, config);
  if (!drawn.ok) return drawn;
  // zlib's level 6: level 9 halves the encoding speed of a lace picture for 4% fewer bytes.
  const png = await sharp(Buffer.from(drawn.svg)).png({ compressionLevel: 6 }).toBuffer();
  return { ok: true, png };
}
