import sharp from 'sharp';
import type { Geometry } from '../../contract/submission.ts';
import type { Panel } from './legend.ts';
import { badge, badgeWidth, ring } from './marks.ts';
import { isRepair, markedPlaces, type NumberedFinding } from './numbering.ts';
import type { CopyScale, CopyView } from './placing.ts';
import { fitText, textElement, textWidth } from './stroke-font.ts';
import { pictureStyle, type PictureStyle } from './style.ts';

/** One changed place shown as a pair: the drawing there (before) and the cut there (after). */
interface Inset {
  no: number;
  code: string;
  /** The place on the strip, millimetres. */
  mm: { x: number; y: number; r: number };
  /** The same place on the kept copy, pixels. */
  at: { x: number; y: number };
  /** The side of the square of strip shown, millimetres. */
  windowMm: number;
}

/**
 * The repairs' places in numbering order, at most `style.maxInsets` in all and
 * `style.maxInsetsPerFinding` per finding (`more` counts the rest).
 * The window shows the place with room around it: `windowRadii` times its radius, between
 * `windowMinMetal` and twice that many metal floors, so a widened neck stays wide enough to see.
 */
export function planInsets(
  numbered: readonly NumberedFinding[],
  kx: number,
  ky: number,
  minMetalMm: number,
  style: PictureStyle = pictureStyle,
): { insets: Inset[]; more: number } {
  const insets: Inset[] = [];
  let more = 0;
  const least = style.windowMinMetal * minMetalMm;
  for (const { no, finding } of numbered) {
    if (!isRepair(finding)) continue;
    markedPlaces(finding).forEach((at, i) => {
      if (insets.length >= style.maxInsets || i >= style.maxInsetsPerFinding) {
        more++;
        return;
      }
      insets.push({
        no,
        code: finding.code,
        mm: { x: at.x, y: at.y, r: at.r },
        at: { x: at.px!.x * kx, y: at.px!.y * ky },
        windowMm: Math.min(2 * least, Math.max(least, style.windowRadii * at.r)),
      });
    });
  }
  return { insets, more };
}

interface Cut {
  d: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The cut contours of a stored cutting SVG with their bounding boxes. The file is ours and holds
 * only M/L/Z paths with plain numbers (contract); any other path data is left out rather than
 * copied into the picture's SVG.
 */
export function cutsOf(cuttingSvg: string): Cut[] {
  const cuts: Cut[] = [];
  for (const [, d] of cuttingSvg.matchAll(/<path d="([^"]*)"/g)) {
    if (!d || !/^[MLZ0-9.\s-]+$/.test(d)) continue;
    const v = d.match(/-?[0-9.]+/g)?.map(Number) ?? [];
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (let i = 0; i + 1 < v.length; i += 2) {
      x0 = Math.min(x0, v[i]!);
      x1 = Math.max(x1, v[i]!);
      y0 = Math.min(y0, v[i + 1]!);
      y1 = Math.max(y1, v[i + 1]!);
    }
    cuts.push({ d, x0, y0, x1, y1 });
  }
  return cuts;
}

const n = (v: number): string => String(Math.round(v * 1000) / 1000);

/** The metal as cut inside one window: the strip minus the cuts that reach into it, dark on white. */
function cutView(inset: Inset, geometry: Geometry, cuts: readonly Cut[], x: number, y: number, size: number): string {
  const half = inset.windowMm / 2;
  const vx = inset.mm.x - half;
  const vy = inset.mm.y - half;
  const near = cuts.filter(
    (c) => c.x1 >= vx && c.x0 <= vx + inset.windowMm && c.y1 >= vy && c.y0 <= vy + inset.windowMm,
  );
  const metal = `M0 0H${n(geometry.lengthMm)}V${n(geometry.widthMm)}H0Z${near.map((c) => c.d).join('')}`;
  return (
    `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="${n(vx)} ${n(vy)} ${n(inset.windowMm)} ${n(inset.windowMm)}" preserveAspectRatio="none">` +
    `<rect x="${n(vx)}" y="${n(vy)}" width="${n(inset.windowMm)}" height="${n(inset.windowMm)}" fill="#ffffff"/>` +
    `<path d="${metal}" fill="#000000" fill-rule="evenodd"/></svg>`
  );
}

/** Where an inset's two squares are on the picture (each `insetPx` on a side). */
interface CropSpot {
  inset: Inset;
  left: number;
  top: number;
  /** The after square's left edge (same top). */
  afterLeft: number;
}

/**
 * The panel of before/after pairs below the legend: a heading, then one cell per inset with its
 * number and code, the drawing's square (composited from `beforeCrop` at `crops`), an arrow and
 * the cut's square, the place ringed in both.
 */
export function changesPanel(
  insets: readonly Inset[],
  more: number,
  geometry: Geometry,
  cuttingSvg: string,
  top: number,
  width: number,
  style: PictureStyle = pictureStyle,
): Panel & { crops: CropSpot[] } {
  const s = style.insetPx;
  const cellW = 2 * s + style.insetGapPx;
  const inner = width - 2 * style.padPx;
  const perRow = Math.max(1, Math.floor((inner + style.padPx) / (cellW + style.padPx)));
  const cellH = style.lineHeightPx + s + style.lineHeightPx + style.padPx / 2;
  const textY = (y: number) => y + (style.lineHeightPx - style.textCapPx) / 2;
  const cuts = cutsOf(cuttingSvg);

  const heading = fitText('WHAT THE ENGINE CHANGED: DRAWN > CUT', style.textCapPx, inner);
  let svg =
    `<line x1="${style.padPx}" y1="${top}" x2="${width - style.padPx}" y2="${top}" stroke="${style.ruleColour}" stroke-width="1"/>` +
    textElement(heading, style.padPx, textY(top + style.padPx / 2), style.textCapPx, style.inkColour);
  const gridTop = top + style.padPx / 2 + style.lineHeightPx;
  const crops: CropSpot[] = [];

  insets.forEach((inset, i) => {
    const x = style.padPx + (i % perRow) * (cellW + style.padPx);
    const y = gridTop + Math.floor(i / perRow) * cellH;
    const bw = badgeWidth(inset.no, style);
    svg += badge(inset.no, x + bw / 2, y + style.lineHeightPx / 2, 'warning', style);
    svg += textElement(
      fitText(inset.code, style.textCapPx, cellW - bw - 10),
      x + bw + 10,
      textY(y),
      style.textCapPx,
      style.inkColour,
    );
    const boxY = y + style.lineHeightPx;
    const afterX = x + s + style.insetGapPx;
    crops.push({ inset, left: x, top: boxY, afterLeft: afterX });
    svg += cutView(inset, geometry, cuts, afterX, boxY, s);
    const ringR = Math.max(style.minRingPx, (inset.mm.r * s) / inset.windowMm + 2 * style.ringGapPx);
    for (const left of [x, afterX]) {
      const mark = ring(left + s / 2, boxY + s / 2, ringR, 'warning', style, 2.5);
      svg += mark.halo + mark.stroke;
      svg += `<rect x="${left + 0.5}" y="${boxY + 0.5}" width="${s - 1}" height="${s - 1}" fill="none" stroke="${style.frameColour}" stroke-width="1"/>`;
    }
    const ax = x + s + 8;
    const ay = boxY + s / 2;
    const aw = style.insetGapPx - 16;
    svg += `<path d="M${ax} ${ay}H${ax + aw}M${ax + aw - 8} ${ay - 7}L${ax + aw} ${ay}L${ax + aw - 8} ${ay + 7}" fill="none" stroke="${style.inkColour}" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>`;
    const caption = (text: string, left: number): string =>
      textElement(
        text,
        left + (s - textWidth(text, style.textCapPx)) / 2,
        textY(boxY + s),
        style.textCapPx,
        style.mutedColour,
      );
    svg += caption('DRAWN', x) + caption('CUT', afterX);
  });

  let height = gridTop - top + Math.ceil(insets.length / perRow) * cellH;
  if (more > 0) {
    const words = fitText(`${more} MORE CHANGED PLACES ARE CIRCLED ABOVE BUT NOT SHOWN HERE.`, style.textCapPx, inner);
    svg += textElement(words, style.padPx, textY(top + height), style.textCapPx, style.mutedColour);
    height += style.lineHeightPx;
  }
  return { svg, height: height + style.padPx / 2, crops };
}

/**
 * The drawing's square for one inset: the window's millimetres on the copy (`scale`), white
 * where it runs past the copy, enlarged to the inset's size with nearest-neighbour sampling so
 * the drawing's own pixels show as drawn.
 */
export async function beforeCrop(copy: CopyView, scale: CopyScale, inset: Inset, size: number): Promise<Buffer> {
  const cw = Math.max(1, Math.round(inset.windowMm * scale.sx));
  const ch = Math.max(1, Math.round(inset.windowMm * scale.sy));
  const left = Math.round(inset.at.x - cw / 2);
  const top = Math.round(inset.at.y - ch / 2);
  const window = new Uint8Array(cw * ch).fill(255);
  for (let y = 0; y < ch; y++) {
    const sy = top + y;
    if (sy < 0 || sy >= copy.h) continue;
    const from = Math.max(0, left);
    const to = Math.min(copy.w, left + cw);
    if (from >= to) continue;
    window.set(copy.lum.subarray(sy * copy.w + from, sy * copy.w + to), y * cw + (from - left));
  }
  return sharp(window, { raw: { width: cw, height: ch, channels: 1 } })
    .resize(size, size, { fit: 'fill', kernel: 'nearest' })
    .png()
    .toBuffer();
}
