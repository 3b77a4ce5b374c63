/**
 * The contours written as a cutting file in the service's format: root `svg` with
 * `viewBox="0.000 0.000 L W"`, one `<g id="cutouts">` of black even-odd paths, only absolute
 * M/L/Z, three decimals. Each loop round air is one cut; the loops of the islands (metal) lying
 * directly in that air are its further rings. Points go to millimetres through the box's own
 * scale on each axis (box pixel i covers [i, i + 1) of L / box width), are rounded to
 * thousandths and clamped onto [0, L] × [0, W]; repeated points and points on a straight line
 * between their neighbours are dropped, and so is a ring that rounding leaves with no area.
 */
import { labelComponents } from '../cut-check/labels.ts';
import type { Contours } from './marching-squares.ts';
import type { PieceLuminance } from './piece.ts';
import { LEVEL } from './piece.ts';

/** One cut: its air's outline and the islands in it, as integer rings (thousandths of a mm). */
export interface ReferenceCut {
  rings: number[][];
  /** The air's area less its islands', mm² (from the rounded rings). */
  areaMm2: number;
  /** Its centroid, mm (of the outline ring). */
  x: number;
  y: number;
  /** Whether the air reaches the strip's edge (a notch or a shaped end, not an opening). */
  atEdge: boolean;
}

/** The cuts of a traced piece on the strip L × W, in thousandths of a millimetre. */
export function cutsOf(piece: PieceLuminance, contours: Contours, strip: { lengthMm: number; widthMm: number }) {
  const { nx, ny, luminance, box } = piece;
  const lengthU = Math.round(strip.lengthMm * 1000);
  const widthU = Math.round(strip.widthMm * 1000);
  const sx = strip.lengthMm / box.width;
  const sy = strip.widthMm / box.height;

  const air = new Uint8Array(nx * ny);
  for (let s = 0; s < air.length; s++) air[s] = luminance[s]! > LEVEL ? 1 : 0;
  const { labels, count } = labelComponents(air, 1, nx, ny, 4);
  // Air on the box's border lies beside the black padding: it reaches the strip's edge.
  const atEdge = new Uint8Array(count);
  const border = (s: number): void => {
    if (labels[s]! >= 0) atEdge[labels[s]!] = 1;
  };
  for (let i = 1; i < nx - 1; i++) {
    border(nx + i);
    border((ny - 2) * nx + i);
  }
  for (let j = 1; j < ny - 1; j++) {
    border(j * nx + 1);
    border(j * nx + nx - 2);
  }

  const outline: (number[] | null)[] = new Array<number[] | null>(count).fill(null);
  const islands: number[][][] = Array.from({ length: count }, () => []);
  for (let n = 0; n < contours.count; n++) {
    const ring = roundedRing(contours, n, sx, sy, lengthU, widthU);
    if (!ring) continue;
    const label = labels[contours.airSample[n]!]!;
    if (contours.area2[n]! < 0) outline[label] = ring;
    else islands[label]!.push(ring);
  }
  const cuts: ReferenceCut[] = [];
  for (let label = 0; label < count; label++) {
    const ring = outline[label];
    if (!ring) continue;
    const holes = islands[label]!;
    const area = Math.abs(ringArea(ring)) - holes.reduce((sum, hole) => sum + Math.abs(ringArea(hole)), 0);
    const { x, y } = centroid(ring);
    cuts.push({ rings: [ring, ...holes], areaMm2: area / 1e6, x, y, atEdge: atEdge[label] === 1 });
  }
  return { cuts, lengthU, widthU };
}

/** Loop n in thousandths of a millimetre on the strip, cleaned; null when nothing of it is left. */
function roundedRing(
  contours: Contours,
  n: number,
  sx: number,
  sy: number,
  lengthU: number,
  widthU: number,
): number[] | null {
  const ring: number[] = [];
  for (let p = contours.starts[n]!; p < contours.starts[n + 1]!; p++) {
    // Sample (i, j) of the padded grid is box pixel (i - 1, j - 1), whose centre lies at i - 0.5.
    const x = Math.round((contours.points[2 * p]! - 0.5) * sx * 1000);
    const y = Math.round((contours.points[2 * p + 1]! - 0.5) * sy * 1000);
    ring.push(Math.min(lengthU, Math.max(0, x)), Math.min(widthU, Math.max(0, y)));
  }
  const clean = withoutRedundantPoints(ring);
  return clean.length >= 6 && ringArea(clean) !== 0 ? clean : null;
}

/**
 * The ring without repeated points and without points on the line through their neighbours
 * (straight runs along the pixel grid, and spikes that rounding folded back onto themselves).
 */
export function withoutRedundantPoints(ring: number[]): number[] {
  let current = ring;
  for (;;) {
    const n = current.length / 2;
    const kept: number[] = [];
    for (let v = 0; v < n; v++) {
      const prevX = kept.length ? kept[kept.length - 2]! : current[2 * ((v + n - 1) % n)]!;
      const prevY = kept.length ? kept[kept.length - 1]! : current[2 * ((v + n - 1) % n) + 1]!;
      const x = current[2 * v]!;
      const y = current[2 * v + 1]!;
      const nextX = current[2 * ((v + 1) % n)]!;
      const nextY = current[2 * ((v + 1) % n) + 1]!;
      const cross = (x - prevX) * (nextY - y) - (y - prevY) * (nextX - x);
      if (cross === 0) continue; // a repeat, or on the line: the ring loses no area without it
      kept.push(x, y);
    }
    if (kept.length === current.length || kept.length < 6) return kept;
    current = kept;
  }
}

/** Twice the signed area of an integer ring, in thousandths² (exact below 2^53). */
function ringArea(ring: number[]): number {
  let twice = 0;
  const n = ring.length / 2;
  for (let v = 0; v < n; v++) {
    const w = (v + 1) % n;
    twice += ring[2 * v]! * ring[2 * w + 1]! - ring[2 * w]! * ring[2 * v + 1]!;
  }
  return twice / 2;
}

/** The centroid of an integer ring, in mm. */
function centroid(ring: number[]): { x: number; y: number } {
  let a = 0;
  let cx = 0;
  let cy = 0;
  const n = ring.length / 2;
  for (let v = 0; v < n; v++) {
    const w = (v + 1) % n;
    const cross = ring[2 * v]! * ring[2 * w + 1]! - ring[2 * w]! * ring[2 * v + 1]!;
    a += cross;
    cx += (ring[2 * v]! + ring[2 * w]!) * cross;
    cy += (ring[2 * v + 1]! + ring[2 * w + 1]!) * cross;
  }
  return { x: cx / (3 * a) / 1000, y: cy / (3 * a) / 1000 };
}

const mm3 = (u: number): string => `${Math.trunc(u / 1000)}.${String(u % 1000).padStart(3, '0')}`;

/** The cutting SVG of the cuts, one path each, in the service's format. */
export function writeCutSvg(lengthU: number, widthU: number, cuts: ReferenceCut[]): string {
  const paths = cuts.map((cut) => {
    const d = cut.rings
      .map((ring) => {
        const points: string[] = [];
        for (let v = 0; v < ring.length; v += 2) points.push(`${mm3(ring[v]!)} ${mm3(ring[v + 1]!)}`);
        return `M${points.join('L')}Z`;
      })
      .join('');
    return `<path d="${d}" fill="#000" fill-rule="evenodd"/>\n`;
  });
  const l = mm3(lengthU);
  const w = mm3(widthU);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0.000 0.000 ${l} ${w}" width="${l}mm" height="${w}mm">\n` +
    `<g id="cutouts">\n${paths.join('')}</g>\n</svg>\n`
  );
}
