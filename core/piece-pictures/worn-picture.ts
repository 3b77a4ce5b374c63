import { facingSpans, spanPath, type Bend } from './bend.ts';
import type { CutRings } from './cut-rings.ts';
import type { WornLayout } from './layout.ts';
import { gradientElement, surfaceStops } from './shading.ts';
import { pieceStyle, type PieceStyle } from './style.ts';

const fixed = (v: number): string => String(Math.round(v * 10) / 10);

/**
 * The piece as worn, as an SVG document: the blank bent round (the cuff with its gap, the ring
 * closed), its axis upright, seen from above at the configured elevation. Painted back to front:
 * a soft shadow on the ground, the far wall's inner face (seen over the near rim, through the gap
 * and through the near wall's openings), then the near wall's outer face. Each face is drawn twice,
 * first at the other face's radius in the colour of the cut metal, so the rims and the walls of
 * the openings that face the eye show the sheet's thickness.
 */
export function wornPictureSvg(cut: CutRings, layout: WornLayout, style: PieceStyle = pieceStyle): string {
  const { width, height, pxPerMm: s, cx, cy, outerMm, innerMm, elevation } = layout;
  const bend: Bend = { lengthMm: cut.lengthMm, widthMm: cut.widthMm, layout };
  const spans = facingSpans(bend);
  const maxArc = (style.maxArcDeg * Math.PI) / 180;
  const paths = (front: boolean, radius: number) =>
    spans
      .filter((span) => span.front === front)
      .map((span) => spanPath(cut, bend, span, radius, maxArc))
      .join('');

  const shadow = style.groundShadow;
  const groundY = cy + s * (cut.widthMm / 2) * Math.cos(elevation);
  const rx = s * outerMm * shadow.spread;
  const ry = s * outerMm * Math.sin(elevation) * shadow.spread;
  const defs =
    gradientElement('outer', cx - s * outerMm, cx + s * outerMm, surfaceStops('outer', style)) +
    gradientElement('inner', cx - s * innerMm, cx + s * innerMm, surfaceStops('inner', style)) +
    `<radialGradient id="ground"><stop offset="0" stop-color="${shadow.colour}" stop-opacity="${shadow.opacity}"/>` +
    `<stop offset="0.7" stop-color="${shadow.colour}" stop-opacity="${shadow.opacity * 0.45}"/>` +
    `<stop offset="1" stop-color="${shadow.colour}" stop-opacity="0"/></radialGradient>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs}</defs>` +
    `<rect width="${width}" height="${height}" fill="${style.background}"/>` +
    `<ellipse cx="${fixed(cx)}" cy="${fixed(groundY)}" rx="${fixed(rx)}" ry="${fixed(ry)}" fill="url(#ground)"/>` +
    `<path d="${paths(false, outerMm)}" fill="${style.backWall}" fill-rule="evenodd"/>` +
    `<path d="${paths(false, innerMm)}" fill="url(#inner)" fill-rule="evenodd"/>` +
    `<path d="${paths(true, innerMm)}" fill="${style.frontWall}" fill-rule="evenodd"/>` +
    `<path d="${paths(true, outerMm)}" fill="url(#outer)" fill-rule="evenodd"/>` +
    '</svg>'
  );
}
