import type { CutRings } from './cut-rings.ts';
import type { FlatLayout } from './layout.ts';
import { PathData, type Pace } from './path-data.ts';

type Placing = Pick<FlatLayout, 'pxPerMm' | 'left' | 'top'>;

/** Points this close to the strip's border lie on it: the file writes thousandths. */
const BORDER_MM = 1e-3 + 1e-9;

/** The border lines a point lies on, as bits: 1 top, 2 right, 4 bottom, 8 left (a corner is on two). */
function bordersOf(x: number, y: number, cut: CutRings): number {
  return (
    (y <= BORDER_MM ? 1 : 0) |
    (x >= cut.lengthMm - BORDER_MM ? 2 : 0) |
    (y >= cut.widthMm - BORDER_MM ? 4 : 0) |
    (x <= BORDER_MM ? 8 : 0)
  );
}

function onBorder(ring: Float64Array, cut: CutRings): boolean {
  for (let i = 0; i < ring.length; i += 2) if (bordersOf(ring[i]!, ring[i + 1]!, cut) !== 0) return true;
  return false;
}

/** Rings between turns of the event loop. */
const RINGS_PER_PACE = 64;

/**
 * The metal as one even-odd path in the picture's pixels (`PathData` tenths): the strip's
 * rectangle, then every ring of every cut (each toggles air and metal). `outline` keeps only the
 * cuts on the border, which shape the piece's outline.
 */
export async function metalPath(cut: CutRings, at: Placing, pace: Pace, outline = false): Promise<string> {
  const { pxPerMm: s, left: x0, top: y0 } = at;
  const d = new PathData();
  d.move(x0, y0);
  d.line(x0 + cut.lengthMm * s, y0);
  d.line(x0 + cut.lengthMm * s, y0 + cut.widthMm * s);
  d.line(x0, y0 + cut.widthMm * s);
  d.close();
  for (let r = 0; r < cut.rings.length; r++) {
    if (r % RINGS_PER_PACE === 0) await pace();
    const ring = cut.rings[r]!;
    if (outline && !onBorder(ring, cut)) continue;
    d.move(x0 + ring[0]! * s, y0 + ring[1]! * s);
    for (let i = 2; i < ring.length; i += 2) d.line(x0 + ring[i]! * s, y0 + ring[i + 1]! * s);
    d.close();
  }
  return d.toString();
}

/**
 * Where metal meets air, as open lines to stroke (`PathData` tenths): every edge of every cut
 * except those lying on the strip's border, and the border itself except where a cut runs along
 * it (a shaped end took that metal away, so no edge is there).
 */
export async function edgeLines(cut: CutRings, at: Placing, pace: Pace): Promise<string> {
  const { pxPerMm: s, left: px0, top: py0 } = at;
  const d = new PathData();
  const taken: [number, number][][] = [[], [], [], []];
  for (let r = 0; r < cut.rings.length; r++) {
    if (r % RINGS_PER_PACE === 0) await pace();
    const ring = cut.rings[r]!;
    const n = ring.length / 2;
    let open = false;
    for (let j = 0; j < n; j++) {
      const k = (j + 1) % n;
      const x0 = ring[2 * j]!;
      const y0 = ring[2 * j + 1]!;
      const x1 = ring[2 * k]!;
      const y1 = ring[2 * k + 1]!;
      const common = bordersOf(x0, y0, cut) & bordersOf(x1, y1, cut);
      if (common !== 0) {
        const side = Math.log2(common & -common);
        taken[side]!.push(side % 2 === 0 ? [Math.min(x0, x1), Math.max(x0, x1)] : [Math.min(y0, y1), Math.max(y0, y1)]);
        open = false;
        continue;
      }
      if (!open) d.move(px0 + x0 * s, py0 + y0 * s);
      d.line(px0 + x1 * s, py0 + y1 * s);
      open = true;
    }
  }
  const sides: [number, (t: number) => [number, number]][] = [
    [cut.lengthMm, (t) => [t, 0]],
    [cut.widthMm, (t) => [cut.lengthMm, t]],
    [cut.lengthMm, (t) => [t, cut.widthMm]],
    [cut.widthMm, (t) => [0, t]],
  ];
  const segment = (a: [number, number], b: [number, number]) => {
    d.move(px0 + a[0] * s, py0 + a[1] * s);
    d.line(px0 + b[0] * s, py0 + b[1] * s);
  };
  sides.forEach(([length, point], side) => {
    let from = 0;
    for (const [a, b] of taken[side]!.sort((p, q) => p[0] - q[0])) {
      if (a > from) segment(point(from), point(a));
      from = Math.max(from, b);
    }
    if (from < length) segment(point(from), point(length));
  });
  return d.toString();
}
