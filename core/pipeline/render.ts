import type { CutPolygon, Point } from './cuts.ts';
import { ringArea } from './ring-geometry.ts';
import { simplifyRing } from './simplify.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PREVIEW_FILL = '#2b2118';
/** Preview detail: well below what shows at any sensible size, well above the cut tolerance. */
const PREVIEW_TOLERANCE_MM = 0.05;

type Format = (v: number) => string;

// toFixed keeps the sign of a value that rounds to zero ("-0.000"): the contract wants plain numbers.
const fixed3: Format = (v) => {
  const s = v.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
};
const short2: Format = (v) => String(Math.round(v * 100) / 100 || 0);

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
  const xs: string[] = [];
  const ys: string[] = [];
  let kept: Point | undefined;
  for (const point of ring) {
    const fx = format(point[0]);
    const fy = format(point[1]);
    const last = xs.length - 1;
    if (last >= 0 && xs[last] === fx && ys[last] === fy) continue;
    if (kept && Math.hypot(point[0] - kept[0], point[1] - kept[1]) < minSpacing) continue;
    kept = point;
    xs.push(fx);
    ys.push(fy);
  }
  const near = (i: number) => Math.hypot(Number(xs[i]) - Number(xs[0]), Number(ys[i]) - Number(ys[0])) < minSpacing;
  while (xs.length > 1 && ((xs[0] === xs[xs.length - 1] && ys[0] === ys[ys.length - 1]) || near(xs.length - 1))) {
    xs.pop();
    ys.pop();
  }
  if (new Set(xs.map((x, i) => `${x} ${ys[i]}`)).size < 3) return '';
  if (ringArea(xs.map((x, i): Point => [Number(x), Number(ys[i])])) === 0) return '';
  return `M${xs.map((x, i) => `${x} ${ys[i]}`).join('L')}Z`;
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
  const l = fixed3(lengthMm);
  const w = fixed3(widthMm);
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
  const view = `0 0 ${short2(lengthMm)} ${short2(widthMm)}`;
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
