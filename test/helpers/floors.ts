/**
 * An independent manufacturability checker for a cutting SVG (`cutouts.svg`), written for tests.
 * It shares no code with `core/pipeline`: it parses the SVG as the contract describes it and
 * measures the framed strip with clipper2-ts offsets and booleans (integer coordinates,
 * `UNITS_PER_MM` per millimetre).
 *
 * Model: the strip is the rectangle `0 0 L W` of the viewBox; every `<path>` of `<g id="cutouts">`
 * is one cut whose rings combine even-odd (first ring the outline of the air, following rings
 * metal left inside it); metal = strip minus the union of all cuts.
 */
import {
  Clipper,
  ClipperOffset,
  ClipType,
  EndType,
  FillRule,
  JoinType,
  PolyTree64,
  type Path64,
  type Paths64,
  type PolyPath64,
  type Rect64,
} from 'clipper2-ts';

export const UNITS_PER_MM = 1000;

export interface FloorOptions {
  /** Narrowest opening the laser can cut (capabilities `manufacturing.minOpeningMm`, 0.2). */
  minOpeningMm: number;
  /** Narrowest metal that survives (capabilities `manufacturing.minMetalMm`, 0.6). */
  minMetalMm: number;
  /** Slack taken off each half-width before eroding, so a feature exactly at the floor passes. Default 0.01 mm. */
  toleranceMm?: number;
  /** Metal lost by the morphological opening counts as too thin when a lost part exceeds this. Default 0.05 mm². */
  minLostAreaMm2?: number;
}

/** A place on the framed strip in millimetres: x along the length, y across from the top, r a rough radius. */
export interface FloorLocation {
  x: number;
  y: number;
  r: number;
  areaMm2: number;
}

export interface FloorFailure extends FloorLocation {
  /**
   * `narrow-everywhere`: the whole opening or piece vanishes when eroded; `pinched`: eroding splits
   * it (located at the largest part the morphological opening loses, normally the neck);
   * `thin-part`: the morphological opening of the metal loses a part larger than `minLostAreaMm2`
   * (a thin bar or a spur).
   */
  kind: 'narrow-everywhere' | 'pinched' | 'thin-part';
}

export interface FloorReport {
  lengthMm: number;
  widthMm: number;
  /** `<path>` elements in the cutouts group, and rings over all of them. */
  cutPaths: number;
  cutRings: number;
  /** Air regions enclosed by metal (holes of the metal). */
  openings: number;
  /** Air regions that reach the strip's outline (material cut away at shaped ends, or a cut through the strip). */
  outlineCuts: number;
  /** Connected metal polygons that are not inside a cut (1 for a manufacturable strip). */
  metalPieces: number;
  /** Metal polygons lying inside an opening: islands that would fall out. */
  trappedIslands: number;
  metalAreaMm2: number;
  openAreaPct: number;
  pieces: FloorLocation[];
  islands: FloorLocation[];
  /** Openings narrower than `minOpeningMm` somewhere, located. */
  openingsNarrowerThan: FloorFailure[];
  /** Metal narrower than `minMetalMm` somewhere, located (islands included). */
  metalNarrowerThan: FloorFailure[];
  /** Departures from the contract's file format (commands, decimals, forbidden content). */
  contractProblems: string[];
  /** One piece, no islands, no narrow opening or metal, no format problem. */
  ok: boolean;
}

interface ParsedSvg {
  lengthMm: number;
  widthMm: number;
  cuts: Paths64[];
  problems: string[];
}

/** Measures a cutting SVG against the floors; throws only when the file cannot be read as the contract's shape. */
export function checkFloors(svg: string, options: FloorOptions): FloorReport {
  const tol = options.toleranceMm ?? 0.01;
  const minLost = (options.minLostAreaMm2 ?? 0.05) * UNITS_PER_MM ** 2;
  const parsed = parseCutoutsSvg(svg);
  // Clipper sweeps along y and keeps every edge crossing the sweep line active, so the strip is
  // worked on transposed (x across the width, y along the length): a few dozen active edges
  // instead of thousands on a lace. `locate` transposes back to the strip's x, y.
  const across = Math.round(parsed.widthMm * UNITS_PER_MM);
  const along = Math.round(parsed.lengthMm * UNITS_PER_MM);
  const strip = rectPath(0, 0, across, along);

  // Each path fills even-odd on its own; the cuts then add up (non-zero over normalised regions).
  const cutRegions = parsed.cuts.flatMap((rings) => Clipper.union(rings.map(transpose), FillRule.EvenOdd));
  const metalTree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Difference, [strip], cutRegions, metalTree, FillRule.NonZero);

  const pieceNodes: PolyPath64[] = [];
  const islandNodes: PolyPath64[] = [];
  const openingNodes: PolyPath64[] = [];
  walk(metalTree, (node) => {
    if (node.isHole) openingNodes.push(node);
    else if (node.level === 1) pieceNodes.push(node);
    else islandNodes.push(node);
  });

  const metalRegions = [...pieceNodes, ...islandNodes].map(nodeRegion);
  const metalArea = metalRegions.reduce((sum, region) => sum + regionArea(region), 0);
  const stripArea = across * along;

  const openingHalf = (options.minOpeningMm / 2 - tol) * UNITS_PER_MM;
  const metalHalf = (options.minMetalMm / 2 - tol) * UNITS_PER_MM;

  const openingsNarrowerThan: FloorFailure[] = [];
  for (const node of openingNodes) {
    openingsNarrowerThan.push(...erosionFailures(nodeRegion(node), openingHalf));
  }
  const outline = outlineAirCheck(pieceNodes, strip, openingHalf);
  openingsNarrowerThan.push(...outline.failures);

  const metalNarrowerThan: FloorFailure[] = [];
  for (const region of metalRegions) metalNarrowerThan.push(...thinMetal(region, metalHalf, minLost));

  const problems = parsed.problems;
  return {
    lengthMm: parsed.lengthMm,
    widthMm: parsed.widthMm,
    cutPaths: parsed.cuts.length,
    cutRings: parsed.cuts.reduce((n, rings) => n + rings.length, 0),
    openings: openingNodes.length,
    outlineCuts: outline.count,
    metalPieces: pieceNodes.length,
    trappedIslands: islandNodes.length,
    metalAreaMm2: round(metalArea / UNITS_PER_MM ** 2),
    openAreaPct: round((100 * (stripArea - metalArea)) / stripArea),
    pieces: pieceNodes.map((n) => locate(nodeRegion(n))),
    islands: islandNodes.map((n) => locate(nodeRegion(n))),
    openingsNarrowerThan,
    metalNarrowerThan,
    contractProblems: problems,
    ok:
      pieceNodes.length === 1 &&
      islandNodes.length === 0 &&
      openingsNarrowerThan.length === 0 &&
      metalNarrowerThan.length === 0 &&
      problems.length === 0,
  };
}

/**
 * An opening is narrower than the floor somewhere when eroding it by half the floor leaves
 * nothing (narrow everywhere) or more than one piece (pinched, located at each neck).
 */
function erosionFailures(region: Paths64, half: number): FloorFailure[] {
  const eroded = erode(region, half);
  if (eroded.pieces.length === 0) return [{ kind: 'narrow-everywhere', ...locate(region) }];
  if (eroded.pieces.length === 1) return [];
  const lost = lostParts(region, eroded.tree, half);
  const found = necks(eroded.pieces, lost, half);
  const parts = found.length > 0 ? found : lost.slice(0, 1);
  return parts.map((part): FloorFailure => ({ kind: 'pinched', ...locate(part) }));
}

/**
 * Air that reaches the outline is open to the outside, so only a pocket joined to the outside
 * through a neck narrower than the floor is a fault; tapers where a shaped end meets the strip
 * edge are not. The outside is modelled as the strip grown by 1 mm minus the metal pieces.
 */
function outlineAirCheck(
  pieces: PolyPath64[],
  strip: Path64,
  half: number,
): { count: number; failures: FloorFailure[] } {
  const outlines = pieces.map((n) => toPositive(n.poly!));
  const insideAir = Clipper.difference([strip], outlines, FillRule.NonZero);
  const count = components(insideAir).length;
  if (count === 0) return { count, failures: [] };
  const grown = Clipper.inflatePaths([strip], UNITS_PER_MM, JoinType.Miter, EndType.Polygon);
  const outside = Clipper.difference(grown, outlines, FillRule.NonZero);
  // Pockets cut off from the frame lie inside its hole, so they nest deeper in the tree.
  const parts = erode(outside, half).pieces.map((p) => p.region);
  if (parts.length <= 1) return { count, failures: [] };
  // The part holding the grown frame is the outside; every other part is a pocket cut off by a neck.
  parts.sort((a, b) => regionArea(b) - regionArea(a));
  const failures = parts.slice(1).map((p): FloorFailure => ({ kind: 'pinched', ...locate(p) }));
  return { count, failures };
}

/**
 * Metal is narrower than the floor somewhere when eroding a piece by half the floor leaves
 * nothing or splits it (located at each neck), or when the morphological opening (erode, then
 * dilate by the same amount) loses a part larger than `minLost` (a thin bar or a spur; a sharp
 * corner loses far less).
 */
function thinMetal(region: Paths64, half: number, minLost: number): FloorFailure[] {
  const relevant = withoutRemoteConvexHoles(region, 2 * half + 2);
  const eroded = erode(relevant, half);
  if (eroded.pieces.length === 0) return [{ kind: 'narrow-everywhere', ...locate(region) }];
  const lost = lostParts(relevant, eroded.tree, half);
  const neckParts = eroded.pieces.length > 1 ? necks(eroded.pieces, lost, half) : [];
  const failures = neckParts.map((part): FloorFailure => ({ kind: 'pinched', ...locate(part) }));
  for (const part of lost) {
    if (regionArea(part) > minLost && !neckParts.includes(part)) failures.push({ kind: 'thin-part', ...locate(part) });
  }
  if (eroded.pieces.length > 1 && failures.length === 0 && lost[0]) {
    failures.push({ kind: 'pinched', ...locate(lost[0]) });
  }
  return failures;
}

/**
 * Drops the holes of a metal region that cannot matter to its morphological opening by `half`:
 * convex holes farther than `clearance` (> 2 x half) from every other hole and from the outline.
 * Around such a hole every metal point lies in a disc of radius `half` tangent to the hole and
 * clear of everything else, so the opening loses nothing there, and the eroded metal keeps a
 * ring around the hole, so filling it changes no piece count either. Distances are taken between
 * bounding boxes, which never exceed the true distances. This keeps a lace of thousands of
 * openings fast: Clipper's offset leaves a small loop at every concave join for its clean-up
 * union to resolve, and that union dominates the cost.
 */
function withoutRemoteConvexHoles(region: Paths64, clearance: number): Paths64 {
  const [outer, ...holes] = region;
  if (!outer || holes.length < 16) return region;
  type Item = Rect64 & { hole: number };
  const items: Item[] = holes.map((h, i) => ({ ...Clipper.getBounds(h), hole: i }));
  for (let i = 0, j = outer.length - 1; i < outer.length; j = i++) {
    items.push({ ...Clipper.getBounds([outer[j]!, outer[i]!]), hole: -1 });
  }
  items.sort((a, b) => a.top - b.top);
  const keep = holes.map((h) => !isConvex(h));
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    for (let j = i + 1; j < items.length && items[j]!.top - a.bottom <= clearance; j++) {
      const b = items[j]!;
      if (a.hole < 0 && b.hole < 0) continue;
      const dx = Math.max(0, a.left - b.right, b.left - a.right);
      const dy = Math.max(0, b.top - a.bottom);
      if (Math.hypot(dx, dy) > clearance) continue;
      if (a.hole >= 0) keep[a.hole] = true;
      if (b.hole >= 0) keep[b.hole] = true;
    }
  }
  return [outer, ...holes.filter((_, i) => keep[i])];
}

function isConvex(ring: Path64): boolean {
  let sign = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    const c = ring[(i + 2) % ring.length]!;
    const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

interface Eroded {
  tree: PolyTree64;
  /** Every outer polygon of the erosion with its holes, at any depth (a piece cut off inside another's hole nests below it). */
  pieces: Array<{ region: Paths64; bounds: Rect64 }>;
}

function erode(region: Paths64, half: number): Eroded {
  const offset = new ClipperOffset();
  offset.addPaths(region, JoinType.Round, EndType.Polygon);
  const tree = new PolyTree64();
  offset.execute(-half, tree);
  const pieces: Eroded['pieces'] = [];
  walk(tree, (node) => {
    if (!node.isHole) pieces.push({ region: nodeRegion(node), bounds: Clipper.getBounds(node.poly!) });
  });
  return { tree, pieces };
}

/** Parts of `region` outside its morphological opening, largest first. */
function lostParts(region: Paths64, eroded: PolyTree64, half: number): Paths64[] {
  // Dropping arc points closer than 2 µm to a chord roughly halves the loops the dilation must clean up.
  const erodedPaths = Clipper.simplifyPaths(Clipper.polyTreeToPaths64(eroded), 2);
  const opened = Clipper.inflatePaths(erodedPaths, half, JoinType.Round, EndType.Polygon);
  const lost = Clipper.difference(region, opened, FillRule.NonZero);
  return components(lost).sort((a, b) => regionArea(b) - regionArea(a));
}

/** Lost parts within reach of two or more eroded pieces: the necks where the erosion split. */
function necks(pieces: Eroded['pieces'], lost: Paths64[], half: number): Paths64[] {
  const reach = half + 2;
  return lost.filter((part) => {
    if (regionArea(part) < 100) return false; // numerical slivers along curved edges
    const grown = Clipper.inflatePaths(part, reach, JoinType.Round, EndType.Polygon);
    const b = Clipper.getBoundsPaths(grown);
    let touched = 0;
    for (const piece of pieces) {
      const p = piece.bounds;
      if (p.left > b.right || p.right < b.left || p.top > b.bottom || p.bottom < b.top) continue;
      // Crop a (possibly huge) piece to the part's window before the boolean: linear, no sweep.
      const near = Clipper.rectClip(b, piece.region);
      if (near.length === 0) continue;
      if (Clipper.intersect(grown, near, FillRule.NonZero).length > 0 && ++touched >= 2) return true;
    }
    return false;
  });
}

/** Splits normalised paths into connected regions, each an outline with its holes. */
function components(paths: Paths64): Paths64[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, paths, null, tree, FillRule.NonZero);
  const out: Paths64[] = [];
  walk(tree, (node) => {
    if (!node.isHole) out.push(nodeRegion(node));
  });
  return out;
}

function walk(node: PolyPath64, visit: (node: PolyPath64) => void): void {
  for (let i = 0; i < node.count; i++) {
    const child = node.child(i);
    visit(child);
    walk(child, visit);
  }
}

const childPolys = (node: PolyPath64): Path64[] => Array.from({ length: node.count }, (_, i) => node.child(i).poly!);

/** An outer node with its direct holes, outer positive and holes negative. */
function nodeRegion(node: PolyPath64): Paths64 {
  return [toPositive(node.poly!), ...childPolys(node).map(toNegative)];
}

const toPositive = (path: Path64): Path64 => (Clipper.area(path) >= 0 ? path : Clipper.reversePath(path));
const toNegative = (path: Path64): Path64 => (Clipper.area(path) <= 0 ? path : Clipper.reversePath(path));

const regionArea = (region: Paths64): number => Math.abs(Clipper.areaPaths(region));

function locate(region: Paths64): FloorLocation {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (const ring of region) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const p = ring[j]!;
      const q = ring[i]!;
      const cross = p.x * q.y - q.x * p.y;
      a += cross;
      cx += (p.x + q.x) * cross;
      cy += (p.y + q.y) * cross;
    }
  }
  const bounds = Clipper.getBoundsPaths(region);
  const diagonal = Math.hypot(bounds.right - bounds.left, bounds.bottom - bounds.top);
  const fallback = { x: (bounds.left + bounds.right) / 2, y: (bounds.top + bounds.bottom) / 2 };
  const c = a === 0 ? fallback : { x: cx / (3 * a), y: cy / (3 * a) };
  return {
    x: round(c.y / UNITS_PER_MM),
    y: round(c.x / UNITS_PER_MM),
    r: round(diagonal / 2 / UNITS_PER_MM),
    areaMm2: round(regionArea(region) / UNITS_PER_MM ** 2),
  };
}

const transpose = (path: Path64): Path64 => path.map((p) => ({ x: p.y, y: p.x }));

const rectPath = (x0: number, y0: number, x1: number, y1: number): Path64 => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

const round = (value: number): number => Math.round(value * 1e4) / 1e4;

const ATTR = (name: string): RegExp => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`);
const attr = (tag: string, name: string): string | undefined => {
  const m = ATTR(name).exec(tag);
  return m ? (m[2] ?? m[3]) : undefined;
};

/**
 * Reads the contract's cutting SVG: root viewBox `0 0 L W`, `<g id="cutouts">` holding `<path d>`
 * with only absolute M, L, Z. Throws when the file is not of that shape; softer departures
 * (decimals, forbidden content) are returned as problems.
 */
export function parseCutoutsSvg(svg: string): ParsedSvg {
  const problems: string[] = [];
  const root = /<svg\b[^>]*>/.exec(svg);
  if (!root) throw new Error('cutouts.svg: no <svg> root element');
  const viewBox = attr(root[0], 'viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (!viewBox || viewBox.length !== 4 || viewBox.some((v) => !Number.isFinite(v))) {
    throw new Error('cutouts.svg: the root has no numeric viewBox');
  }
  const [x0, y0, lengthMm, widthMm] = viewBox as [number, number, number, number];
  if (x0 !== 0 || y0 !== 0) problems.push(`viewBox starts at ${x0} ${y0}, not 0 0`);
  if (!(lengthMm > 0 && widthMm > 0)) throw new Error('cutouts.svg: the viewBox has no area');
  for (const forbidden of ['<script', '<style', '<foreignObject', ' style=', '<image', '<use']) {
    if (svg.includes(forbidden)) problems.push(`contains ${forbidden.trim()}`);
  }
  const group = /<g\b[^>]*\bid\s*=\s*["']cutouts["'][^>]*>([\s\S]*?)<\/g>/.exec(svg);
  if (!group) throw new Error('cutouts.svg: no <g id="cutouts"> group');
  const cuts: Paths64[] = [];
  for (const tag of group[1]!.match(/<path\b[^>]*>/g) ?? []) {
    const d = attr(tag, 'd');
    if (d === undefined) throw new Error('cutouts.svg: a <path> without d');
    cuts.push(parsePathData(d, problems));
  }
  return { lengthMm, widthMm, cuts, problems };
}

function parsePathData(d: string, problems: string[]): Paths64 {
  const tokens = d.match(/[A-Za-z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? [];
  const rings: Paths64 = [];
  let ring: Path64 | undefined;
  let pendingX: string | undefined;
  for (const token of tokens) {
    if (/^[A-Za-z]$/.test(token)) {
      if (pendingX !== undefined) throw new Error(`cutouts.svg: odd number of coordinates in "${d.slice(0, 60)}"`);
      if (token === 'M') {
        ring = [];
        rings.push(ring);
      } else if (token === 'Z') {
        ring = undefined;
      } else if (token !== 'L') {
        throw new Error(`cutouts.svg: path command ${token} (only M, L, Z are allowed)`);
      }
      continue;
    }
    if (!/^-?\d+\.\d{3}$/.test(token) && problems.length < 20)
      problems.push(`number ${token} is not written with three decimals`);
    if (pendingX === undefined) {
      pendingX = token;
      continue;
    }
    if (!ring) throw new Error('cutouts.svg: coordinates before M or after Z');
    ring.push({ x: Math.round(Number(pendingX) * UNITS_PER_MM), y: Math.round(Number(token) * UNITS_PER_MM) });
    pendingX = undefined;
  }
  if (pendingX !== undefined) throw new Error('cutouts.svg: odd number of coordinates');
  return rings.filter((r) => r.length >= 3);
}
