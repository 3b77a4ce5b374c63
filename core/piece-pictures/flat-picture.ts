import type { CutRings } from './cut-rings.ts';
import type { FlatLayout } from './layout.ts';
import { rulerSvg, widthMarkSvg } from './ruler.ts';
import { pieceStyle, type PieceStyle } from './style.ts';

const fixed = (v: number): string => String(Math.round(v * 100) / 100);

const BORDER_MM = 1e-3 + 1e-9;

/** The border lines a point lies on, as bits: 1 top, 2 right, 4 bottom, 8 left (a corner is on two). */
function bordersOf(x: number, y: number, cut: CutRings): number {
  return (
    (y <= BORDER_MM ? 1 : 0) |
    (x >= cut.lengthMm - BORDER_MM ? 2 : 0) |
    (y >= cut.widthMm - BORDER_MM ? 4 : 0) |
    (x <= BORDER_MM ? 8 : 0)
  );
}

const onBorder = (ring: Float64Array, cut: CutRings): boolean => {
  for (let i = 0; i < ring.length; i += 2) if (bordersOf(ring[i]!, ring[i + 1]!, cut) !== 0) return true;
  return false;
};

type Plot = (xMm: number, yMm: number) => string;

function plotter(layout: Pick<FlatLayout, 'pxPerMm' | 'left' | 'top'>): Plot {
  const { pxPerMm: s, left, top } = layout;
  return (x, y) => `${fixed(left + x * s)} ${fixed(top + y * s)}`;
}

/**
 * The metal as one even-odd path in the picture's pixels: the strip's rectangle, then every ring
 * of every cut (each toggles air and metal); `outline` keeps only the cuts on the border, which
 * shape the piece's outline. Points closer than a tenth of a pixel to the last one kept are left
 * out: they change nothing at this scale.
 */
export function metalPath(
  cut: CutRings,
  layout: Pick<FlatLayout, 'pxPerMm' | 'left' | 'top'>,
  outline = false,
): string {
  const at = plotter(layout);
  const near = 0.1 / layout.pxPerMm;
  const parts = [`M${at(0, 0)}L${at(cut.lengthMm, 0)}L${at(cut.lengthMm, cut.widthMm)}L${at(0, cut.widthMm)}Z`];
  for (const ring of cut.rings) {
    if (outline && !onBorder(ring, cut)) continue;
    let d = `M${at(ring[0]!, ring[1]!)}`;
    let lastX = ring[0]!;
    let lastY = ring[1]!;
    for (let i = 2; i < ring.length; i += 2) {
      const x = ring[i]!;
      const y = ring[i + 1]!;
      if (Math.abs(x - lastX) < near && Math.abs(y - lastY) < near) continue;
      d += `L${at(x, y)}`;
      lastX = x;
      lastY = y;
    }
    parts.push(`${d}Z`);
  }
  return parts.join('');
}

/**
 * Where metal meets air, as open lines to stroke: every edge of every cut except those lying on
 * the strip's border, and the border itself except where a cut runs along it (a shaped end took
 * that metal away, so no edge is there).
 */
export function edgeLines(cut: CutRings, layout: Pick<FlatLayout, 'pxPerMm' | 'left' | 'top'>): string {
  const at = plotter(layout);
  const taken: [number, number][][] = [[], [], [], []];
  let d = '';
  for (const ring of cut.rings) {
    const n = ring.length / 2;
    let open = false;
    for (let j = 0; j < n; j++) {
      const k = (j + 1) % n;
      const x0 = ring[2 * j]!;
      const y0 = ring[2 * j + 1]!;
      const x1 = ring[2 * k]!;
      const y1 = ring[2 * k + 1]!;
      const common = bordersOf(x0, y0, cut) & bordersOf(x1, y1, cut);
      const side = common === 0 ? -1 : Math.log2(common & -common);
      if (side >= 0) {
        taken[side]!.push(side % 2 === 0 ? [Math.min(x0, x1), Math.max(x0, x1)] : [Math.min(y0, y1), Math.max(y0, y1)]);
        open = false;
      } else {
        d += `${open ? '' : `M${at(x0, y0)}`}L${at(x1, y1)}`;
        open = true;
      }
    }
  }
  const sides: [number, (t: number) => [number, number]][] = [
    [cut.lengthMm, (t) => [t, 0]],
    [cut.widthMm, (t) => [cut.lengthMm, t]],
    [cut.lengthMm, (t) => [t, cut.widthMm]],
    [cut.widthMm, (t) => [0, t]],
  ];
  sides.forEach(([length, point], side) => {
    let from = 0;
    for (const [a, b] of taken[side]!.sort((p, q) => p[0] - q[0])) {
      if (a > from) d += `M${at(...point(from))}L${at(...point(a))}`;
      from = Math.max(from, b);
    }
    if (from < length) d += `M${at(...point(from))}L${at(...point(length))}`;
  });
  return d;
}

/**
 * The flat blank as an SVG document: polished brass with a broad sheen, a thin darker line where
 * the laser cut, a soft shadow on the paper, the openings showing the paper, a millimetre ruler
 * under it and its width beside it. Sized and placed by `layout`.
 */
export function flatPictureSvg(cut: CutRings, layout: FlatLayout, style: PieceStyle = pieceStyle): string {
  const { width, height, pxPerMm: s, left, top } = layout;
  const d = metalPath(cut, layout);
  // The sheen runs across the strip at a slant, whatever its proportions.
  const w = cut.lengthMm * s;
  const h = cut.widthMm * s;
  const reach = h * 1.2;
  const stops = style.flatStops.map(([at, colour]) => `<stop offset="${at}" stop-color="${colour}"/>`).join('');
  const shadow = style.flatShadow;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="brass" gradientUnits="userSpaceOnUse" x1="${fixed(left + w * 0.25)}" y1="${fixed(top)}" ` +
    `x2="${fixed(left + w * 0.25 + reach)}" y2="${fixed(top + h + reach * 0.4)}" spreadMethod="reflect">${stops}</linearGradient>` +
    `<filter id="soft" x="-10%" y="-30%" width="120%" height="160%"><feGaussianBlur stdDeviation="${shadow.blurPx}"/></filter></defs>` +
    `<rect width="${width}" height="${height}" fill="${style.background}"/>` +
    `<path d="${metalPath(cut, layout, true)}" transform="translate(${shadow.offsetPx} ${shadow.offsetPx})" ` +
    `fill="${shadow.colour}" fill-opacity="${shadow.opacity}" fill-rule="evenodd" filter="url(#soft)"/>` +
    // Paper again inside the outline: the openings show the page, not the shadow.
    `<path d="${metalPath(cut, layout, true)}" fill="${style.background}" fill-rule="evenodd"/>` +
    `<path d="${d}" fill="url(#brass)" fill-rule="evenodd"/>` +
    `<path d="${edgeLines(cut, layout)}" fill="none" stroke="${style.flatEdge}" stroke-width="${style.flatEdgePx}" ` +
    'stroke-linejoin="round" stroke-linecap="round"/>' +
    rulerSvg(cut.lengthMm, layout, style.ink) +
    widthMarkSvg(cut.widthMm, layout, style.ink) +
    '</svg>'
  );
}
