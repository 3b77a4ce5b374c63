/**
 * The house decisions a label is judged by, in one place (docs/pipeline.md, "Choices where the
 * contract is open" and the framing rules; decisions §4). Written out here rather than read from
 * `core/`: the labeller is an independent judge of the pipeline and must not move when it does.
 *
 * - **cuttable**: the faithful reference file passes the independent checker. Openings under the
 *   despeckle area do not count (the service fills them, with a warning).
 * - **repairable**: every defect is one the house repairs, each with the warning that names it:
 *   an opening narrower than the floor everywhere (filled, OPENING_REMOVED); a narrow dead end of
 *   an opening spanning at most `airTipExtentMm` (a tip or corner, filled and named), or a sliver
 *   of the air round the piece (filled along the outline); an island within `bridgeReachMm` of
 *   other metal whose `bridgeWidthMm` bridge leaves the opening at least the floor beside it
 *   (ISLAND_BRIDGED), or one farther away of at most `removableIslandMm2` (ISLAND_REMOVED);
 *   thin metal widened to `widenToMm` where the air beside it keeps the opening floor (half the
 *   missing width from each side, all of it from one side when the other is the strip edge;
 *   NECK_THICKENED); a hairline spur at most `spurMaxMm` wide that is a dead end (SPURS_SHAVED);
 *   a drawing stretched along its length by at most `maxStretch` (PROPORTION_MISMATCH warning).
 * - **unrepairable**: anything else: a pinched opening (wider on both sides of the narrow place),
 *   a narrow arm of an opening longer than a tip, thin metal without room, an island out of reach
 *   larger than `removableIslandMm2` or one whose bridge does not fit, more than
 *   `maxThinPlaces` thin places (refused as drawn), fine detail that is the bulk of the design
 *   (filling sub-floor openings and specks would remove more than `fineShare` of the open
 *   area), more than one piece, a proportion beyond `maxStretch`.
 * - **borderline**: a measure within the checker's tolerance of the number it is compared with.
 *   `floor`: the defect itself may not be there (the checker flags widths under floor − tol, so a
 *   flagged width of at least floor − 2·tol may be the floor itself; a tip's reach, a share, an
 *   island's size or gap at its limit): it never decides the label, the drawing gets the label it
 *   would get without it. `repair`: the defect is there but whether the house can repair it is
 *   too close to call (the room beside thin metal, a bridge's clearance): its verdict counts.
 *   Either way the design is flagged.
 */
import type { CutRules } from '../cut-check/types.ts';

export const HOUSE = {
  rules: { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1.0, maxOpeningTipMm: 0.3 } satisfies CutRules,
  /** Openings under this share of L × W are specks, filled. */
  despeckleAreaFraction: 0.0004,
  /** Refused as too fine when filling specks and narrow openings removes more than this share of the open area. */
  fineShare: 0.5,
  /** A narrow dead end of an opening spanning at most this is a tip or corner, filled. */
  airTipExtentMm: 1.5,
  bridgeReachMm: 3,
  bridgeWidthMm: 0.7,
  removableIslandMm2: 3,
  widenToMm: 0.7,
  spurMaxMm: 0.3,
  maxThinPlaces: 200,
  /** Within 5 % the proportions are kept; up to × 1.5 the drawing is stretched with a warning. */
  keepProportion: 1.05,
  maxStretch: 1.5,
} as const;

export type DefectKind =
  | 'narrow-opening'
  | 'opening-tip'
  | 'edge-sliver'
  | 'pinched-opening'
  | 'narrow-arm'
  | 'island'
  | 'thin-metal'
  | 'spur'
  | 'too-many-thin-places'
  | 'too-fine'
  | 'pieces'
  | 'proportion';

/** One place where the faithful file fails the checker, and what the house does about it. */
export interface Defect {
  kind: DefectKind;
  /** Where, on the strip, mm. */
  x: number;
  y: number;
  /** The width measured there, mm (null where a width means nothing: an island, a proportion). */
  widthMm: number | null;
  /** For a part that runs on from its place (a narrow arm, a tip, a thin part: placed at its end), how far, mm. */
  reachMm?: number;
  repairable: boolean;
  /** The repair the house makes (its warning), or why it cannot. */
  why: string;
  /** Too close to call (see the module comment): whether the defect exists, or whether it can be repaired. */
  borderline?: 'floor' | 'repair';
}

export type Label = 'cuttable' | 'repairable' | 'unrepairable';

/** What the service must answer a design: ready, refused, or either when a borderline defect could tip it. */
export type Answer = 'ready' | 'refused' | 'either';

/**
 * The label of a set of defects (those that may not be there, borderline at the floor, never
 * decide it), and the answer it calls for: the label's own, unless the borderline defects read
 * the other way (there after all; a repair too close to call not made) would call for the other.
 */
export function labelOf(defects: readonly Defect[]): { label: Label; borderline: boolean; answer: Answer } {
  const borderline = defects.some((d) => d.borderline !== undefined);
  const label = verdictOf(defects.filter((d) => d.borderline !== 'floor'));
  const optimistic = verdictOf(
    defects.filter((d) => d.borderline !== 'floor').map((d) => (d.borderline ? { ...d, repairable: true } : d)),
  );
  const pessimistic = verdictOf(defects.map((d) => (d.borderline === 'repair' ? { ...d, repairable: false } : d)));
  const ready = (l: Label): boolean => l !== 'unrepairable';
  const answer = ready(optimistic) !== ready(pessimistic) ? 'either' : ready(label) ? 'ready' : 'refused';
  return { label, borderline, answer };
}

function verdictOf(defects: readonly Defect[]): Label {
  if (defects.length === 0) return 'cuttable';
  return defects.every((d) => d.repairable) ? 'repairable' : 'unrepairable';
}

/** Whether `value` is within `tol` of `limit` (either side): too close to call on the checker's raster. */
export const near = (value: number, limit: number, tol: number): boolean => Math.abs(value - limit) <= tol;

/** The `borderline` field of a defect: `floor` when it may not be there at all, else `repair` when its verdict is too close to call. */
export function borderlineOf(floor: boolean, repair = false): Pick<Defect, 'borderline'> {
  return floor ? { borderline: 'floor' } : repair ? { borderline: 'repair' } : {};
}
