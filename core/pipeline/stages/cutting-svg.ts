import type { Point } from '../vector/cuts.ts';
import { cutAreaMm2, ringPoints, thousandths, type FinalCut, type Ring } from '../final-check/rings.ts';
import { ringArea } from '../vector/ring-geometry.ts';
import { simplifyRing } from '../vector/simplify.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PREVIEW_FILL = '#2b2118';
/** Preview detail: well below what shows at any sensible size, well above the cut tolerance. */
const PREVIEW_TOLERANCE_MM = 0.05;

/** A number in thousandths as the cutting file writes it: exactly three decimals, no "-0.000". */
function fileNumber(n: number): string {
  const abs = n < 0 ? -n : n;
  const whole = Math.floor(abs / 1000);
  const frac = abs - whole * 1000;
  return `${n < 0 ? '-' : ''}${whole}.${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}`;
}

/** A number as the cutting file writes it: exactly `v.toFixed(3)`, but never "-0.000". */
export const cutNumber = (v: number): string => fileNumber(thousandths(v));

/** A ring as path data (`M x y L x y ... Z`). */
function ringData(ring: Ring): string {
  let d = '';
  for (let i = 0; i < ring.length; i += 2)
    d += `${i === 0 ? 'M' : 'L'}${fileNumber(ring[i]!)} ${fileNumber(ring[i + 1]!)}`;
  return `${d}Z`;
}

/**
 * The canonical cutting file: viewBox `0 0 L W` in millimetres, one `g#cutouts` with one
 * black even-odd `path` per cut (its outline, then any metal left inside it), only M/L/Z and
 * numbers with exactly three decimals, written from the rings the final check measured.
 */
export function cuttingSvg(lengthMm: number, widthMm: number, cuts: readonly FinalCut[]): string {
  let paths = '';
  for (const cut of cuts) {
    paths += `<path d="${ringData(cut.outer)}${cut.holes.map(ringData).join('')}" fill="#000" fill-rule="evenodd"/>\n`;
  }
  const l = cutNumber(lengthMm);
  const w = cutNumber(widthMm);
  return (
    `<svg xmlns="${SVG_NS}" viewBox="0.000 0.000 ${l} ${w}" width="${l}mm" height="${w}mm">\n` +
    `<g id="cutouts">\n${paths}</g>\n</svg>\n`
  );
}

/** The number of cut contours in a cutting SVG (`geometry.cuts`). */
export function countCutPaths(svg: string): number {
  return svg.match(/<path /g)?.length ?? 0;
}

/** Two decimals at most, for the preview: 12.5, not 12.50. */
const hundredths = (v: number): number => Math.round(v * 100) / 100 || 0;

/** A ring as preview path data, with points that repeat after rounding dropped; '' when no area is left. */
function previewRing(ring: readonly Point[]): string {
  const kept: Point[] = [];
  for (const [x, y] of ring) {
    const p: Point = [hundredths(x), hundredths(y)];
    const last = kept.at(-1);
    if (!last || last[0] !== p[0] || last[1] !== p[1]) kept.push(p);
  }
  while (kept.length > 1 && kept[0]![0] === kept.at(-1)![0] && kept[0]![1] === kept.at(-1)![1]) kept.pop();
  if (ringArea(kept) === 0) return '';
  return `${kept.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x} ${y}`).join('')}Z`;
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * A small self-contained silhouette of the metal: one dark even-odd path made of the strip
 * rectangle and every ring of the cutting file (so cuts show as openings and islands as metal),
 * simplified to 0.05 mm with two decimals. No script, style or external reference.
 */
export function previewSvg(lengthMm: number, widthMm: number, cuts: readonly FinalCut[], title: string): string {
  const strip: Point[] = [
    [0, 0],
    [lengthMm, 0],
    [lengthMm, widthMm],
    [0, widthMm],
  ];
  const rings = cuts.flatMap((cut) => [cut.outer, ...cut.holes]).map(ringPoints);
  const d = [strip, ...rings.map((ring) => simplifyRing(ring, PREVIEW_TOLERANCE_MM))].map(previewRing).join('');
  const view = `0 0 ${hundredths(lengthMm)} ${hundredths(widthMm)}`;
  return (
    `<svg xmlns="${SVG_NS}" role="img" viewBox="${view}"><title>${escapeXml(title)}</title>` +
    `<path d="${d}" fill="${PREVIEW_FILL}" fill-rule="evenodd"/></svg>\n`
  );
}

/** Area of the metal left in the L × W strip once the cuts are made, in mm². */
export function metalAreaMm2(lengthMm: number, widthMm: number, cuts: readonly FinalCut[]): number {
  return lengthMm * widthMm - cutAreaMm2(cuts);
}

export { cutAreaMm2 };
