/**
 * Hand-made fixtures for the checker's own tests: shapes as rings of points in millimetres,
 * written as a cutting SVG in the contract's format or rendered as a drawing PNG with sharp.
 */
import sharp from 'sharp';
import type { CutRules } from './types.ts';

/** The service's floors (capabilities `manufacturing`). */
export const RULES: CutRules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1.0, maxOpeningTipMm: 0.3 };

export type Point = [number, number];
/** A cut: its outline ring, then rings of metal left inside it. */
export type Cut = Point[][];

export const mm3 = (value: number): string => value.toFixed(3);

/** A rectangle's corners, clockwise on screen from the top-left. */
export function rect(x: number, y: number, width: number, height: number): Point[] {
  return [
    [x, y],
    [x + width, y],
    [x + width, y + height],
    [x, y + height],
  ];
}

/** A regular polygon of `steps` corners on the circle, starting at `phase` radians. */
export function disc(cx: number, cy: number, r: number, steps = 96, phase = 0): Point[] {
  return Array.from({ length: steps }, (_, i): Point => {
    const a = phase + (2 * Math.PI * i) / steps;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
}

/** The points turned by `angle` radians about (cx, cy). */
export function rotate(points: Point[], cx: number, cy: number, angle: number): Point[] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return points.map(([x, y]): Point => [cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c]);
}

/** Path data of absolute M/L/Z with three decimals. */
export function pathData(rings: Point[][]): string {
  return rings.map((ring) => 'M' + ring.map(([x, y]) => `${mm3(x)} ${mm3(y)}`).join('L') + 'Z').join('');
}

/** A cutting SVG in the contract's format, one path per cut; `d` strings are taken as they are. */
export function cuttingSvg(lengthMm: number, widthMm: number, cuts: Array<Cut | string>): string {
  const paths = cuts.map((cut) => {
    const d = typeof cut === 'string' ? cut : pathData(cut);
    return `<path d="${d}" fill="#000" fill-rule="evenodd"/>\n`;
  });
  const l = mm3(lengthMm);
  const w = mm3(widthMm);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0.000 0.000 ${l} ${w}" width="${l}mm" height="${w}mm">\n` +
    `<g id="cutouts">\n${paths.join('')}</g>\n</svg>\n`
  );
}

/**
 * The drawing of a strip with these cuts as a PNG: black metal on white, `pxPerMm` pixels per
 * millimetre (or different ones along x and y), with a white margin round the strip;
 * `extraMetal` rings are drawn black on top.
 */
export async function drawingPng(
  lengthMm: number,
  widthMm: number,
  cuts: Cut[],
  pxPerMm: number | { x: number; y: number },
  extraMetal: Point[][] = [],
): Promise<Buffer> {
  const margin = 10;
  const scale = typeof pxPerMm === 'number' ? { x: pxPerMm, y: pxPerMm } : pxPerMm;
  const width = Math.round(lengthMm * scale.x) + 2 * margin;
  const height = Math.round(widthMm * scale.y) + 2 * margin;
  const px = ([x, y]: Point): string => `${(margin + x * scale.x).toFixed(2)} ${(margin + y * scale.y).toFixed(2)}`;
  const d = (rings: Point[][]): string => rings.map((ring) => 'M' + ring.map(px).join('L') + 'Z').join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="#fff"/>` +
    `<path d="${d([rect(0, 0, lengthMm, widthMm)])}" fill="#000"/>` +
    cuts.map((cut) => `<path d="${d(cut)}" fill="#fff" fill-rule="evenodd"/>`).join('') +
    extraMetal.map((ring) => `<path d="${d([ring])}" fill="#000"/>`).join('') +
    `</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
