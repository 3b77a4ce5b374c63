import type { Finding } from '../../contract/finding.ts';
import { finding, type FindingContext } from '../findings/wording.ts';
import type { Luminance } from './decode.ts';

/** Decisions §4 and §7: metal below 128, ink below 192, mid-grey 64..191. */
export const METAL_BELOW = 128;
const INK_BELOW = 192;
const MID_GREY_FROM = 64;

interface Classified {
  /** 1 where the drawing is metal. */
  metal: Uint8Array;
  metalCount: number;
  warnings: Finding[];
  /** A finding that ends the analysis (no design to work with). */
  fatal?: Finding;
}

interface ClassifyOptions {
  midGreyShare: number;
  edgeShare: number;
  fullBleedShare: number;
  allInkShare: number;
}

export const classifyDefaults: ClassifyOptions = {
  midGreyShare: 0.05,
  edgeShare: 0.5,
  fullBleedShare: 0.95,
  allInkShare: 0.98,
};

/** Thresholds the drawing and reads what decisions §4 step 1 asks of it. */
export function classify(image: Luminance, options: ClassifyOptions, ctx: FindingContext): Classified {
  const { w, h, lum } = image;
  const metal = new Uint8Array(w * h);
  let metalCount = 0;
  let ink = 0;
  let midGrey = 0;
  for (let i = 0; i < lum.length; i++) {
    const v = lum[i]!;
    if (v < METAL_BELOW) {
      metal[i] = 1;
      metalCount++;
    }
    if (v < INK_BELOW) {
      ink++;
      if (v >= MID_GREY_FROM) midGrey++;
    }
  }
  const warnings: Finding[] = [];
  if (metalCount === 0)
    return { metal, metalCount, warnings, fatal: finding('NO_DESIGN_FOUND', { cause: 'white' }, ctx) };
  if (metalCount >= options.allInkShare * w * h) {
    return { metal, metalCount, warnings, fatal: finding('NO_DESIGN_FOUND', { cause: 'black' }, ctx) };
  }
  const borders = borderShares(metal, w, h);
  if (borders.every((share) => share >= options.fullBleedShare)) {
    return { metal, metalCount, warnings, fatal: finding('NO_DESIGN_FOUND', { cause: 'bleed' }, ctx) };
  }
  if (ink > 0 && midGrey / ink >= options.midGreyShare) {
    warnings.push(finding('NOT_TWO_TONE', { share: midGrey / ink }, ctx));
  }
  const names = ['top', 'bottom', 'left', 'right'] as const;
  const touched = names.filter((_, i) => borders[i]! >= options.edgeShare);
  if (touched.length > 0) warnings.push(finding('DESIGN_TOUCHES_EDGE', { borders: touched }, ctx));
  return { metal, metalCount, warnings };
}

/** Share of metal along the top, bottom, left and right borders. */
function borderShares(metal: Uint8Array, w: number, h: number): number[] {
  let top = 0;
  let bottom = 0;
  let left = 0;
  let right = 0;
  for (let x = 0; x < w; x++) {
    top += metal[x]!;
    bottom += metal[(h - 1) * w + x]!;
  }
  for (let y = 0; y < h; y++) {
    left += metal[y * w]!;
    right += metal[y * w + w - 1]!;
  }
  return [top / w, bottom / w, left / h, right / h];
}
