import type { Location } from '../findings/wording.ts';
import { MAX_LOCATIONS } from '../findings/locate.ts';
import { UNITS_PER_MM } from './rings.ts';
import type { NarrowChord } from './widths.ts';

/** Chords of one narrow place lie within this of each other (file units). */
const SAME_PLACE = 1000;
/** Enough chords to find every place a finding can list; more only cost time on a hopeless file. */
const MAX_CHORDS = 5000;

/**
 * Narrow chords grouped into places for a finding's `locations`: each group's narrowest chord's
 * middle, with a radius covering the group (at least `minRadiusMm`), narrowest places first.
 */
export function chordPlaces(chords: readonly NarrowChord[], minRadiusMm: number): Location[] {
  const groups: NarrowChord[][] = [];
  const mid = (c: NarrowChord) => [(c.vx + c.qx) / 2, (c.vy + c.qy) / 2] as const;
  for (const chord of chords.slice(0, MAX_CHORDS)) {
    const [x, y] = mid(chord);
    const group = groups.find((g) => g.some((c) => Math.hypot(mid(c)[0] - x, mid(c)[1] - y) <= SAME_PLACE));
    if (group) group.push(chord);
    else groups.push([chord]);
  }
  const round = (v: number) => Number((v / UNITS_PER_MM).toFixed(2));
  return groups
    .map((group) => {
      const narrowest = group.reduce((a, b) => (b.width < a.width ? b : a));
      const [x, y] = mid(narrowest);
      const extent = Math.max(
        ...group.map((c) => Math.max(Math.hypot(c.vx - x, c.vy - y), Math.hypot(c.qx - x, c.qy - y))),
      );
      return { width: narrowest.width, at: { x: round(x), y: round(y), r: Math.max(minRadiusMm, round(extent)) } };
    })
    .sort((a, b) => a.width - b.width)
    .slice(0, MAX_LOCATIONS)
    .map((p) => p.at);
}

/** A point of the file (units) as a location with a given radius. */
export const pointPlace = (p: { x: number; y: number }, rMm: number): Location => ({
  x: Number((p.x / UNITS_PER_MM).toFixed(2)),
  y: Number((p.y / UNITS_PER_MM).toFixed(2)),
  r: rMm,
});
