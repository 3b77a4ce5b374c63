import type { NumberedFinding } from './numbering.ts';
import { markedPlaces } from './numbering.ts';
import { textElement, textWidth } from './stroke-font.ts';
import { pictureStyle, severityColour, type PictureStyle } from './style.ts';

/** One circled place on the drawing, in the kept copy's pixels. */
export interface Mark {
  no: number;
  severity: 'error' | 'warning';
  cx: number;
  cy: number;
  /** The ring's radius (the centre of its stroke). */
  ringR: number;
}

/** The ring around a place whose own radius is `placeR` copy pixels: outside it, never tiny. */
export const ringRadius = (placeR: number, style: PictureStyle = pictureStyle): number =>
  Math.max(style.minRingPx, placeR + style.ringGapPx + style.ringStrokePx / 2);

/**
 * Every place of every finding that has one, scaled from the upload's pixels to the copy's
 * (`kx`, `ky`), in numbering order; at most `style.maxMarks` (`dropped` says how many more).
 */
export function marksFor(
  numbered: readonly NumberedFinding[],
  kx: number,
  ky: number,
  style: PictureStyle = pictureStyle,
): { marks: Mark[]; dropped: number } {
  const marks: Mark[] = [];
  let dropped = 0;
  for (const { no, finding } of numbered) {
    for (const at of markedPlaces(finding)) {
      if (marks.length >= style.maxMarks) {
        dropped++;
        continue;
      }
      const px = at.px!;
      marks.push({
        no,
        severity: finding.severity,
        cx: px.x * kx,
        cy: px.y * ky,
        ringR: ringRadius(px.r * Math.max(kx, ky), style),
      });
    }
  }
  return { marks, dropped };
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

/** A ring: a white halo under a coloured stroke, solid for errors and dashed for warnings. */
export function ring(
  cx: number,
  cy: number,
  r: number,
  severity: 'error' | 'warning',
  style: PictureStyle = pictureStyle,
  strokePx: number = style.ringStrokePx,
): { halo: string; stroke: string } {
  const dash = severity === 'warning' ? ` stroke-dasharray="${style.warningDash}"` : '';
  const at = `cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none"`;
  return {
    halo: `<circle ${at} stroke="${style.haloColour}" stroke-width="${n(strokePx + style.haloStrokePx - style.ringStrokePx)}"/>`,
    stroke: `<circle ${at} stroke="${severityColour(severity, style)}" stroke-width="${n(strokePx)}"${dash}/>`,
  };
}

/** Width of the number badge for `no`. */
export const badgeWidth = (no: number, style: PictureStyle = pictureStyle): number =>
  Math.max(style.badgeHeightPx, textWidth(String(no), style.badgeCapPx) + style.badgeHeightPx - style.badgeCapPx);

/** A number in a filled, white-edged pill of the severity's colour, centred on (cx, cy). */
export function badge(
  no: number,
  cx: number,
  cy: number,
  severity: 'error' | 'warning',
  style: PictureStyle = pictureStyle,
): string {
  const w = badgeWidth(no, style);
  const h = style.badgeHeightPx;
  const label = String(no);
  const tx = cx - textWidth(label, style.badgeCapPx) / 2;
  const ty = cy - style.badgeCapPx / 2;
  return (
    `<rect x="${n(cx - w / 2)}" y="${n(cy - h / 2)}" width="${n(w)}" height="${h}" rx="${h / 2}" ` +
    `fill="${severityColour(severity, style)}" stroke="${style.haloColour}" stroke-width="2"/>` +
    textElement(label, tx, ty, style.badgeCapPx, style.haloColour)
  );
}

/**
 * The marks as SVG, shifted by (dx, dy): all halos first, then the rings, then the numbers (up
 * and to the right of each ring, outside it), so no ring hides another place's number.
 */
export function marksSvg(marks: readonly Mark[], dx: number, dy: number, style: PictureStyle = pictureStyle): string {
  const halos: string[] = [];
  const strokes: string[] = [];
  const badges: string[] = [];
  const out = Math.SQRT1_2;
  for (const m of marks) {
    const cx = m.cx + dx;
    const cy = m.cy + dy;
    const r = ring(cx, cy, m.ringR, m.severity, style);
    halos.push(r.halo);
    strokes.push(r.stroke);
    const reach = m.ringR + style.badgeHeightPx / 2;
    badges.push(badge(m.no, cx + reach * out, cy - reach * out, m.severity, style));
  }
  return halos.join('') + strokes.join('') + badges.join('');
}
