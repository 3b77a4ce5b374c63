import { componentBoxes, labelAt, labelComponents, type ComponentBox, type Labels } from './labels.ts';
import { depthForWidth, invert, minus, discReach } from './morphology.ts';
import type { StripRaster } from './raster.ts';
import { pipelineTolerances } from './tolerances.ts';

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
 * Measures each opening by what a disc as wide as the minimum opening reaches in it. An opening
 * it does not reach is narrower than the floor everywhere; one it reaches in two or more parts is
 * pinched somewhere; otherwise only its tips are narrower, which the laser rounds anyway.
 *
 * The disc keeps the raster's pixel of margin (see `depthForWidth`), which on a curve can take an
 * opening of 0.3 mm for a pinch. So a pinch is confirmed by a disc exactly as wide as the floor:
 * only then is the opening `pinched`. An unconfirmed one is left alone (its narrow place is not in
 * `residue`, so nothing fills it) and the final check of the cutting file measures it exactly.
 */
export function surveyAir(raster: StripRaster, minOpeningMm: number): AirSurvey {
  const { w, h } = raster;
  const airMask = invert(raster.data);
  const air = labelComponents(airMask, w, h, 4);
  const widthPx = minOpeningMm / Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const reached = discReach(airMask, w, h, depthForWidth(widthPx), false);
  const wide = labelComponents(reached, w, h, 4);
  const verdict = verdicts(air, wide);
  const residue = minus(airMask, reached);
  const px = Math.min(raster.mmPerPxX, raster.mmPerPxY);
  const { kept: joins, points } = keptResidue(
    residue,
    wide,
    w,
    h,
    pipelineTolerances.airTipExtentMm / px,
    pipelineTolerances.airPointNoticeMm / px,
  );
  const strict = floorDepth(widthPx);
  if (verdict.includes('pinched') && strict < depthForWidth(widthPx)) {
    const confirmed = verdicts(air, labelComponents(discReach(airMask, w, h, strict, false), w, h, 4));
    for (let k = 1; k <= air.count; k++)
      if (verdict[k] === 'pinched' && confirmed[k] !== 'pinched') verdict[k] = 'fine';
  }
  // Only dead ends are filled: a narrow place joining wide air is a pinch (refused) or left for
  // the final check, and so is a long narrow arm (it is drawn, not a corner). Along the strip edge
  // slivers are absorbed, joining or not.
  const pinches: ComponentBox[] = [];
  for (const join of joins) {
    const region = verdict[labelAt(air, join.pixel)]!;
    if (region === 'edge') continue;
    for (let r = 0; r < join.runs.length; r += 2) residue.fill(0, join.runs[r]!, join.runs[r + 1]!);
    if (region === 'pinched' && join.kind === 'between') pinches.push(join.box);
  }
  const sharpPoints = points
    .map((point) => ({ box: point.box, region: labelAt(air, point.pixel) }))
    .filter((point) => verdict[point.region] !== 'edge' && verdict[point.region] !== 'narrow');
  return { air, boxes: componentBoxes(air, w), verdict, residue, pinches, sharpPoints };
}

/** Whether an opening's verdict puts it under the floor somewhere (narrower everywhere, or pinched). */
export const underFloor = (verdict: AirSurvey['verdict'][number]): boolean =>
  verdict === 'narrow' || verdict === 'pinched';

/**
 * The depth a band exactly `widthPx` wide reaches: a disc no wider than the floor itself, without
 * the pixel of margin of `depthForWidth` (a band W pixels wide has its deepest centre floor((W+1)/2)
 * from the outside). A width within a quarter pixel over a whole number of pixels counts as that
 * number: resampling puts a drawn 0.2 mm slot on 4 pixels of 0.04999 mm, and the final check
 * measures it exactly anyway.
 */
const floorDepth = (widthPx: number): number => Math.max(1, Math.floor((Math.ceil(widthPx - 0.25) + 1) / 2));

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

/**
 * A residue component that is not a dead end of an opening's wide air, so not filled: it joins two
 * or more distinct wide parts (`between`: where a slot is pinched), or one wide part at two separate
 * stretches (`loop`: a narrow stretch of a ring-shaped opening, closing it round the metal inside),
 * or it is a dead end reaching farther than any corner does (`arm`: a narrow arm drawn so).
 */
interface Join {
  kind: 'between' | 'loop' | 'arm';
  box: ComponentBox;
  /** One of its pixels, and its runs as [start, end) pairs of raster indices. */
  pixel: number;
  runs: number[];
}

/**
 * The residue components that are no corner's tip (see `Join`), and the tips spanning more than
 * `noticePx` (`points`). A corner's tip lies within `tipExtentPx` across its box: the residue of a
 * 10° corner reaches about 1.3 mm past the disc.
 */
function keptResidue(
  residue: Uint8Array,
  wide: Labels,
  w: number,
  h: number,
  tipExtentPx: number,
  noticePx: number,
): { kept: Join[]; points: { box: ComponentBox; pixel: number }[] } {
  const parts = labelComponents(residue, w, h, 4);
  const firstNeighbour = new Int32Array(parts.count + 1);
  const joins = new Uint8Array(parts.count + 1);
  // The residue pixels beside wide air, with their component: a dead end meets it along one stretch.
  const contacts: number[] = [];
  const contactLabels: number[] = [];
  const meet = (k: number, other: number): boolean => {
    if (!other) return false;
    if (!firstNeighbour[k]) firstNeighbour[k] = other;
    else if (firstNeighbour[k] !== other) joins[k] = BETWEEN;
    return true;
  };
  const { start, end, label } = parts.runs;
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    const y = Math.floor(start[r]! / w);
    for (let i = start[r]!; i < end[r]! && !joins[k]; i++) {
      const x = i - y * w;
      let touches = false;
      if (x > 0) touches = meet(k, labelAt(wide, i - 1)) || touches;
      if (x < w - 1) touches = meet(k, labelAt(wide, i + 1)) || touches;
      if (y > 0) touches = meet(k, labelAt(wide, i - w)) || touches;
      if (y < h - 1) touches = meet(k, labelAt(wide, i + w)) || touches;
      if (touches) {
        contacts.push(i);
        contactLabels.push(k);
      }
    }
  }
  markLoops(contacts, contactLabels, joins, w);
  const boxes = componentBoxes(parts, w);
  const points: { box: ComponentBox; pixel: number }[] = [];
  for (let k = 1; k <= parts.count; k++) {
    const box = boxes[k]!;
    if (joins[k]) continue;
    const extent = Math.hypot(box.x1 - box.x0 + 1, box.y1 - box.y0 + 1);
    if (extent > tipExtentPx) joins[k] = ARM;
    else if (extent > noticePx) points.push({ box, pixel: parts.first[k]! });
  }
  const byLabel = new Map<number, Join>();
  for (let r = 0; r < label.length; r++) {
    const k = label[r]!;
    if (!joins[k]) continue;
    let join = byLabel.get(k);
    if (!join) byLabel.set(k, (join = { kind: KINDS[joins[k]!]!, box: boxes[k]!, pixel: start[r]!, runs: [] }));
    join.runs.push(start[r]!, end[r]!);
  }
  return { kept: [...byLabel.values()], points };
}

const BETWEEN = 1;
const LOOP = 2;
const ARM = 3;
const KINDS = [undefined, 'between', 'loop', 'arm'] as const;

/**
 * Marks in `joins` as loops the components whose contact pixels with the wide air fall into two or
 * more separate stretches (8-connected). Union-find over the contact pixels; they are few (the edges
 * of tips and slivers), so a map from pixel to slot serves.
 */
function markLoops(contacts: number[], labels: number[], joins: Uint8Array, w: number): void {
  const slot = new Map<number, number>();
  for (let t = 0; t < contacts.length; t++) slot.set(contacts[t]!, t);
  const parent = Int32Array.from(contacts, (_, t) => t);
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
    return a;
  };
  for (let t = 0; t < contacts.length; t++) {
    const i = contacts[t]!;
    const x = i % w;
    // Four of the eight neighbours suffice: each pair is met from its other pixel too.
    for (const q of [x > 0 ? i - w - 1 : -1, i - w, x < w - 1 ? i - w + 1 : -1, x > 0 ? i - 1 : -1]) {
      const other = q < 0 ? undefined : slot.get(q);
      if (other !== undefined && labels[other] === labels[t]) parent[find(other)] = find(t);
    }
  }
  const stretchOf = new Map<number, number>();
  for (let t = 0; t < contacts.length; t++) {
    const k = labels[t]!;
    if (joins[k]) continue;
    const root = find(t);
    const seen = stretchOf.get(k);
    if (seen === undefined) stretchOf.set(k, root);
    else if (seen !== root) joins[k] = LOOP;
  }
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
