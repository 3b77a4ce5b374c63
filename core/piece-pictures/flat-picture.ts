import type { CutRings } from './cut-rings.ts';
import { edgeLines, metalPath } from './flat-outline.ts';
import type { FlatLayout } from './layout.ts';
import { TENTH, tenths, type Pace } from './path-data.ts';
import { rulerSvg, widthMarkSvg } from './ruler.ts';
import { pieceStyle, type PieceStyle } from './style.ts';

/**
 * A soft shadow down and to the right of the outline, as a few copies of it each a little further
 * and fainter: it looks like a blur, at the cost of a few fills of a simple path (librsvg's blur
 * of a picture this size takes longer than all the rest).
 */
function shadowLayers(outline: string, shadow: PieceStyle['flatShadow']): string {
  let layers = '';
  for (let i = 1; i <= shadow.layers; i++) {
    const offset = tenths((shadow.offsetPx * i) / shadow.layers);
    layers +=
      `<path d="${outline}" transform="translate(${offset} ${offset})" fill="${shadow.colour}" ` +
      `fill-opacity="${(shadow.opacity / shadow.layers).toFixed(3)}" fill-rule="evenodd"/>`;
  }
  return layers;
}

/**
 * The flat blank as an SVG document: polished brass with a broad sheen, a thin darker line where
 * the laser cut, a soft shadow on the paper (cast by the outline only, so every opening shows the
 * paper itself), a millimetre ruler under it and its width beside it. Sized and placed by `layout`.
 */
export async function flatPictureSvg(
  cut: CutRings,
  layout: FlatLayout,
  pace: Pace,
  style: PieceStyle = pieceStyle,
): Promise<string> {
  const { width, height, pxPerMm: s, left, top } = layout;
  const metal = await metalPath(cut, layout, pace);
  const outline = await metalPath(cut, layout, pace, true);
  const edges = await edgeLines(cut, layout, pace);
  // The sheen runs across the strip at a slant, whatever its proportions (tenths, like the paths).
  const w = cut.lengthMm * s;
  const h = cut.widthMm * s;
  const reach = h * 1.2;
  const stops = style.flatStops.map(([at, colour]) => `<stop offset="${at}" stop-color="${colour}"/>`).join('');
  const shadow = style.flatShadow;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs><linearGradient id="brass" gradientUnits="userSpaceOnUse" x1="${tenths(left + w * 0.25)}" y1="${tenths(top)}" ` +
    `x2="${tenths(left + w * 0.25 + reach)}" y2="${tenths(top + h + reach * 0.4)}" spreadMethod="reflect">${stops}</linearGradient>` +
    '</defs>' +
    `<rect width="${width}" height="${height}" fill="${style.background}"/>` +
    `<g transform="${TENTH}">` +
    shadowLayers(outline, shadow) +
    // Paper again inside the outline: the openings show the page, not the shadow.
    `<path d="${outline}" fill="${style.background}" fill-rule="evenodd"/>` +
    `<path d="${metal}" fill="url(#brass)" fill-rule="evenodd"/>` +
    `<path d="${edges}" fill="none" stroke="${style.flatEdge}" stroke-width="${tenths(style.flatEdgePx)}" ` +
    'stroke-linejoin="round" stroke-linecap="round"/></g>' +
    rulerSvg(cut.lengthMm, layout, style.ink) +
    widthMarkSvg(cut.widthMm, layout, style.ink) +
    '</svg>'
  );
}
