/**
 * The checker's findings on the faithful file turned into defects, each with the house's verdict
 * (`house-rules.ts`): narrow openings (filled, tips and slivers filled, pinches and long arms
 * refused), thin metal (widened where there is room, hairline spurs shaved), and the share of
 * the open area that filling would take (refused as too fine past half).
 */
import type { CutReport, LabelledGrid, NarrowPlace, NarrowOpeningKind, ThinMetalKind } from '../cut-check/types.ts';
import { borderlineOf, HOUSE, near, type Defect } from './house-rules.ts';
import { EDGE, roomToWiden, type Air } from './room.ts';

const mm = (value: number): string => `${value.toFixed(2)} mm`;
const where = (place: NarrowPlace) => ({
  x: place.x,
  y: place.y,
  widthMm: place.widthMm,
  ...(place.reachMm === undefined ? {} : { reachMm: place.reachMm }),
});

/** Each narrow place of the openings with its verdict; `narrowLabels` gets the openings narrower than the floor everywhere. */
export function openingDefects(report: CutReport, narrowLabels: Set<number>): Defect[] {
  const tol = report.tolMm;
  return report.narrowOpenings.map((place: NarrowPlace<NarrowOpeningKind>): Defect => {
    const air = airLabelAt(report.grid, place.x, place.y);
    const borderline = place.widthMm >= HOUSE.rules.minOpeningMm - 2 * tol;
    const flag = borderlineOf(borderline);
    const width = mm(place.widthMm);
    if (place.kind === 'narrow-everywhere') {
      if (air > 0) narrowLabels.add(air);
      return {
        kind: 'narrow-opening',
        ...where(place),
        repairable: true,
        why: `${width} wide everywhere: filled (OPENING_REMOVED)`,
        ...flag,
      };
    }
    if (place.kind === 'pinched') {
      return {
        kind: 'pinched-opening',
        ...where(place),
        repairable: false,
        why: `pinched to ${width} with wider parts of the opening on both sides (OPENING_TOO_SMALL)`,
        ...flag,
      };
    }
    const reach = place.reachMm ?? 0;
    // A part reaching hardly past a corner's allowance may be no more than a corner.
    const corner = reach <= HOUSE.rules.maxOpeningTipMm + tol;
    if (air === 0) {
      return {
        kind: 'edge-sliver',
        ...where(place),
        repairable: true,
        why: `a ${width} sliver of the air round the piece, ${mm(reach)} deep: filled along the outline`,
        ...flag,
      };
    }
    if (reach <= HOUSE.airTipExtentMm) {
      return {
        kind: 'opening-tip',
        ...where(place),
        repairable: true,
        why: `a dead end ${width} wide reaching ${mm(reach)} (a tip or corner): filled and named (OPENING_REMOVED)`,
        ...borderlineOf(borderline || corner, near(reach, HOUSE.airTipExtentMm, tol)),
      };
    }
    return {
      kind: 'narrow-arm',
      ...where(place),
      repairable: false,
      why: `a narrow arm ${width} wide reaching ${mm(reach)}, longer than a tip: drawn so, not filled (OPENING_TOO_SMALL)`,
      ...borderlineOf(borderline || corner, near(reach, HOUSE.airTipExtentMm, tol)),
    };
  });
}

/** Each thin place of the metal with its verdict, except those on metal the repair removes. */
export function metalDefects(report: CutReport, component: Int32Array, removed: Set<number>): Defect[] {
  const tol = report.tolMm;
  const defects: Defect[] = [];
  // Past the most thin places the house widens, the design is refused as drawn: room is not measured.
  const tooMany = report.thinMetalCount > HOUSE.maxThinPlaces;
  for (const place of report.thinMetal as NarrowPlace<ThinMetalKind>[]) {
    if (removed.has(componentAt(report.grid, component, place.x, place.y))) continue;
    const widthBorderline = place.widthMm >= HOUSE.rules.minMetalMm - 2 * tol;
    const width = mm(place.widthMm);
    if (tooMany) {
      defects.push({
        kind: 'thin-metal',
        ...where(place),
        repairable: false,
        why: `${width} of metal (${place.kind}), one of ${report.thinMetalCount} thin places: not widened (NECK_TOO_THIN)`,
        ...borderlineOf(widthBorderline),
      });
      continue;
    }
    const room = roomToWiden(report.grid, place, tol);
    const [a, b] = room.sides;
    if (place.kind === 'thin-part' && a === b && place.widthMm <= HOUSE.spurMaxMm) {
      defects.push({
        kind: 'spur',
        ...where(place),
        repairable: true,
        why: `a hairline spur ${width} wide, a dead end: shaved (SPURS_SHAVED)`,
        ...borderlineOf(false, near(place.widthMm, HOUSE.spurMaxMm, tol)),
      });
      continue;
    }
    const sides = room.sides.map(describeSide).join(' and ');
    const widen = `widening it to ${HOUSE.widenToMm} mm moves ${room.sides.length === 2 && room.sides.includes(EDGE) ? 'one wall' : 'each wall'} ${mm(room.shiftMm)}`;
    const why = room.fits
      ? `${width} of metal (${place.kind}) between ${sides}: ${widen} and keeps the openings cuttable (NECK_THICKENED)`
      : `${width} of metal (${place.kind}) between ${sides}: no room, ${widen} and ${room.spoiledMm === Infinity ? 'there is no air to take it from' : `squeezes ${mm(room.spoiledMm)} of opening under the floor`} (NECK_TOO_THIN)`;
    defects.push({
      kind: 'thin-metal',
      ...where(place),
      repairable: room.fits,
      why,
      ...borderlineOf(widthBorderline, room.borderline),
    });
  }
  if (report.thinMetalCount > HOUSE.maxThinPlaces) {
    const first = report.thinMetal[0]!;
    defects.push({
      kind: 'too-many-thin-places',
      ...where(first),
      repairable: false,
      why: `${report.thinMetalCount} thin places, more than ${HOUSE.maxThinPlaces}: refused as drawn (NECK_TOO_THIN)`,
    });
  }
  return defects;
}

function describeSide(side: Air): string {
  return side === EDGE ? 'the strip edge' : side === 0 ? 'the air round the piece' : `opening ${side}`;
}

/** The air label at a strip position (-1 on metal). */
function airLabelAt(grid: LabelledGrid, x: number, y: number): number {
  const i = Math.min(grid.nx - 1, Math.max(0, Math.floor(x / grid.dx) + grid.pad));
  const j = Math.min(grid.ny - 1, Math.max(0, Math.floor(y / grid.dy) + grid.pad));
  return grid.labels[j * grid.nx + i]!;
}

/** The metal component at a strip position, or the nearest one within three pixels (-1 if none). */
function componentAt(grid: LabelledGrid, component: Int32Array, x: number, y: number): number {
  const ci = Math.floor(x / grid.dx) + grid.pad;
  const cj = Math.floor(y / grid.dy) + grid.pad;
  let best = -1;
  let bestD = Infinity;
  for (let dj = -3; dj <= 3; dj++) {
    for (let di = -3; di <= 3; di++) {
      const i = ci + di;
      const j = cj + dj;
      if (i < 0 || j < 0 || i >= grid.nx || j >= grid.ny) continue;
      const c = component[j * grid.nx + i]!;
      if (c >= 0 && di * di + dj * dj < bestD) {
        best = c;
        bestD = di * di + dj * dj;
      }
    }
  }
  return best;
}
