import { twiceArea, type FinalCut, type Ring } from './rings.ts';

/**
 * The metal of the cutting file as closed loops with the metal on their left (positive area for
 * an outline, negative for an opening): the strip's L × W rectangle less every cut. Each metal
 * piece has one outline loop, made of the stretches of the rectangle's edge that stay metal and the
 * inner arcs of the cuts that reach the edge (material cut away at shaped ends); each cut that
 * does not reach the edge is an opening loop.
 */
interface MetalLoops {
  loops: Ring[];
  /** Per loop: the outline of a metal piece, or an opening (with the cut it came from). */
  kinds: ('outline' | 'opening')[];
  /** Metal left inside a cut: inside an opening it is a trapped island, inside an edge cut a detached piece. */
  islands: { x: number; y: number }[];
  detached: { x: number; y: number }[];
}

/** Perimeter position of a point on the rectangle's edge, counter-clockwise from (0, 0) in file axes. */
function perimeterAt(x: number, y: number, L: number, W: number): number {
  if (y === 0) return x;
  if (x === L) return L + y;
  if (y === W) return L + W + (L - x);
  return 2 * L + W + (W - y);
}

/** Both ends on the same side of the rectangle: the segment runs along its edge. */
const alongEdge = (ax: number, ay: number, bx: number, by: number, L: number, W: number) =>
  (ax === 0 && bx === 0) || (ax === L && bx === L) || (ay === 0 && by === 0) || (ay === W && by === W);

/** A ring turned so the metal lies on its left, as the cut's outline seen from the metal. */
function metalOnLeft(ring: Ring): Ring {
  if (twiceArea(ring) < 0) return ring;
  const n = ring.length >> 1;
  const out = new Int32Array(ring.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = ring[2 * (n - 1 - i)]!;
    out[2 * i + 1] = ring[2 * (n - 1 - i) + 1]!;
  }
  return out;
}

interface Arc {
  points: number[];
  from: number;
  to: number;
}

/** The stretches of a cut's outline inside the rectangle between two touches of its edge. */
function innerArcs(ring: Ring, L: number, W: number): Arc[] {
  const n = ring.length >> 1;
  const x = (k: number) => ring[2 * (k % n)]!;
  const y = (k: number) => ring[2 * (k % n) + 1]!;
  const edge = (k: number) => alongEdge(x(k), y(k), x(k + 1), y(k + 1), L, W);
  let k0 = -1;
  for (let k = 0; k < n; k++) {
    if (edge(k) && !edge(k + 1)) {
      k0 = k + 1;
      break;
    }
  }
  if (k0 < 0) return [];
  const arcs: Arc[] = [];
  for (let k = k0; k < k0 + n;) {
    if (edge(k)) {
      k++;
      continue;
    }
    const points = [x(k), y(k)];
    const from = perimeterAt(x(k), y(k), L, W);
    while (!edge(k) && k < k0 + n) {
      k++;
      points.push(x(k), y(k));
    }
    arcs.push({ points, from, to: perimeterAt(x(k), y(k), L, W) });
  }
  return arcs;
}

/** Builds the metal's loops from the rounded cuts on an L × W rectangle (file units). */
export function metalLoops(cuts: readonly FinalCut[], L: number, W: number): MetalLoops {
  const loops: Ring[] = [];
  const kinds: MetalLoops['kinds'] = [];
  const islands: MetalLoops['islands'] = [];
  const detached: MetalLoops['detached'] = [];
  const arcs: Arc[] = [];
  for (const cut of cuts) {
    const ring = metalOnLeft(cut.outer);
    const cutArcs = innerArcs(ring, L, W);
    const reachesEdge = cutArcs.length > 0;
    for (const hole of cut.holes) (reachesEdge ? detached : islands).push({ x: hole[0]!, y: hole[1]! });
    if (reachesEdge) {
      arcs.push(...cutArcs);
    } else {
      loops.push(ring);
      kinds.push('opening');
    }
  }
  for (const outline of outlines(arcs, L, W)) {
    loops.push(outline);
    kinds.push('outline');
  }
  return { loops, kinds, islands, detached };
}

/**
 * Walks the rectangle's edge counter-clockwise; at each place a cut leaves the edge it follows the
 * cut's inner arc to where it comes back, then carries on along the edge. Each closed walk is the
 * outline of one metal piece.
 */
function outlines(arcs: Arc[], L: number, W: number): Ring[] {
  const corners: [number, number, number][] = [
    [0, 0, 0],
    [L, L, 0],
    [L + W, L, W],
    [2 * L + W, 0, W],
  ];
  const perimeter = 2 * (L + W);
  if (arcs.length === 0) return [Int32Array.from([0, 0, L, 0, L, W, 0, W])];
  const order = arcs.map((_, i) => i).sort((a, b) => arcs[a]!.from - arcs[b]!.from);
  /** The first arc leaving the edge at or after perimeter position s. */
  const nextArc = (s: number): number => {
    for (const i of order) if (arcs[i]!.from >= s) return i;
    return order[0]!;
  };
  const visited = new Uint8Array(arcs.length);
  const out: Ring[] = [];
  for (const startArc of order) {
    if (visited[startArc]) continue;
    const points: number[] = [];
    const push = (px: number, py: number) => {
      const m = points.length;
      if (m >= 2 && points[m - 2] === px && points[m - 1] === py) return;
      points.push(px, py);
    };
    for (let a = startArc; !visited[a];) {
      visited[a] = 1;
      const arc = arcs[a]!;
      for (let p = 0; p < arc.points.length; p += 2) push(arc.points[p]!, arc.points[p + 1]!);
      const b = nextArc(arc.to);
      const to = arcs[b]!.from;
      const span = (to - arc.to + perimeter) % perimeter;
      for (const [s, cx, cy] of [...corners, ...corners.map(([s, cx, cy]) => [s + perimeter, cx, cy] as const)]) {
        const along = s - arc.to;
        if (along > 0 && along < span) push(cx, cy);
      }
      a = b;
    }
    if (points[0] === points.at(-2) && points[1] === points.at(-1)) points.splice(-2, 2);
    out.push(Int32Array.from(points));
  }
  return out;
}
