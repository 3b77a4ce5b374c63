import type { Margin, Margins } from '../../contract/submission.ts';
import { placeInImage, type StripInImage } from '../findings/agent-pixels.ts';
import { UNITS_PER_MM } from './rings.ts';
import type { NarrowChord, Narrowest } from './widths.ts';
import type { PipelineOutcome } from '../types.ts';

/**
 * How close the final geometry came to the floors: its narrowest metal and narrowest opening as the
 * final check measured them (see `measureWidths`), each with its width, its floor and its place.
 * Below a floor (the check refused it) that is the narrowest refused place; above it, the
 * narrowest place up to `marginSearchMm` above the floor (openings: up to the larger floor), else null.
 */
export function marginsOf(
  narrowest: Narrowest,
  rules: { minMetalMm: number; minOpeningMm: number; marginSearchMm: number },
): Margins {
  const { minMetalMm, minOpeningMm, marginSearchMm } = rules;
  return {
    narrowestMetal: narrowest.metal ? margin(narrowest.metal, minMetalMm) : null,
    narrowestOpening: narrowest.opening ? margin(narrowest.opening, minOpeningMm) : null,
    searchedUpToMm: {
      metal: round(minMetalMm + marginSearchMm, 3),
      opening: round(Math.max(minOpeningMm, Math.min(minOpeningMm + marginSearchMm, minMetalMm)), 3),
    },
  };
}

/** The chord's width in millimetres (thousandths, as the file), at its middle with half its width as the radius. */
function margin(chord: NarrowChord, floorMm: number): Margin {
  const x = (chord.vx + chord.qx) / 2 / UNITS_PER_MM;
  const y = (chord.vy + chord.qy) / 2 / UNITS_PER_MM;
  // Rounded up, so the circle still reaches both ends of the chord.
  const r = Math.max(0.01, Math.ceil(chord.width / 2 / 10) / 100);
  return { widthMm: round(chord.width / UNITS_PER_MM, 3), floorMm, at: { x: round(x, 2), y: round(y, 2), r } };
}

/** The outcome with the margins, their places also in the agent's image; unchanged when there are none. */
export function withMargins(
  outcome: PipelineOutcome,
  margins: Margins | undefined,
  placing: StripInImage,
): PipelineOutcome {
  if (!margins || outcome.kind !== 'analysed') return outcome;
  for (const m of [margins.narrowestMetal, margins.narrowestOpening]) {
    if (m) m.at.px = placeInImage(m.at, placing);
  }
  return { ...outcome, margins };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));
