/**
 * The agent's PNG read the way decisions §4 reads a drawing, keeping the grey levels the tracer
 * interpolates: decoded with sharp (alpha flattened onto white, greyscale), dark below 128, the
 * piece the largest 8-connected dark region, dark regions outside the piece's outline turned
 * white, islands in its openings kept. What is returned is the luminance over the piece's
 * bounding box with one pixel of black all round, so that air reaching the box's edge closes
 * along it (the contour at 127.5 between white and that black lies exactly on the edge).
 *
 * Test code: it imports nothing from `core/`; the component labelling is the independent
 * checker's (`test/helpers/cut-check/labels.ts`).
 */
import sharp from 'sharp';
import { labelComponents } from '../cut-check/labels.ts';

/** The level that separates metal from air: luminance values 0..127 are metal, 128..255 air. */
export const LEVEL = 127.5;

export interface PieceLuminance {
  /** The piece's bounding box in the PNG, pixels. */
  box: { left: number; top: number; width: number; height: number };
  /** The padded grid: (box.width + 2) × (box.height + 2) samples, row-major; sample (i + 1, j + 1) is box pixel (i, j). */
  nx: number;
  ny: number;
  luminance: Uint8Array;
  /** Dark regions outside the piece's outline, turned white. */
  droppedRegions: number;
}

/** The piece's box of the drawing, with its islands and its grey levels, padded by a pixel of black. */
export async function readPiece(png: Buffer): Promise<PieceLuminance> {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const dark = new Uint8Array(width * height);
  for (let k = 0; k < dark.length; k++) dark[k] = data[k * channels]! < 128 ? 1 : 0;

  const regions = labelComponents(dark, 1, width, height, 8);
  if (regions.count === 0) throw new Error('the drawing holds no dark pixel: there is no piece');
  const sizes = new Float64Array(regions.count);
  for (const label of regions.labels) if (label >= 0) sizes[label]!++;
  let piece = 0;
  for (let n = 1; n < regions.count; n++) if (sizes[n]! > sizes[piece]!) piece = n;

  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  const isPiece = new Uint8Array(width * height);
  for (let k = 0; k < regions.labels.length; k++) {
    if (regions.labels[k] !== piece) continue;
    isPiece[k] = 1;
    const i = k % width;
    const j = (k - i) / width;
    if (i < left) left = i;
    if (i > right) right = i;
    if (j < top) top = j;
    if (j > bottom) bottom = j;
  }
  const outside = outsideOutline(isPiece, width, height);
  const dropped = new Set<number>();
  for (let k = 0; k < dark.length; k++) if (dark[k] && outside[k]) dropped.add(regions.labels[k]!);

  const boxWidth = right - left + 1;
  const boxHeight = bottom - top + 1;
  const nx = boxWidth + 2;
  const ny = boxHeight + 2;
  const luminance = new Uint8Array(nx * ny); // the padding stays 0: black
  for (let j = 0; j < boxHeight; j++) {
    for (let i = 0; i < boxWidth; i++) {
      const k = (j + top) * width + (i + left);
      luminance[(j + 1) * nx + i + 1] = dark[k] && outside[k] ? 255 : data[k * channels]!;
    }
  }
  return {
    box: { left, top, width: boxWidth, height: boxHeight },
    nx,
    ny,
    luminance,
    droppedRegions: dropped.size,
  };
}

/**
 * 1 where the pixel lies outside the piece's outline: in a 4-connected component of the pixels
 * that are not the piece which reaches the image border (4-connected, the dual of the piece's
 * 8-connectivity).
 */
function outsideOutline(isPiece: Uint8Array, width: number, height: number): Uint8Array {
  const { labels, count } = labelComponents(isPiece, 0, width, height, 4);
  const reachesBorder = new Uint8Array(count);
  const mark = (k: number): void => {
    if (labels[k]! >= 0) reachesBorder[labels[k]!] = 1;
  };
  for (let i = 0; i < width; i++) {
    mark(i);
    mark((height - 1) * width + i);
  }
  for (let j = 0; j < height; j++) {
    mark(j * width);
    mark(j * width + width - 1);
  }
  const outside = new Uint8Array(width * height);
  for (let k = 0; k < labels.length; k++) if (labels[k]! >= 0 && reachesBorder[labels[k]!]) outside[k] = 1;
  return outside;
}
