/**
 * Reading the piece pictures back (test helper): decoded pixels, what colour a pixel is (brass,
 * the page's paper, ink), and where a point of the blank lands on the worn picture by the
 * geometry of a bent strip, computed here from the definition and not from the code that
 * drew it. Only the picture's declared frame (its scale and the axis's place) comes from the layout.
 */
import { STYLES } from '../../web/styles.ts';
import { decodeRgb, type Rgb } from './picture.ts';

export type { Rgb };
export { decodeRgb };

/** The page's frame around the pictures (`.piece-frame` in the stylesheet): openings must show it. */
export function pageFrameColour(): [number, number, number] {
  const rule = /\.piece-frame\{[^}]*background:#([0-9a-f]{6})/.exec(STYLES);
  if (!rule) throw new Error('no .piece-frame background in STYLES');
  const hex = rule[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

export function rgbAt(img: Rgb, x: number, y: number): [number, number, number] {
  const i = (Math.round(y) * img.width + Math.round(x)) * 3;
  return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
}

/** Hue in degrees, saturation and value (0..1). */
export function hsv([r, g, b]: readonly number[]): { h: number; s: number; v: number } {
  const max = Math.max(r!, g!, b!);
  const min = Math.min(r!, g!, b!);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = (((g! - b!) / d) % 6) * 60;
    else if (max === g) h = ((b! - r!) / d + 2) * 60;
    else h = ((r! - g!) / d + 4) * 60;
  }
  return { h: (h + 360) % 360, s: max === 0 ? 0 : d / max, v: max / 255 };
}

/** Brass in any light: a yellow-orange hue, clearly saturated, not black. Grey, paper, ink and shadow are not. */
export function isBrass(rgb: readonly number[]): boolean {
  const { h, s, v } = hsv(rgb);
  return h >= 25 && h <= 55 && s >= 0.3 && v >= 0.2;
}

export const colourDistance = (a: readonly number[], b: readonly number[]): number =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Within a few levels of `colour` on every channel. */
export const isColour = (rgb: readonly number[], colour: readonly number[], slack = 4): boolean =>
  rgb.every((c, i) => Math.abs(c - colour[i]!) <= slack);

/** Dark and grey: the ruler's ink. */
export const isInk = (rgb: readonly number[]): boolean => hsv(rgb).v < 0.35 && hsv(rgb).s < 0.25;

/** The columns (inclusive) holding any pixel for which `test` holds, or undefined. */
export function columnsWhere(img: Rgb, test: (rgb: [number, number, number]) => boolean): [number, number] | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (x > first && x < last) continue;
      if (test(rgbAt(img, x, y))) {
        first = Math.min(first, x);
        last = Math.max(last, x);
      }
    }
  }
  return first === Infinity ? undefined : [first, last];
}

/** The worn picture's frame as its layout declares it: pixels per millimetre and the axis's middle. */
export interface WornFrame {
  pxPerMm: number;
  cx: number;
  cy: number;
}

/**
 * The bent strip by the definition: the blank (length L, width W, thickness t) bent round
 * its neutral axis, whose circle's circumference is L + gap (L for the closed ring); the blank's
 * gap's middle at the configured azimuth (0 facing the eye, 180° straight away) and the blank's
 * middle opposite it; the axis upright, the eye `elevationDeg` above the middle plane, looking
 * straight at it (orthographic).
 */
export class BentStrip {
  readonly lengthMm: number;
  readonly widthMm: number;
  readonly gapMm: number;
  readonly thicknessMm: number;
  readonly frame: WornFrame;
  readonly radiusMm: number;
  private readonly gapAzimuthDeg: number;
  private readonly sinE: number;
  private readonly cosE: number;

  constructor(
    blank: { lengthMm: number; widthMm: number; gapMm: number; thicknessMm: number },
    view: { elevationDeg: number; gapAzimuthDeg: number },
    frame: WornFrame,
  ) {
    ({ lengthMm: this.lengthMm, widthMm: this.widthMm, gapMm: this.gapMm, thicknessMm: this.thicknessMm } = blank);
    this.frame = frame;
    this.gapAzimuthDeg = view.gapAzimuthDeg;
    this.radiusMm = (blank.lengthMm + blank.gapMm) / (2 * Math.PI);
    this.sinE = Math.sin((view.elevationDeg * Math.PI) / 180);
    this.cosE = Math.cos((view.elevationDeg * Math.PI) / 180);
  }

  /** Azimuth of a point u mm along the blank (0 faces the eye, positive to the right). */
  azimuth(u: number): number {
    return (this.gapAzimuthDeg * Math.PI) / 180 - Math.PI + (u - this.lengthMm / 2) / this.radiusMm;
  }

  /** Azimuth of the gap's middle. */
  get gapAzimuth(): number {
    return (this.gapAzimuthDeg * Math.PI) / 180;
  }

  /** Where the point at azimuth θ, v mm down from the top edge, at radius ρ lands on the picture. */
  project(theta: number, v: number, rho: number): { x: number; y: number } {
    const { pxPerMm: s, cx, cy } = this.frame;
    return {
      x: cx + s * rho * Math.sin(theta),
      y: cy + s * ((v - this.widthMm / 2) * this.cosE + rho * Math.cos(theta) * this.sinE),
    };
  }

  /** The outer face's radius: half the sheet outside the neutral circle. */
  get outerMm(): number {
    return this.radiusMm + this.thicknessMm / 2;
  }

  /**
   * Whether a picture point lies on the near wall as the eye sees it: between its top rim (the
   * sheet's thickness shows there) and its bottom edge, at the point's x.
   */
  onNearWall(x: number, y: number, marginPx: number): boolean {
    const { pxPerMm: s, cx, cy } = this.frame;
    const across = (x - cx) / (s * this.outerMm);
    if (Math.abs(across) >= 1) return false;
    const depth = Math.sqrt(1 - across * across);
    const top = cy + s * (-(this.widthMm / 2) * this.cosE + (this.outerMm - this.thicknessMm) * depth * this.sinE);
    const bottom = cy + s * ((this.widthMm / 2) * this.cosE + this.outerMm * depth * this.sinE);
    return y >= top - marginPx && y <= bottom + marginPx;
  }
}
