import { componentBoxes, labelAt, labelComponents, type ComponentBox, type Labels } from '../raster/components.ts';
import { copyOf, giveMasks, takeMask } from '../raster/mask-pool.ts';
import { depthForWidth, discReach, floorDepth, intersectInto, invert, minusInto } from '../raster/morphology.ts';
import type { StripRaster } from '../raster/raster.ts';
import { BETWEEN, classifyResidue, extentOf, TIP } from './residue-kinds.ts';
import { pipelineTolerances } from '../tolerances.ts';

/** How each air region of the strip measures against the minimum opening. */
export interface AirSurvey {
  air: ReturnType<typeof labelComponents>;
  boxes: ComponentBox[];
  /** Per air region: 'edge' (touches the strip edge: cut away), or an opening's verdict. */
  verdict: ('edge' | 'fine' | 'narrow' | 'pinched')[];
  /**
   * Air narrower than the floor that can be filled without changing what an opening is: tips,
   * and slivers along the strip edge. Never a narrow place joining two wide parts of an opening.
   */
  residue: Uint8Array;
  /** Residue components that join two wide parts of one opening: where a slot is pinched. */
  pinches: ComponentBox[];
  /**
   * Dead ends of residue in openings spanning more than `airPointNoticeMm`: sharp points the fill
   * takes off visibly (a star's arms), to be named by a warning; each with its air region.
   */
  sharpPoints: { box: ComponentBox; region: number }[];
}

/**
 * Measures each opening by what a disc as wide as the minimum opening reaches in it, two ways.
 *
 * With the raster's pixel of margin (`depthForWidth`: at least 0.25 mm at 0.05 mm a pixel), an
 * opening the disc does not reach at all is narrower than the floor everywhere: `narrow`, filled
 * whole. Along the strip edge, the air it does not reach is a sliver, absorbed. Inside the openings,
 * a dead end it does not reach (a corner, a point) is filled whole when some of it is narrower than
 * the floor itself: the margin leaves the tracer room to cut the rest.
 *
 * The floor's own disc (`floorDepth`) says what is under the floor: a narrow place joining two
 * parts it reaches is a pinch (`pinched`, refused at `pinches`), and a dead end of what it leaves
 * out is a tip, filled, also inside a stretch the margin would take whole. The margin alone took
 * too much there: a slit drawn 0.23 mm wide is narrower than it everywhere, so its rim lost a pixel
 * to the fill and a slit that ends in a sharp corner read as one long narrow arm, refused as drawn.
 * A narrow stretch closing a ring round metal, or a dead end longer than any corner, was drawn and
 * is left for the final check, which measures the cutting file exactly; so is air between the two
 * discs' widths. An opening is `fine` otherwise.
 */
export function surveyAir(raster: StripRaster, minOpeningMm: number): AirSurvey {
  const { w, h } = raster;
  const airMask = invert(raster.data);
  const air = labelComponents(airMask, w, h, 4);
  const widthPx = minOpeningMm / Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const px = Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const tipExtentPx = pipelineTolerances.airTipExtentMm / px;
  const margin = depthForWidth(widthPx);
  const marginReached = discReach(airMask, w, h, margin, false);
  const marginWide = labelComponents(marginReached, w, h, 4);
  // The margin decides only what is narrow everywhere: a pinch is what the floor's own disc finds.
  const verdict: AirSurvey['verdict'] = verdicts(air, marginWide).map((v) => (v === 'pinched' ? 'fine' : v));
  const strict = floorDepth(widthPx);
  const reached = strict < margin ? discReach(airMask, w, h, strict, false) : marginReached;
  const wide = strict < margin ? labelComponents(reached, w, h, 4) : marginWide;
  // Each reach, once labelled, is needed only as the air it misses: made so in place.
  const under = minusInto(airMask, reached, reached);
  const slivers = reached === marginReached ? under : minusInto(airMask, marginReached, marginReached);

  const pinches: ComponentBox[] = [];
  // Only an opening the floor's disc reaches in two parts or more can be pinched (most have one).
  // Its wide parts are what the floor's disc reaches where the margin's does too: a spot the floor's
  // disc alone reaches, in a tapering point or a slit, is no wide part of its own, and a narrow
  // stretch between it and the opening is not a pinch.
  if (verdicts(air, wide).includes('pinched')) {
    const bulk = bulkOf(wide, marginWide, w * h);
    const beyond = classifyResidue(minusInto(airMask, bulk.mask, bulk.mask), bulk.labels, w, h, tipExtentPx);
    giveMasks(bulk.mask);
    for (let k = 1; k <= beyond.parts.count; k++) {
      if (beyond.kind[k] !== BETWEEN) continue;
      const region = labelAt(air, beyond.parts.first[k]!);
      if (verdict[region] === 'edge' || verdict[region] === 'narrow') continue;
      pinches.push(beyond.boxes[k]!);
      verdict[region] = 'pinched';
    }
  }
  // The margin's dead ends are filled whole when some of them is under the floor (a corner, a
  // point: the margin leaves the tracer room to cut the rest), not when all of them is cut as drawn
  // (a pixel along the rim of a slit drawn 0.23 mm wide); inside the margin's long arms and loops
  // (a slit), the dead ends under the floor (the corner the slit ends in).
  const outer = classifyResidue(slivers, marginWide, w, h, tipExtentPx);
  const holdsUnder = new Uint8Array(outer.parts.count + 1);
  forEachRun(outer.parts, (k, from, to) => {
    if (!holdsUnder[k] && under.subarray(from, to).includes(1)) holdsUnder[k] = 1;
  });
  // The air mask is not read again: its memory becomes the residue.
  const residue = airMask.fill(0);
  forEachRun(outer.parts, (k, from, to) => {
    if (outer.kind[k] === TIP && holdsUnder[k]) residue.fill(1, from, to);
  });
  // What is under the floor inside the margin's arms and loops (each piece of it lies in one): made
  // from `under` in place, which nothing reads after this, unless it is `slivers` too.
  const inArms = under === slivers ? copyOf(under) : intersectInto(under, slivers);
  forEachRun(outer.parts, (k, from, to) => {
    if (outer.kind[k] === TIP) inArms.fill(0, from, to);
  });
  if (inArms.includes(1)) {
    const inner = classifyResidue(inArms, wide, w, h, tipExtentPx);
    forEachRun(inner.parts, (k, from, to) => {
      if (inner.kind[k] === TIP) residue.fill(1, from, to);
    });
  }
  // Along the strip edge, every sliver; in narrow openings nothing (they are filled whole).
  forEachRun(air, (k, from, to) => {
    if (verdict[k] === 'edge') residue.set(slivers.subarray(from, to), from);
    else if (verdict[k] === 'narrow') residue.fill(0, from, to);
  });
  // The reaches' masks, made the air they miss and read since, are read no more.
  giveMasks(inArms, slivers);
  return {
    air,
    boxes: componentBoxes(air, w),
    verdict,
    residue,
    pinches,
    sharpPoints: sharpPoints(air, verdict, residue, w, h, px),
  };
}

/**
 * The filled dead ends in openings spanning more than `airPointNoticeMm`, or larger than
 * `airFillNoticeMm2` (a deep crevice between a letter and a window's frame): past the final check's
 * own allowance for a corner, the fill shows (a star's arms), so a warning names them.
 */
function sharpPoints(
  air: Labels,
  verdict: AirSurvey['verdict'],
  residue: Uint8Array,
  w: number,
  h: number,
  px: number,
): AirSurvey['sharpPoints'] {
  const filled = labelComponents(residue, w, h, 4);
  const boxes = componentBoxes(filled, w);
  const noticePx = pipelineTolerances.airPointNoticeMm / px;
  const noticeAreaPx = pipelineTolerances.airFillNoticeMm2 / (px * px);
  const points: AirSurvey['sharpPoints'] = [];
  for (let k = 1; k <= filled.count; k++) {
    const region = labelAt(air, filled.first[k]!);
    if (verdict[region] === 'edge') continue;
    if (extentOf(boxes[k]!) > noticePx || filled.size[k]! > noticeAreaPx) points.push({ box: boxes[k]!, region });
  }
  return points;
}

/** The components of `wide` holding some of `marginWide` (each of whose components lies in one of them), as a mask and labels. */
function bulkOf(wide: Labels, marginWide: Labels, size: number): { mask: Uint8Array; labels: Labels } {
  const held = new Uint8Array(wide.count + 1);
  for (let k = 1; k <= marginWide.count; k++) held[labelAt(wide, marginWide.first[k]!)] = 1;
  const mask = takeMask(size);
  forEachRun(wide, (k, from, to) => {
    if (held[k]) mask.fill(1, from, to);
  });
  return { mask, labels: labelComponents(mask, wide.w, Math.floor(size / wide.w), 4) };
}

/** Calls `each` with the label and [from, to) of every run of a labelling. */
function forEachRun(labels: Labels, each: (k: number, from: number, to: number) => void): void {
  const { start, end, label } = labels.runs;
  for (let r = 0; r < label.length; r++) each(label[r]!, start[r]!, end[r]!);
}

/** Whether an opening's verdict puts it under the floor somewhere (narrower everywhere, or pinched). */
export const underFloor = (verdict: AirSurvey['verdict'][number]): boolean =>
  verdict === 'narrow' || verdict === 'pinched';

/** Per air region: 'edge', or how many parts of it the disc reaches (`wide`) (none: narrow, two or more: pinched). */
function verdicts(air: Labels, wide: Labels): AirSurvey['verdict'] {
  const partsPerRegion = new Int32Array(air.count + 1);
  for (let k = 1; k <= wide.count; k++) partsPerRegion[labelAt(air, wide.first[k]!)]!++;
  const verdict: AirSurvey['verdict'] = ['edge'];
  for (let k = 1; k <= air.count; k++) {
    if (air.touchesBorder[k]) verdict.push('edge');
    else if (partsPerRegion[k] === 0) verdict.push('narrow');
    else if (partsPerRegion[k]! >= 2) verdict.push('pinched');
    else verdict.push('fine');
  }
  return verdict;
}

/** Turns the given air pixels into metal, in place. */
export function fill(raster: StripRaster, pixels: Uint8Array): void {
  const data = raster.data;
  // Both are 0/1 bytes: OR four at a time where the memory allows.
  const words = data.byteOffset % 4 === 0 && pixels.byteOffset % 4 === 0 ? data.length >> 2 : 0;
  if (words > 0) {
    const to = new Uint32Array(data.buffer, data.byteOffset, words);
    const from = new Uint32Array(pixels.buffer, pixels.byteOffset, words);
    for (let q = 0; q < words; q++) if (from[q]) to[q]! |= from[q]!;
  }
  for (let i = words * 4; i < pixels.length; i++) if (pixels[i]) data[i] = 1;
}

/** Fills whole air regions by label, in place. */
export function fillRegions(raster: StripRaster, labels: Labels, which: Uint8Array): void {
  const { start, end, label } = labels.runs;
  for (let r = 0; r < label.length; r++) if (which[label[r]!]) raster.data.fill(1, start[r]!, end[r]!);
}
