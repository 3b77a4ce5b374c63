import { bentPath, facingSpans, spanRings, type Bend } from './bend.ts';
import type { CutRings } from './cut-rings.ts';
import type { WornLayout } from './layout.ts';
import { TENTH, tenths, type Pace } from './path-data.ts';
import { gradientElement, surfaceStops } from './shading.ts';
import { pieceStyle, type PieceStyle } from './style.ts';

/**
 * The piece as worn, as an SVG document: the blank bent round (the cuff with its gap, the ring
 * closed), its axis upright, seen from above at the configured elevation. Painted back to front:
 * a soft shadow on the ground, the far wall's inner face (seen over the near rim, through the gap
 * and through the near wall's openings), then the near wall's outer face. Each face is drawn twice,
 * first at the other face's radius in the colour of the cut metal, so the rims and the walls of
 * the openings that face the eye show the sheet's thickness.
 */
export async function wornPictureSvg(
  cut: CutRings,
  layout: WornLayout,
  pace: Pace,
  style: PieceStyle = pieceStyle,
): Promise<string> {
  const { width, height, pxPerMm: s, cx, cy, outerMm, innerMm, elevation } = layout;
  const bend: Bend = { lengthMm: cut.lengthMm, widthMm: cut.widthMm, layout };
  const maxArc = (style.maxArcDeg * Math.PI) / 180;
  const near = { walls: '', face: '' };
  const far = { walls: '', face: '' };
  for (const span of facingSpans(bend)) {
    const rings = await spanRings(cut, span, cut.widthMm, pace);
    // The face the eye sees, and behind it the other face in the colour of the cut metal.
    const [side, face, walls] = span.front ? [near, outerMm, innerMm] : [far, innerMm, outerMm];
    side.walls += await bentPath(rings, bend, walls, maxArc, pace);
    side.face += await bentPath(rings, bend, face, maxArc, pace);
  }

  const shadow = style.groundShadow;
  const groundY = cy + s * (cut.widthMm / 2) * Math.cos(elevation);
  const rx = s * outerMm * shadow.spread;
  const ry = s * outerMm * Math.sin(elevation) * shadow.spread;
  // Gradients and shapes in the tenths the paths are written in.
  const defs =
    gradientElement('outer', tenths(cx - s * outerMm), tenths(cx + s * outerMm), surfaceStops('outer', style)) +
    gradientElement('inner', tenths(cx - s * innerMm), tenths(cx + s * innerMm), surfaceStops('inner', style)) +
    `<radialGradient id="ground"><stop offset="0" stop-color="${shadow.colour}" stop-opacity="${shadow.opacity}"/>` +
    `<stop offset="0.7" stop-color="${shadow.colour}" stop-opacity="${shadow.opacity * 0.45}"/>` +
    `<stop offset="1" stop-color="${shadow.colour}" stop-opacity="0"/></radialGradient>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<defs>${defs}</defs>` +
    `<rect width="${width}" height="${height}" fill="${style.background}"/>` +
    `<g transform="${TENTH}">` +
    `<ellipse cx="${tenths(cx)}" cy="${tenths(groundY)}" rx="${tenths(rx)}" ry="${tenths(ry)}" fill="url(#ground)"/>` +
    `<path d="${far.walls}" fill="${style.backWall}" fill-rule="evenodd"/>` +
    `<path d="${far.face}" fill="url(#inner)" fill-rule="evenodd"/>` +
    `<path d="${near.walls}" fill="${style.frontWall}" fill-rule="evenodd"/>` +
    `<path d="${near.face}" fill="url(#outer)" fill-rule="evenodd"/>` +
    '</g></svg>'
  );
}
