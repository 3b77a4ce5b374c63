import type { Finding } from '../../contract/finding.ts';
import type { AnyFindingFacts, FindingCode, FindingFacts } from './facts.ts';

export type Location = { x: number; y: number; r: number };

/**
 * How far a repair reaches past the place a finding names for it: half a 0.7 mm bridge or widened
 * neck. A refusal within that of a repair's place is the repair's doing.
 */
export const REPAIR_REACH_MM = 0.35;

/** Whether two places' circles come within `slackMm` of each other (0: they overlap). */
export const placesMeet = (a: Location, b: Location, slackMm = 0): boolean =>
  Math.hypot(a.x - b.x, a.y - b.y) <= a.r + b.r + slackMm;

/** What the wording needs: the floors, and the agent's own pixels per millimetre once known. */
export interface FindingContext {
  minOpeningMm: number;
  minMetalMm: number;
  /** Pixels of the uploaded image per millimetre of the strip (along the length). */
  pxPerMm?: number;
}

type Words = { message: string; instruction: string };
/** Each code's wording, from that code's facts (`FindingFacts`). */
type Templates<C extends FindingCode> = { [K in C]: (facts: FindingFacts[K], ctx: FindingContext) => Words };
type WarningCode =
  | 'NOT_TWO_TONE'
  | 'DESIGN_TOUCHES_EDGE'
  | 'DISCONNECTED_REGIONS'
  | 'PROPORTION_MISMATCH'
  | 'OPENING_REMOVED'
  | 'ISLAND_BRIDGED'
  | 'ISLAND_REMOVED'
  | 'NECK_THICKENED'
  | 'SPURS_SHAVED'
  | 'NECK_CHECK_SKIPPED';
type RefusalCode = Exclude<FindingCode, Exclude<WarningCode, 'PROPORTION_MISMATCH'>>;

const n = (value: unknown, digits = 2): string => String(Number(Number(value).toFixed(digits)));
/** A configured limit as configured (only binary noise trimmed): rounding it would misstate it. */
const limit = (value: unknown): string => n(value, 6);
const plural = (count: unknown, one: string, many: string): string => `${String(count)} ${count === 1 ? one : many}`;
/** "0.2 mm (about 2 px of your image)". */
const mmPx = (mm: number, ctx: FindingContext): string =>
  ctx.pxPerMm ? `${n(mm)} mm (about ${Math.max(1, Math.ceil(mm * ctx.pxPerMm))} px of your image)` : `${n(mm)} mm`;

const warnings: Templates<WarningCode> = {
  NOT_TWO_TONE: (f) => ({
    message: `${n(Number(f.share) * 100, 1)} % of the ink pixels are mid-grey (anti-aliasing or shading); they were thresholded at 50 %.`,
    instruction:
      'Export pure black (#000000) on pure white (#ffffff) with anti-aliasing off. Grey edges move every cut by up to a pixel.',
  }),
  DESIGN_TOUCHES_EDGE: (f) => ({
    message: `The design covers half or more of the image's ${f.borders.join(' and ')} border.`,
    instruction:
      'Leave a white margin on every side: draw inside job.drawing.stripPx. A design that runs off the canvas may be cut short.',
  }),
  DISCONNECTED_REGIONS: (f, ctx) => ({
    message: `${plural(f.count, 'black region', 'black regions')} (${n(Number(f.share) * 100, 1)} % of the ink) lie outside the main piece and were dropped.`,
    instruction: `Join every part of the design to the main piece with black bars at least ${mmPx(ctx.minMetalMm, ctx)} wide, or remove the loose parts.`,
  }),
  PROPORTION_MISMATCH: (f) => ({
    message: `The drawing's ratio ${n(f.drawnRatio)}:1 differs from the job's ${n(f.jobRatio)}:1 by more than ${limit(Number(f.keepWithin) * 100)} %; the pattern was stretched x${n(f.stretch)} along the length.`,
    instruction: `Draw at job.drawing.ratio (${n(f.jobRatio)}:1), or open a job with widthMm = lengthMm / ${n(f.drawnRatio)} to match this drawing.`,
  }),
  OPENING_REMOVED: (f, ctx) => ({
    message: [
      Number(f.count) > 0
        ? `${plural(f.count, 'opening was', 'openings were')} filled: ${String(f.specks)} smaller than ${n(f.minAreaMm2, 3)} mm² and ${String(f.narrow)} narrower than ${n(ctx.minOpeningMm)} mm everywhere.`
        : '',
      Number(f.points) > 0
        ? `${plural(f.points, 'sharp point of an opening', 'sharp points of openings')}, narrower than ${n(ctx.minOpeningMm)} mm, ${f.points === 1 ? 'was' : 'were'} filled: the laser cannot cut ${f.points === 1 ? 'it' : 'them'}.`
        : '',
    ]
      .filter(Boolean)
      .join(' '),
    instruction: `Make every opening at least ${mmPx(ctx.minOpeningMm, ctx)} wide${Number(f.points) > 0 ? ', up to its sharp points,' : ''} and at least ${n(f.minAreaMm2, 3)} mm² in area, or leave it out.`,
  }),
  ISLAND_BRIDGED: (f, ctx) => ({
    message: `${plural(f.count, 'metal island', 'metal islands')} inside openings ${f.count === 1 ? 'was' : 'were'} joined to the nearest metal by ${n(f.bridgeMm)} mm bars.`,
    instruction: `Connect islands yourself with bars at least ${mmPx(ctx.minMetalMm, ctx)} wide where you want them, so the piece looks as you intend.`,
  }),
  ISLAND_REMOVED: (f, ctx) => ({
    message: `${plural(f.count, 'small metal island', 'small metal islands')} too far from other metal to bridge ${f.count === 1 ? 'was' : 'were'} removed.`,
    instruction: `Join islands to the surrounding metal with bars at least ${mmPx(ctx.minMetalMm, ctx)} wide, or leave them out.`,
  }),
  NECK_THICKENED: (f, ctx) => ({
    message: `${plural(f.count, 'neck', 'necks')} of metal narrower than ${n(ctx.minMetalMm)} mm ${f.count === 1 ? 'was' : 'were'} widened to the floor.`,
    instruction: `Draw every bar of metal at least ${mmPx(ctx.minMetalMm, ctx)} wide so nothing needs widening.`,
  }),
  SPURS_SHAVED: (f, ctx) => ({
    message: `${plural(f.count, 'hairline spur', 'hairline spurs')} thinner than ${n(ctx.minMetalMm)} mm ${f.count === 1 ? 'was' : 'were'} shaved off.`,
    instruction: `Make every protrusion at least ${mmPx(ctx.minMetalMm, ctx)} wide, or leave it out.`,
  }),
  NECK_CHECK_SKIPPED: (f) => ({
    message: `The design is too complex to check every neck (${String(f.pixels)} working pixels, over the bound of ${String(f.bound)}).`,
    instruction: 'Simplify the drawing (fewer, larger openings) so every neck can be checked.',
  }),
};

const errors: Templates<RefusalCode> = {
  NO_DESIGN_FOUND: (f) => ({
    message:
      f.cause === 'white'
        ? 'No design found: the image is all white.'
        : f.cause === 'black'
          ? 'No design found: the image is (almost) all black.'
          : 'No design found: black reaches every border (full bleed), so no background separates the design.',
    instruction:
      'Draw the piece as black shapes on a white background, with a white margin on every side, inside job.drawing.stripPx.',
  }),
  INVALID_FILE: () => ({
    message: 'The image data could not be decoded.',
    instruction: 'Export the drawing again as a flat 8-bit PNG (black on white, no alpha) and upload that file.',
  }),
  PROPORTION_MISMATCH: (f) => ({
    message:
      f.cause === 'aspect'
        ? `The piece's ratio ${n(f.drawnRatio)}:1 is outside the allowed ${limit(f.cropAspect.min)}:1 to ${limit(f.cropAspect.max)}:1.`
        : `The drawing's ratio ${n(f.drawnRatio)}:1 is too far from the job's ${n(f.jobRatio)}:1 (it would need a x${n(f.stretch)} stretch; at most x${limit(f.maxStretch)} is allowed).`,
    instruction: `Draw at job.drawing.ratio (${n(f.jobRatio)}:1), or open a job with widthMm = lengthMm / ${n(f.drawnRatio)} to match this drawing.`,
  }),
  OPENING_TOO_SMALL: (f, ctx) => ({
    message: `${plural(f.count, 'opening narrows', 'openings narrow')} to less than ${n(ctx.minOpeningMm)} mm somewhere (pinched), at the marked places.`,
    instruction: `Widen each marked opening to at least ${mmPx(ctx.minOpeningMm, ctx)} along its whole length, or split it into separate openings.`,
  }),
  FEATURES_TOO_FINE: (f, ctx) => ({
    message: `${n(Number(f.share) * 100, 0)} % of the open area is openings too small to cut (narrower than ${n(ctx.minOpeningMm)} mm, or under ${n(f.minAreaMm2, 3)} mm²): the drawing is too detailed for a ${n(f.lengthMm, 1)} x ${n(f.widthMm, 1)} mm piece.`,
    instruction: `Draw fewer, larger openings, each at least ${mmPx(ctx.minOpeningMm, ctx)} wide with bars at least ${mmPx(ctx.minMetalMm, ctx)} wide, or open a larger job.`,
  }),
  MATERIAL_DISCONNECTED: (f, ctx) => ({
    message: `The metal falls apart into ${String(f.pieces)} pieces.`,
    instruction: `Connect every part of the design with bars of metal at least ${mmPx(ctx.minMetalMm, ctx)} wide.`,
  }),
  TRAPPED_ISLAND: (f, ctx) => ({
    message: `${plural(f.count, 'metal island sits', 'metal islands sit')} inside openings with nothing to hold ${f.count === 1 ? 'it' : 'them'}; ${f.count === 1 ? 'it' : 'they'} would fall out.`,
    instruction: `Join each marked island to the surrounding metal with a bar at least ${mmPx(ctx.minMetalMm, ctx)} wide, or leave it out.`,
  }),
  NECK_TOO_THIN: (f, ctx) => ({
    message:
      f.cause === 'pervasive'
        ? `Metal is narrower than ${n(ctx.minMetalMm)} mm at ${plural(f.count, 'place', 'places')}: too many to widen without reworking the whole design.`
        : `Metal is narrower than ${n(ctx.minMetalMm)} mm at ${plural(f.count, 'place', 'places')} and could not be widened without closing an opening.`,
    instruction: `Widen the metal at the marked places to at least ${mmPx(ctx.minMetalMm, ctx)}, making the openings beside it smaller if needed.`,
  }),
  // Two causes: nothing left to trace (the drawing has no usable shape), or contours of the cutting
  // file that cross or touch and could not be mended ('crossing'): the tracing's fault, on a
  // drawing that may pass every floor, so asking for solid shapes and clear openings would ask for
  // what it already is.
  TRACE_REJECTED: (f) =>
    f.cause === 'crossing'
      ? {
          message: `The traced outlines crossed or touched at ${plural(f.count, 'place', 'places')} and could not be made into a cutting file there. This is a fault of the service's tracing, not a rule the drawing breaks.`,
          instruction:
            'Change the drawing slightly at the marked places so that it traces differently: round off the sharpest corners and points there a little (by about a pixel of your image), or draw the design on a larger canvas; then upload again.',
        }
      : {
          message: 'The design could not be traced into a manufacturable shape.',
          instruction:
            'Redraw the piece as solid black shapes on white with clear openings, at job.drawing.ratio, and upload again.',
        },
};

/** OPENING_TOO_SMALL's `details`: every narrowest part by its place. */
export const narrowestDetails = (places: readonly Location[], minOpeningMm: number): string =>
  `Narrowest parts at ${places.map((l) => `(${l.x}, ${l.y}) mm`).join(', ')}; each must be at least ${minOpeningMm} mm wide.`;

/** The facts each finding was worded from, so that findings of one code can be merged and worded again. */
const factsOf = new WeakMap<Finding, AnyFindingFacts>();

/** The facts `f` was worded from (undefined for a finding not built here). */
export const findingFacts = (f: Finding): AnyFindingFacts | undefined => factsOf.get(f);

/** The facts of `f` when it is a finding of `code` built here. */
export function factsFor<C extends FindingCode>(f: Finding | undefined, code: C): FindingFacts[C] | undefined {
  return f?.code === code ? (factsOf.get(f) as FindingFacts[C] | undefined) : undefined;
}

/** Builds a finding with its wording; `severity` follows from the code (PROPORTION_MISMATCH is both). */
export function finding<C extends FindingCode>(
  code: C,
  facts: FindingFacts[C],
  ctx: FindingContext,
  extra: { severity?: 'error' | 'warning'; locations?: Location[]; details?: string } = {},
): Finding {
  const severity = extra.severity ?? (code in errors && !(code in warnings) ? 'error' : 'warning');
  const isWarning = severity === 'warning';
  // The tables hold one template per code, each typed by its own facts: looked up by a code known
  // only as `C`, TypeScript sees the union of them, so the pairing is restated here.
  const template = (isWarning ? warnings : errors)[code as never] as
    ((facts: FindingFacts[C], ctx: FindingContext) => Words) | undefined;
  if (!template) throw new Error(`no ${severity} wording for ${code}`);
  const { message, instruction } = template(facts, ctx);
  const result: Finding = { code, severity, message, agent_instruction: instruction };
  if (extra.locations && extra.locations.length > 0) result.locations = extra.locations;
  if (extra.details) result.details = extra.details;
  factsOf.set(result, facts);
  return result;
}

/** A finding whose code is known only at run time (merging, blaming), worded again from its facts. */
export const rewordFinding = (
  code: Finding['code'],
  facts: AnyFindingFacts,
  ctx: FindingContext,
  extra: { severity?: 'error' | 'warning'; locations?: Location[]; details?: string } = {},
): Finding => finding(code as FindingCode, facts as never, ctx, extra);
