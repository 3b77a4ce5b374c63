import type { Config, ProductType } from '../config.ts';
import { labelWidth } from './numerals.ts';

/** What a piece's pictures are drawn from besides its cutting file: the blank and how it is worn. */
export interface PieceShape {
  productType: ProductType;
  lengthMm: number;
  widthMm: number;
  /** The cuff's opening; a ring is closed whatever this says. */
  gapMm: number;
  thicknessMm: number;
}

export type PictureKind = 'flat' | 'worn';
export const pictureKinds = ['flat', 'worn'] as const satisfies readonly PictureKind[];

export interface PictureSize {
  width: number;
  height: number;
}

type PicturesConfig = Config['pictures'];

/** A length as the pictures write it: at most one decimal, as the pages do. */
export const mmText = (value: number): string => `${Math.round(value * 10) / 10} mm`;

/**
 * Where everything on the flat picture goes, in its pixels: the strip at (left, top) drawn at
 * `pxPerMm`, the ruler's baseline under it, the width mark to its right.
 */
export interface FlatLayout extends PictureSize {
  pxPerMm: number;
  left: number;
  top: number;
  capPx: number;
  rulerY: number;
  /** The width mark: a bracket at x, its label read along it (rotated) when the strip is tall enough. */
  widthMark: { x: number; label: string; rotated: boolean };
}

/** The ruler under the strip, in capital heights: gap, longest tick, gap, digits. */
const RULER_CAPS = { gap: 0.5, longTick: 0.9, labelGap: 0.35 };
const rulerHeight = (cap: number): number => cap * (RULER_CAPS.gap + RULER_CAPS.longTick + RULER_CAPS.labelGap + 1);

/** The flat picture's layout: as large as the configured box allows, the ruler and width mark included. */
export function flatLayout(piece: PieceShape, config: PicturesConfig): FlatLayout {
  const { maxWidthPx, maxHeightPx, marginPx, labelCapPx: cap } = config.flat;
  const label = mmText(piece.widthMm);
  const textWidth = labelWidth(label, cap);
  const bracket = cap * 0.5 + cap * 0.35;
  // The unit after the ruler's end and half the last number share the right-hand column.
  const rulerEnd = labelWidth('mm', cap) + cap * 0.6 + labelWidth('000', cap) / 2;
  const column = (rotated: boolean) => Math.max(rulerEnd, bracket + cap * 0.4 + (rotated ? cap : textWidth));
  const fit = (right: number) =>
    Math.min(
      (maxWidthPx - 2 * marginPx - right) / piece.lengthMm,
      (maxHeightPx - 2 * marginPx - rulerHeight(cap)) / piece.widthMm,
    );
  let rotated = true;
  let pxPerMm = fit(column(true));
  if (piece.widthMm * pxPerMm < textWidth + cap) {
    rotated = false;
    pxPerMm = fit(column(false));
  }
  const left = marginPx;
  const top = marginPx;
  const stripRight = left + piece.lengthMm * pxPerMm;
  const stripBottom = top + piece.widthMm * pxPerMm;
  return {
    width: Math.ceil(stripRight + column(rotated) + marginPx),
    height: Math.ceil(stripBottom + rulerHeight(cap) + marginPx),
    pxPerMm,
    left,
    top,
    capPx: cap,
    rulerY: stripBottom + cap * RULER_CAPS.gap,
    widthMark: { x: stripRight + cap * 0.5, label, rotated },
  };
}

export const rulerCaps = RULER_CAPS;

/**
 * The bent piece: a cylinder of neutral radius `radiusMm` (the blank's length plus the gap is its
 * circumference at mid-thickness), its outer and inner faces half the thickness either side, the
 * axis upright on the picture and the eye `elevation` above the middle plane (orthographic). The
 * centre of the axis is at (cx, cy) in pixels.
 */
export interface WornLayout extends PictureSize {
  pxPerMm: number;
  cx: number;
  cy: number;
  radiusMm: number;
  outerMm: number;
  innerMm: number;
  gapMm: number;
  elevation: number;
  /** Azimuth of the gap's middle, radians; 0 faces the eye, positive turns to the right. */
  gapAzimuth: number;
}

/** The ground shadow reaches this much further than the bottom rim, in outer radii (sin e). */
const SHADOW_REACH = 0.3;

/** The worn picture's layout: the whole piece and its ground shadow in the configured box. */
export function wornLayout(piece: PieceShape, config: PicturesConfig): WornLayout {
  const { maxWidthPx, maxHeightPx, marginPx, elevationDeg, gapAzimuthDeg } = config.worn;
  const gapMm = piece.productType === 'ring' ? 0 : piece.gapMm;
  const radiusMm = (piece.lengthMm + gapMm) / (2 * Math.PI);
  // A thickness past most of the radius would turn the inner face inside out; no real piece has one.
  const half = Math.min(piece.thicknessMm / 2, radiusMm * 0.3);
  const outerMm = radiusMm + half;
  const elevation = (elevationDeg * Math.PI) / 180;
  const sin = Math.sin(elevation);
  const halfBand = (piece.widthMm / 2) * Math.cos(elevation);
  const above = halfBand + outerMm * sin;
  const below = halfBand + outerMm * sin * (1 + SHADOW_REACH);
  const pxPerMm = Math.min((maxWidthPx - 2 * marginPx) / (2 * outerMm), (maxHeightPx - 2 * marginPx) / (above + below));
  return {
    width: Math.ceil(2 * outerMm * pxPerMm + 2 * marginPx),
    height: Math.ceil((above + below) * pxPerMm + 2 * marginPx),
    pxPerMm,
    cx: marginPx + outerMm * pxPerMm,
    cy: marginPx + above * pxPerMm,
    radiusMm,
    outerMm,
    innerMm: radiusMm - half,
    gapMm,
    elevation,
    gapAzimuth: (gapAzimuthDeg * Math.PI) / 180,
  };
}

/** Both pictures' sizes, known before either is drawn: the page gives its images their size. */
export function piecePictureSizes(piece: PieceShape, config: PicturesConfig): Record<PictureKind, PictureSize> {
  const flat = flatLayout(piece, config);
  const worn = wornLayout(piece, config);
  return { flat: { width: flat.width, height: flat.height }, worn: { width: worn.width, height: worn.height } };
}
