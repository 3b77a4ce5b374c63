import sharp from 'sharp';
import { pictureStyle } from '../../core/submissions/findings-picture/style.ts';

/** A decoded picture: RGB, row by row. */
export interface Rgb {
  width: number;
  height: number;
  data: Uint8Array;
}

export async function decodeRgb(png: Uint8Array): Promise<Rgb> {
  const { data, info } = await sharp(png)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect3(info.channels);
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

function expect3(channels: number): void {
  if (channels !== 3) throw new Error(`expected RGB, got ${channels} channels`);
}

export const hex = (colour: string): [number, number, number] => [
  parseInt(colour.slice(1, 3), 16),
  parseInt(colour.slice(3, 5), 16),
  parseInt(colour.slice(5, 7), 16),
];

export const ERROR_RGB = hex(pictureStyle.errorColour);
export const WARNING_RGB = hex(pictureStyle.warningColour);

/** Euclidean distance in RGB. */
export const colourDistance = (a: readonly number[], b: readonly number[]): number =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Antialiased edges and the PNG palette move a colour a little; another mark colour is far off. */
const SAME_COLOUR = 60;

export function pixel(img: Rgb, x: number, y: number): [number, number, number] | undefined {
  const ix = Math.round(x);
  const iy = Math.round(y);
  if (ix < 0 || iy < 0 || ix >= img.width || iy >= img.height) return undefined;
  const i = (iy * img.width + ix) * 3;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

export const isColour = (img: Rgb, x: number, y: number, colour: readonly number[]): boolean => {
  const p = pixel(img, x, y);
  return p !== undefined && colourDistance(p, colour) <= SAME_COLOUR;
};

/**
 * The share of directions around (cx, cy) in which a pixel of `colour` lies at distance r (give
 * or take `band` pixels): 1 for a full ring, about 0.6 for a dashed one, 0 for none.
 */
export function ringCoverage(
  img: Rgb,
  cx: number,
  cy: number,
  r: number,
  colour: readonly number[],
  { directions = 48, band = 2 } = {},
): number {
  let hit = 0;
  for (let k = 0; k < directions; k++) {
    const a = (2 * Math.PI * k) / directions;
    for (let d = r - band; d <= r + band; d += 0.5) {
      if (isColour(img, cx + d * Math.cos(a), cy + d * Math.sin(a), colour)) {
        hit++;
        break;
      }
    }
  }
  return hit / directions;
}

/** How many pixels of `colour` lie in a rectangle. */
export function countColour(
  img: Rgb,
  rect: { left: number; top: number; width: number; height: number },
  colour: readonly number[],
): number {
  let count = 0;
  for (let y = rect.top; y < rect.top + rect.height; y++)
    for (let x = rect.left; x < rect.left + rect.width; x++) if (isColour(img, x, y, colour)) count++;
  return count;
}
