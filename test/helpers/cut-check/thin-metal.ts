/**
 * Metal narrower than `minMetalMm` (rule 3), measured on the padded raster:
 * - between-boundaries: the narrowest metal between each pair of different air components, from
 *   the feature transform of the air (two neighbouring pixels whose nearest air pixels belong to
 *   different components straddle the middle of the web between them). Erosion alone misses a
 *   thin web between two round holes: the metal stays connected around them.
 * - neck: eroding a metal component splits it (a knob on a thin stem, the mouth of a C-shaped
 *   opening); located at the narrowest place between the cores.
 * - thin-part: the morphological opening loses a part reaching more than `maxTipMm` (a spur, a
 *   thin bar), through itself (`reach-through.ts`); sharp convex points lose less and pass.
 * - narrow-everywhere: a metal component with no core at all.
 */
import { erodePhase, keepNarrowest, located, lostParts, splitPlaces, type PhaseField } from './narrow-places.ts';
import { joinCornerPixels, labelComponents, type Components } from './labels.ts';
import type { CutRules, Grid, NarrowPlace, ThinMetalKind } from './types.ts';
import { centreOf, localWidth, placeOf, widthAcross } from './width-estimates.ts';

type ThinMetal = NarrowPlace<ThinMetalKind>;

/** Every place where the metal is narrower than `minMetalMm − tolMm`, by kind (see the module comment). */
export function thinMetal(grid: Grid, airLabels: Int32Array, rules: CutRules, tolMm: number): ThinMetal[] {
  const below = rules.minMetalMm - tolMm;
  const field = erodePhase(grid, 1, rules.minMetalMm, tolMm);
  // One pixel-sized scratch array serves each step in turn: the raster can be 15 million pixels.
  const scratch = new Int32Array(grid.metal.length);
  const places: ThinMetal[] = betweenBoundaries(grid, airLabels, field.nearest, below, scratch);

  const labelled = labelComponents(grid.metal, 1, grid.nx, grid.ny, 4, scratch);
  const components = joinCornerPixels(labelled.labels, labelled.count, grid.nx);
  const withCore = new Uint8Array(components.count);
  for (let k = 0; k < field.core.length; k++) if (field.core[k]) withCore[components.labels[k]!] = 1;
  places.push(...narrowEverywhere(grid, field, components, withCore));
  const inCoredComponent = new Uint8Array(grid.metal.length);
  for (let k = 0; k < inCoredComponent.length; k++) {
    const label = components.labels[k]!;
    if (label >= 0) inCoredComponent[k] = withCore[label]!;
  }

  const necks = splitPlaces(grid, field, scratch).filter((place) => place.widthMm < below);
  places.push(...keepNarrowest(grid, necks, rules.minMetalMm).map((place) => located(grid, place, 'neck')));

  // Parts of a component with no core are all lost: that component is narrow everywhere, above.
  const thin = lostParts(grid, field, rules.maxTipMm, undefined, scratch).filter(
    (place) => inCoredComponent[place.index],
  );
  places.push(...thin.map((place) => located(grid, place, 'thin-part')));
  return places;
}

/** The narrowest metal between each pair of air components closer than `below`, located mid-gap. */
function betweenBoundaries(
  grid: Grid,
  airLabels: Int32Array,
  nearest: Int32Array,
  below: number,
  scratch: Int32Array,
): ThinMetal[] {
  const { nx, ny, metal } = grid;
  // The air component each pixel is nearest to (its own for air); neighbours that differ straddle a web.
  const nearestAir = scratch;
  let labels = 1;
  for (let k = 0; k < metal.length; k++) {
    const f = metal[k] ? nearest[k]! : k;
    const label = f < 0 ? -1 : airLabels[f]!;
    nearestAir[k] = label;
    if (label >= labels) labels = label + 1;
  }
  // Pairs narrower than the floor: the air pixels on either side, the component pair, the width.
  const pairs: { a: number; b: number; key: number; widthMm: number }[] = [];
  const compare = (k: number, q: number): void => {
    const la = nearestAir[k]!;
    const lb = nearestAir[q]!;
    if (la < 0 || lb < 0) return; // two air pixels side by side are one component, so never here
    const a = metal[k] ? nearest[k]! : k;
    const b = metal[q] ? nearest[q]! : q;
    const widthMm = widthAcross(grid, a, b);
    if (widthMm < below) pairs.push({ a, b, key: Math.min(la, lb) * labels + Math.max(la, lb), widthMm });
  };
  for (let j = 0; j < ny; j++) {
    const base = j * nx;
    for (let i = 0; i < nx - 1; i++)
      if (nearestAir[base + i] !== nearestAir[base + i + 1]) compare(base + i, base + i + 1);
    if (j === ny - 1) continue;
    for (let i = 0; i < nx; i++)
      if (nearestAir[base + i] !== nearestAir[base + nx + i]) compare(base + i, base + nx + i);
  }
  return narrowestPerPair(grid, pairs);
}

/**
 * For each pair of air components, the narrowest width between them, located mid-gap. Along a web
 * of even width many pixel pairs measure within a pixel of the narrowest; the place is the one
 * of those nearest to their middle (the middle of a straight bar, not its first pixel).
 */
function narrowestPerPair(grid: Grid, pairs: { a: number; b: number; key: number; widthMm: number }[]): ThinMetal[] {
  const band = Math.max(grid.dx, grid.dy) / 2;
  const narrowest = new Map<number, number>();
  for (const pair of pairs) narrowest.set(pair.key, Math.min(pair.widthMm, narrowest.get(pair.key) ?? Infinity));
  const middle = (pair: { a: number; b: number }): { x: number; y: number } => {
    const ca = centreOf(grid, pair.a);
    const cb = centreOf(grid, pair.b);
    return { x: (ca.x + cb.x) / 2, y: (ca.y + cb.y) / 2 };
  };
  const near = new Map<number, { x: number; y: number }[]>();
  for (const pair of pairs) {
    if (pair.widthMm > narrowest.get(pair.key)! + band) continue;
    const list = near.get(pair.key);
    if (list) list.push(middle(pair));
    else near.set(pair.key, [middle(pair)]);
  }
  return [...near].map(([key, places]) => {
    const cx = places.reduce((sum, p) => sum + p.x, 0) / places.length;
    const cy = places.reduce((sum, p) => sum + p.y, 0) / places.length;
    let best = places[0]!;
    for (const p of places) if ((p.x - cx) ** 2 + (p.y - cy) ** 2 < (best.x - cx) ** 2 + (best.y - cy) ** 2) best = p;
    const x = Math.min(grid.lengthMm, Math.max(0, best.x));
    const y = Math.min(grid.widthMm, Math.max(0, best.y));
    return { kind: 'between-boundaries' as const, x, y, widthMm: narrowest.get(key)! };
  });
}

/** Metal components with no core, each at its thickest pixel. */
function narrowEverywhere(grid: Grid, field: PhaseField, metal: Components, withCore: Uint8Array): ThinMetal[] {
  const thickest = new Int32Array(metal.count).fill(-1);
  for (let k = 0; k < metal.labels.length; k++) {
    const label = metal.labels[k]!;
    if (label < 0 || withCore[label]) continue;
    const best = thickest[label]!;
    if (best < 0 || field.halfWidth[k]! > field.halfWidth[best]!) thickest[label] = k;
  }
  return [...thickest]
    .filter((k) => k >= 0)
    .map((k) => ({ kind: 'narrow-everywhere', ...placeOf(grid, k), widthMm: localWidth(grid, 1, field.nearest, k) }));
}
