/**
 * The agent's drawing as a strip mask: decoded with sharp (alpha flattened onto white, greyscale),
 * metal where the luminance is below 128. The piece is the largest 8-connected metal region and its
 * bounding box is the strip, mapped linearly onto [0, L] × [0, W] (pixels may be non-square).
 * Other metal inside the piece's holes stays (islands); metal outside its outline is dropped.
 */
import sharp from 'sharp';
import { labelComponents } from './labels.ts';
import { checkMask } from './measure.ts';
import type { CutRules, Mask, MaskReport, MeasureOptions } from './types.ts';

export interface Drawing extends Mask {
  /** The piece's bounding box in the PNG, pixels. */
  box: { left: number; top: number; width: number; height: number };
  /** Metal regions outside the piece's outline, dropped. */
  droppedRegions: number;
}

/** The drawing's piece framed onto the strip, with islands in its holes kept and everything outside it dropped. */
export async function readDrawing(png: Buffer, strip: { lengthMm: number; widthMm: number }): Promise<Drawing> {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const dark = new Uint8Array(width * height);
  for (let k = 0; k < dark.length; k++) dark[k] = data[k * channels]! < 128 ? 1 : 0;

  const { labels, count } = labelComponents(dark, 1, width, height, 8);
  if (count === 0) throw new Error('the drawing holds no metal');
  const sizes = new Float64Array(count);
  for (const label of labels) if (label >= 0) sizes[label]!++;
  let piece = 0;
  for (let n = 1; n < count; n++) if (sizes[n]! > sizes[piece]!) piece = n;

  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  const isPiece = new Uint8Array(width * height);
  for (let k = 0; k < labels.length; k++) {
    if (labels[k] !== piece) continue;
    isPiece[k] = 1;
    const i = k % width;
    const j = (k - i) / width;
    left = Math.min(left, i);
    right = Math.max(right, i);
    top = Math.min(top, j);
    bottom = Math.max(bottom, j);
  }
  // Everything reachable from the image border without crossing the piece lies outside its
  // outline (4-connected, the dual of the piece's 8-connectivity).
  const outside = reachableFromBorder(isPiece, width, height);
  const dropped = new Set<number>();
  const nx = right - left + 1;
  const ny = bottom - top + 1;
  const metal = new Uint8Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const k = (j + top) * width + (i + left);
      if (isPiece[k] || (dark[k] && !outside[k])) metal[j * nx + i] = 1;
    }
  }
  for (let k = 0; k < labels.length; k++)
    if (labels[k]! >= 0 && labels[k] !== piece && outside[k]) dropped.add(labels[k]!);
  return {
    lengthMm: strip.lengthMm,
    widthMm: strip.widthMm,
    nx,
    ny,
    dx: strip.lengthMm / nx,
    dy: strip.widthMm / ny,
    metal,
    box: { left, top, width: nx, height: ny },
    droppedRegions: dropped.size,
  };
}

/** Rules 3–6 on the drawing at its own pixel size (so with its own, coarser, tolerance). */
export function checkDrawing(drawing: Drawing, rules: CutRules, options: MeasureOptions = {}): MaskReport {
  return checkMask(drawing, rules, options);
}

function reachableFromBorder(blocked: Uint8Array, width: number, height: number): Uint8Array {
  const reached = new Uint8Array(width * height);
  const stack: number[] = [];
  const push = (k: number): void => {
    if (blocked[k] || reached[k]) return;
    reached[k] = 1;
    stack.push(k);
  };
  for (let i = 0; i < width; i++) {
    push(i);
    push((height - 1) * width + i);
  }
  for (let j = 0; j < height; j++) {
    push(j * width);
    push(j * width + width - 1);
  }
  while (stack.length) {
    const k = stack.pop()!;
    const i = k % width;
    if (i > 0) push(k - 1);
    if (i < width - 1) push(k + 1);
    if (k >= width) push(k - width);
    if (k < (height - 1) * width) push(k + width);
  }
  return reached;
}
