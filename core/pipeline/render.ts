import type { CutPolygon, Point } from './cuts.ts';
import { ringArea } from './ring-geometry.ts';
import { simplifyRing } from './simplify.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PREVIEW_FILL = '#2b2118';
/** Preview detail: well below what shows at any sensible size, well above the cut tolerance. */
const PREVIEW_TOLERANCE_MM = 0.05;

/**
 * A number format: `round` gives the value the text stands for (equal text, equal value), `text`
 * writes a value `round` gave.
 */
interface Format {
  round(v: number): number;
  text(rounded: number): string;
}

/**
 * Exactly `v.toFixed(3)`, but "0.000" for values that round to zero (toFixed keeps the sign:
 * "-0.000"; the contract wants plain numbers). Thousandths are found by arithmetic, which agrees
 * with toFixed wherever `v` is not within rounding error of a half thousandth; there toFixed
 * decides. Paths hold tens of thousands of numbers, and toFixed is most of their cost.
 */
const fixed3: Format = {
  round(v) {
    const t = v * 1000;
    const frac = t - Math.floor(t);
    const n = Math.abs(frac - 0.5) < 1e-6 ? Math.round(Number(v.toFixed(3)) * 1000) : Math.round(t);
    return n === 0 ? 0 : n / 1000;
  },
  text(rounded) {
    const n = Math.round(rounded * 1000);
    const abs = n < 0 ? -n : n;
    const whole = Math.floor(abs / 1000);
    const frac = abs - whole * 1000;
    return `${n < 0 ? '-' : ''}${whole}.${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}`;
  },
};
/** A number as the cutting file writes it (exported for the test that holds it to toFixed). */
export const cutNumber = (v: number): string => fixed3.text(fixed3.round(v));

const short2: Format = {
  round: (v) => Math.round(v * 100) / 100 || 0,
  text: (rounded) => String(rounded),
};

/**
 * Points closer than this to the previous kept point are dropped from the cutting file: at a
 * sharp corner the flattened curve can double back by a few micrometres, which would make the
 * ring cross itself; dropping them moves the cut by at most this, within the 0.02 mm budget.
 */
const MIN_SPACING_MM = 0.01;

/**
 * A ring as path data (`M x y L x y ... Z`) in the given number format, with points that repeat
 * the previous one (after rounding, or within `minSpacing`) dropped; '' when fewer than three
 * distinct points or no area remain (such a ring would cut a line, or nothing).
 */
function ringPath(ring: readonly Point[], format: Format, minSpacing = 0): string {
  const xs: number[] = [];
  const ys: number[] = [];
  let kept: Point | undefined;
  for (const point of ring) {
    const rx = format.round(point[0]);
    const ry = format.round(point[1]);
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === rx && ys[last] === ry) continue;
    if (kept && Math.hypot(point[0] - kept[0], point[1] - kept[1]) < minSpacing) continue;
    kept = point;
    xs.push(rx);
    ys.push(ry);
  }
  const near = (i: number) => Math.hypot(xs[i]! - xs[0]!, ys[i]! - ys[0]!) < minSpacing;
  while (xs.length > 1 && ((xs[0] === xs[xs.length - 1] && ys[0] === ys[ys.length - 1]) || near(xs.length - 1))) {
    xs.pop();
    ys.pop();
  }
  if (!hasThreeDistinct(xs, ys) || twiceArea(xs, ys) === 0) return '';
  let d = '';
  for (let i = 0; i < xs.length; i++) d += `${i === 0 ? 'M' : 'L'}${format.text(xs[i]!)} ${format.text(ys[i]!)}`;
  return `${d}Z`;
}

function hasThreeDistinct(xs: readonly number[], ys: readonly number[]): boolean {
  let second = -1;
  for (let i = 1; i < xs.length; i++) {
    if (xs[i] === xs[0] && ys[i] === ys[0]) continue;
    if (second < 0) second = i;
    else if (xs[i] !== xs[second] || ys[i] !== ys[second]) return true;
  }
  return false;
}

/** `ringArea` × 2 over parallel coordinate arrays, in the same order of operations. */
function twiceArea(xs: readonly number[], ys: readonly number[]): number {
  let twice = 0;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) twice += xs[j]! * ys[i]! - xs[i]! * ys[j]!;
  return twice;
}

/** A cut's path data: its outer ring then its holes; '' when the outer ring is degenerate. */
function cutPath(cut: CutPolygon, format: Format, minSpacing = 0): string {
  const outer = ringPath(cut.outer, format, minSpacing);
  return outer && outer + cut.holes.map((hole) => ringPath(hole, format, minSpacing)).join('');
}

/**
 * The canonical cutting file: viewBox `0 0 L W` in millimetres, one `g#cutouts` with one
 * black even-odd `path` per cut (holes stay metal), only M/L/Z and numbers with exactly three
 * decimals. Cuts that round away to nothing are left out: count paths with `countCutPaths`.
 */
export function cuttingSvg(lengthMm: number, widthMm: number, cuts: readonly CutPolygon[]): string {
  const paths = cuts
    .map((cut) => cutPath(cut, fixed3, MIN_SPACING_MM))
    .filter((d) => d !== '')
    .map((d) => `<path d="${d}" fill="#000" fill-rule="evenodd"/>\n`);
  const l = cutNumber(lengthMm);
  const w = cutNumber(widthMm);
  return (
    `<svg xmlns="${SVG_NS}" viewBox="0.000 0.000 ${l} ${w}" width="${l}mm" height="${w}mm">\n` +
    `<g id="cutouts">\n${paths.join('')}</g>\n</svg>\n`
  );
}

/** The number of cut contours in a cutting SVG (`geometry.cuts`). */
export function countCutPaths(svg: string): number {
  return svg.match(/<path /g)?.length ?? 0;
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A small self-contained silhouette of the metal: one dark even-odd path made of the strip
 * rectangle and every cut ring (so cuts show as openings and islands as metal), simplified to
 * 0.05 mm with two decimals. No script, style or external reference.
 */
export function previewSvg(lengthMm: number, widthMm: number, cuts: readonly CutPolygon[], title: string): string {
  const strip: Point[] = [
    [0, 0],
    [lengthMm, 0],
    [lengthMm, widthMm],
    [0, widthMm],
  ];
  const rings = cuts.flatMap((cut) => [cut.outer, ...cut.holes]);
  const d = [strip, ...rings.map((ring) => simplifyRing(ring, PREVIEW_TOLERANCE_MM))]
    .map((ring) => ringPath(ring, short2))
    .join('');
  const view = `0 0 ${short2.text(short2.round(lengthMm))} ${short2.text(short2.round(widthMm))}`;
  return (
    `<svg xmlns="${SVG_NS}" role="img" viewBox="${view}"><title>${escapeXml(title)}</title>` +
    `<path d="${d}" fill="${PREVIEW_FILL}" fill-rule="evenodd"/></svg>\n`
  );
}

/** Area of the cuts in mm²: each outer ring less the metal islands inside it. */
export function cutAreaMm2(cuts: readonly CutPolygon[]): number {
  let area = 0;
  for (const cut of cuts) {
    area += Math.abs(ringArea(cut.outer));
    for (const hole of cut.holes) area -= Math.abs(ringArea(hole));
  }
  return area;
}

/** Area of the metal left in the L × W strip once the cuts are made, in mm². */
export function metalAreaMm2(lengthMm: number, widthMm: number, cuts: readonly CutPolygon[]): number {
  return lengthMm * widthMm - cutAreaMm2(cuts);
}
