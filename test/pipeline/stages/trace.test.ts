import { describe, expect, it } from 'vitest';
import type { CutPolygon, Point } from '../../../core/pipeline/vector/cuts.ts';
import { cubicAt, flattenCurve, type PixelToMm } from '../../../core/pipeline/vector/flatten.ts';
import { potracePaths, type PotraceCurve, type PotracePath } from '../../../core/pipeline/potrace/paths.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { ringArea } from '../../../core/pipeline/vector/ring-geometry.ts';
import { traceCuts } from '../../../core/pipeline/stages/trace.ts';

type Shape = (x: number, y: number) => boolean;

/** An all-metal strip of w × h pixels. */
const strip = (w: number, h: number, mmPerPxX: number, mmPerPxY = mmPerPxX): StripRaster => ({
  w,
  h,
  data: new Uint8Array(w * h).fill(1),
  mmPerPxX,
  mmPerPxY,
});

/** Sets to `value` (0 = air) every pixel whose centre lies in the shape (looking only within `near`). */
function paint(raster: StripRaster, shape: Shape, value = 0, near = [0, 0, raster.w, raster.h]): StripRaster {
  const [x0, y0, x1, y1] = near.map(Math.floor) as [number, number, number, number];
  for (let y = Math.max(0, y0); y < Math.min(raster.h, y1 + 1); y++)
    for (let x = Math.max(0, x0); x < Math.min(raster.w, x1 + 1); x++)
      if (shape(x + 0.5, y + 0.5)) raster.data[y * raster.w + x] = value;
  return raster;
}

const disc =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 < r * r;

/** A rectangle of the given length and width centred on (cx, cy), turned by `angle` radians. */
const slot =
  (cx: number, cy: number, length: number, width: number, angle: number): Shape =>
  (x, y) => {
    const u = (x - cx) * Math.cos(angle) + (y - cy) * Math.sin(angle);
    const v = -(x - cx) * Math.sin(angle) + (y - cy) * Math.cos(angle);
    return Math.abs(u) < length / 2 && Math.abs(v) < width / 2;
  };

function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

function ringDistance(p: Point, ring: readonly Point[], closed = true): number {
  let d = Infinity;
  const last = closed ? ring.length : ring.length - 1;
  for (let i = 0; i < last; i++) d = Math.min(d, segmentDistance(p, ring[i]!, ring[(i + 1) % ring.length]!));
  return d;
}

/** Points along every edge of a ring: its vertices and `perEdge - 1` between each pair. */
function alongRing(ring: readonly Point[], perEdge: number): Point[] {
  const out: Point[] = [];
  ring.forEach((a, i) => {
    const b = ring[(i + 1) % ring.length]!;
    for (let k = 0; k < perEdge; k++)
      out.push([a[0] + ((b[0] - a[0]) * k) / perEdge, a[1] + ((b[1] - a[1]) * k) / perEdge]);
  });
  return out;
}

const box = (ring: readonly Point[]) => ({
  minX: Math.min(...ring.map((p) => p[0])),
  maxX: Math.max(...ring.map((p) => p[0])),
  minY: Math.min(...ring.map((p) => p[1])),
  maxY: Math.max(...ring.map((p) => p[1])),
});

/** The cut whose outer ring's bounding box holds the point (x, y) in millimetres. */
function cutAt(cuts: CutPolygon[], x: number, y: number): CutPolygon {
  const found = cuts.filter((c) => {
    const b = box(c.outer);
    return b.minX <= x && x <= b.maxX && b.minY <= y && y <= b.maxY;
  });
  expect(found).toHaveLength(1);
  return found[0]!;
}

const cutArea = (c: CutPolygon) => ringArea(c.outer) + c.holes.reduce((s, h) => s + ringArea(h), 0);

describe('traceCuts: openings', () => {
  it('traces each round opening as one cut within 2 % of its area and 0.5 px + tolerance of its circle', () => {
    const mm = 0.05;
    const tol = 0.02;
    const discs: [number, number, number][] = [
      [90.3, 100.2, 30],
      [270.7, 90.4, 40],
      [480.1, 105.5, 55.5],
    ];
    const raster = strip(640, 220, mm);
    for (const [cx, cy, r] of discs) paint(raster, disc(cx, cy, r));
    const cuts = traceCuts(raster, { toleranceMm: tol });
    expect(cuts).toHaveLength(3);
    for (const [cx, cy, r] of discs) {
      const cut = cutAt(cuts, cx * mm, cy * mm);
      expect(cut.holes).toEqual([]);
      expect(Math.abs(ringArea(cut.outer) / (Math.PI * (r * mm) ** 2) - 1)).toBeLessThan(0.02);
      for (const [x, y] of alongRing(cut.outer, 8)) {
        expect(Math.abs(Math.hypot(x / mm - cx, y / mm - cy) - r)).toBeLessThanOrEqual(0.5 + tol / mm);
      }
    }
  });

  it('holds the tolerance in millimetres when the two axes have different scales', () => {
    const [sx, sy] = [0.05, 0.08];
    const tol = 0.02;
    const [cx, cy, r] = [100.4, 60.3, 35];
    const raster = paint(strip(200, 120, sx, sy), disc(cx, cy, r));
    const [cut] = traceCuts(raster, { toleranceMm: tol });
    expect(Math.abs(ringArea(cut!.outer) / (Math.PI * r * r * sx * sy) - 1)).toBeLessThan(0.02);
    for (const [x, y] of alongRing(cut!.outer, 8)) {
      expect(Math.abs(Math.hypot(x / sx - cx, y / sy - cy) - r)).toBeLessThanOrEqual(0.5 + tol / Math.min(sx, sy));
    }
  });

  it('traces a diagonal slot as one cut hugging the slot', () => {
    const mm = 0.05;
    const shape = { cx: 150.2, cy: 80.7, length: 160, width: 14, angle: Math.PI / 6 };
    const raster = paint(strip(300, 160, mm), slot(shape.cx, shape.cy, shape.length, shape.width, shape.angle));
    const cuts = traceCuts(raster);
    expect(cuts).toHaveLength(1);
    const area = ringArea(cuts[0]!.outer) / (mm * mm);
    expect(Math.abs(area / (shape.length * shape.width) - 1)).toBeLessThan(0.02);
    const { cx, cy, length, width, angle } = shape;
    const [c, s] = [Math.cos(angle), Math.sin(angle)];
    const corner = (u: number, v: number): Point => [cx + u * c - v * s, cy + u * s + v * c];
    const [u, v] = [length / 2, width / 2];
    const rect = [corner(-u, -v), corner(u, -v), corner(u, v), corner(-u, v)];
    for (const [x, y] of alongRing(cuts[0]!.outer, 4)) {
      // Potrace rounds the slot's sharp corners a little; elsewhere it follows the staircase.
      expect(ringDistance([x / mm, y / mm], rect)).toBeLessThan(1.5);
    }
  });

  it('keeps an island left inside an opening as a hole of that cut, and an opening in the island as its own cut', () => {
    const mm = 0.05;
    const raster = strip(400, 200, mm);
    paint(raster, disc(100.5, 100.5, 70));
    paint(raster, disc(100.5, 100.5, 35), 1);
    paint(raster, disc(100.5, 100.5, 16));
    paint(raster, disc(300.5, 100.5, 60));
    paint(raster, disc(280.5, 90.5, 20), 1);
    const cuts = traceCuts(raster);
    expect(cuts).toHaveLength(3);
    const outerLeft = cutAt(cuts, 40 * mm, 100 * mm);
    const inner = cuts.find((c) => box(c.outer).maxX < 120 * mm)!;
    const right = cutAt(cuts, 250 * mm, 100 * mm);
    expect(outerLeft.holes).toHaveLength(1);
    expect(inner.holes).toHaveLength(0);
    expect(right.holes).toHaveLength(1);
    expect(ringArea(outerLeft.outer)).toBeGreaterThan(0);
    expect(ringArea(outerLeft.holes[0]!)).toBeLessThan(0);
    const islandArea = -ringArea(outerLeft.holes[0]!) / (mm * mm);
    expect(Math.abs(islandArea / (Math.PI * 35 * 35) - 1)).toBeLessThan(0.02);
    expect(Math.abs(cutArea(outerLeft) / (Math.PI * (70 * 70 - 35 * 35) * mm * mm) - 1)).toBeLessThan(0.02);
    expect(Math.abs(ringArea(inner.outer) / (Math.PI * 256 * mm * mm) - 1)).toBeLessThan(0.05);
    const b = box(right.holes[0]!);
    expect((b.minX + b.maxX) / 2 / mm).toBeCloseTo(280.5, 0);
  });

  it('keeps air that touches only at a pixel corner apart, as metal is 8-connected', () => {
    const raster = strip(40, 40, 0.1);
    paint(raster, (x, y) => x > 10 && x < 20 && y > 10 && y < 20);
    paint(raster, (x, y) => x > 20 && x < 30 && y > 20 && y < 30);
    expect(traceCuts(raster)).toHaveLength(2);
  });

  it('returns no cut for solid metal and the whole strip for solid air', () => {
    expect(traceCuts(strip(50, 20, 0.1))).toEqual([]);
    const air = traceCuts(paint(strip(50, 20, 0.1, 0.2), () => true));
    expect(air).toHaveLength(1);
    expect(ringArea(air[0]!.outer)).toBeCloseTo(5 * 4, 9);
    for (const [x, y] of air[0]!.outer) expect([0, 5].includes(x) || [0, 4].includes(y)).toBe(true);
  });

  it('leaves its input untouched', () => {
    const raster = paint(strip(100, 60, 0.1), disc(50, 30, 20));
    const before = raster.data.slice();
    traceCuts(raster);
    expect(raster.data).toEqual(before);
  });

  it('traces thousands of small openings on a long strip', () => {
    const raster = strip(3100, 1100, 0.058);
    for (let i = 0; i < 100; i++) {
      for (let j = 0; j < 20; j++) {
        const [cx, cy] = [15 + i * 30.7, 30 + j * 52.3];
        paint(raster, disc(cx, cy, 8), 0, [cx - 9, cy - 9, cx + 9, cy + 9]);
      }
    }
    const cuts = traceCuts(raster);
    expect(cuts).toHaveLength(2000);
    // Openings this small (0.46 mm radius) come out a few per cent small: potrace rounds inwards
    // by about 0.2 px.
    for (const cut of cuts) expect(Math.abs(ringArea(cut.outer) / (Math.PI * (8 * 0.058) ** 2) - 1)).toBeLessThan(0.1);
  });
});

describe('traceCuts: the strip edge', () => {
  const mm = 0.1;
  const [w, h] = [300, 120];
  const [L, W] = [w * mm, h * mm];
  const raster = strip(w, h, mm);
  paint(raster, (x, y) => x < 30 && y < 20); // a corner cut away
  paint(raster, disc(150.4, 120, 40)); // a half disc bitten out of the long edge
  paint(raster, (x, y) => x > 280 && y > 40 && y < 80); // a notch in the end
  paint(raster, disc(290, 60, 6), 1); // metal inside the notch, touching no edge
  const cuts = traceCuts(raster);
  const onEdge = (p: Point) => p[0] === 0 || p[0] === L || p[1] === 0 || p[1] === W;

  it('closes each region along the edge, with coordinates exactly on it', () => {
    expect(cuts).toHaveLength(3);
    for (const cut of cuts) {
      for (const [x, y] of [cut.outer, ...cut.holes].flat()) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(L);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(W);
      }
    }
    const corner = cutAt(cuts, 1, 1);
    expect(corner.outer.map((p) => p.join(' '))).toEqual(expect.arrayContaining(['0 0', '0 2', '3 0', '3 2']));
    for (const [x, y] of corner.outer) expect(x === 0 || x === 3 || y === 0 || y === 2).toBe(true);
    expect(ringArea(corner.outer)).toBeCloseTo(6, 9);
  });

  it('follows the edge exactly between where the outline meets it', () => {
    const half = cutAt(cuts, 15.04, 11.9);
    const along = half.outer.filter((p, i) => {
      const q = half.outer[(i + 1) % half.outer.length]!;
      return p[1] === W && q[1] === W;
    });
    expect(along).toHaveLength(1);
    const edgePoints = half.outer.filter((p) => p[1] === W).map((p) => p[0] / mm);
    // Within the pixel staircase (its last row spans 110..191 px) and potrace's smoothing.
    expect(Math.abs(Math.min(...edgePoints) - (150.4 - 40))).toBeLessThan(1);
    expect(Math.abs(Math.max(...edgePoints) - (150.4 + 40))).toBeLessThan(1);
    expect(half.outer.filter(onEdge)).toHaveLength(2);
    expect(Math.abs(ringArea(half.outer) / ((Math.PI * 40 * 40 * mm * mm) / 2) - 1)).toBeLessThan(0.02);
  });

  it('keeps metal left inside an edge region as a hole', () => {
    const notch = cutAt(cuts, 29.5, 6);
    expect(notch.outer.filter((p) => p[0] === L).map((p) => p[1] / mm)).toEqual(expect.arrayContaining([40, 80]));
    expect(notch.holes).toHaveLength(1);
    expect(Math.abs(-ringArea(notch.holes[0]!) / (Math.PI * 36 * mm * mm) - 1)).toBeLessThan(0.1);
    expect(Math.abs(cutArea(notch) / ((20 * 40 - Math.PI * 36) * mm * mm) - 1)).toBeLessThan(0.02);
  });
});

describe('flattenCurve', () => {
  /** Potrace's own curves for a few openings, to flatten at several tolerances. */
  function tracedCurves(): PotraceCurve[] {
    const raster = strip(260, 120, 1);
    paint(raster, disc(50.3, 60.2, 30));
    paint(raster, disc(120.7, 50.1, 7.5));
    paint(raster, slot(190, 60, 90, 16, 1.1));
    const curves: PotraceCurve[] = [];
    const air = (x: number, y: number) => raster.data[y * raster.w + x] === 0;
    const fill = (out: Uint8Array) => out.forEach((_, i) => (out[i] = raster.data[i] === 0 ? 1 : 0));
    const keep = (path: PotracePath) => curves.push(structuredClone(path.curve));
    potracePaths(raster.w, raster.h, fill, air, { alphaMax: 1, optCurve: true }, keep);
    return curves;
  }

  /** The traced curve in millimetres, densely sampled as an open polyline, segment by segment. */
  function sampleCurve(curve: PotraceCurve, map: PixelToMm, perSegment: number): Point[] {
    const mm = (i: number): Point => [(curve.c[i]!.x - map.ox) * map.sx, (curve.c[i]!.y - map.oy) * map.sy];
    let start = mm((curve.n - 1) * 3 + 2);
    const out: Point[] = [start];
    for (let i = 0; i < curve.n; i++) {
      const end = mm(i * 3 + 2);
      if (curve.tag[i] === 'CORNER') out.push(mm(i * 3 + 1), end);
      else
        for (let k = 1; k <= perSegment; k++) out.push(cubicAt(start, mm(i * 3), mm(i * 3 + 1), end, k / perSegment));
      start = end;
    }
    return out;
  }

  const curves = tracedCurves();

  it('gets curves and corners from potrace', () => {
    expect(curves).toHaveLength(3);
    const tags = curves.flatMap((c) => c.tag);
    expect(tags).toContain('CURVE');
    expect(tags).toContain('CORNER');
  });

  for (const [sx, sy, tol] of [
    [0.05, 0.05, 0.02],
    [0.05, 0.08, 0.02],
    [0.1, 0.03, 0.005],
    [0.06, 0.06, 0.1],
  ] as const) {
    it(`never strays more than ${tol} mm from the curve, either way (${sx} × ${sy} mm/px)`, () => {
      const map = { sx, sy, ox: 0, oy: 0 };
      for (const curve of curves) {
        const ring = flattenCurve(curve, map, tol);
        const dense = sampleCurve(curve, map, 400);
        // The dense polyline is itself within ~1e-6 mm of the curve at this sampling.
        const slack = 1e-5;
        for (const p of dense) expect(ringDistance(p, ring)).toBeLessThanOrEqual(tol + slack);
        for (const p of alongRing(ring, 10)) expect(ringDistance(p, dense, false)).toBeLessThanOrEqual(tol + slack);
      }
    });
  }

  it('keeps corner vertices and segment ends exactly', () => {
    const map = { sx: 0.05, sy: 0.07, ox: 3, oy: 1 };
    for (const curve of curves) {
      const ring = flattenCurve(curve, map, 0.02).map((p) => p.join(' '));
      for (let i = 0; i < curve.n; i++) {
        const exact = curve.tag[i] === 'CORNER' ? [i * 3 + 1, i * 3 + 2] : [i * 3 + 2];
        for (const k of exact) {
          const p = curve.c[k]!;
          expect(ring).toContain(`${(p.x - 3) * 0.05} ${(p.y - 1) * 0.07}`);
        }
      }
    }
  });

  /**
   * The apex of a zigzag lace's opening as potrace smooths it (traced on the working raster, moved
   * to the origin): two cubics meeting at a 90° bend through control arms of 0.4 px against 15 px,
   * closed by a corner. Moved to the convex side, the pieces next to the apex jumped past it and
   * back: the contour folded over itself by 5-10 µm there.
   */
  const apex: PotraceCurve = {
    n: 3,
    tag: ['CURVE', 'CURVE', 'CORNER'],
    c: [
      { x: 29.8385, y: 10 },
      { x: 20.56, y: 1.0475 },
      { x: 20.1839, y: 1.1055 },
      { x: 19.8078, y: 1.1635 },
      { x: 10.725, y: 10.1464 },
      { x: 0, y: 21.0675 },
      { x: 20, y: 60 },
      { x: 20, y: 60 },
      { x: 40.8028, y: 21 },
    ],
  };

  it('follows a sharp bend between two cubics without stepping back on itself', () => {
    const map = { sx: 0.05, sy: 0.05, ox: 0, oy: 0 };
    const ring = flattenCurve(apex, map, 0.02);
    // Both cubics run right to left all the way, and so must every piece of their polyline.
    const arc = ring.slice(0, ring.findIndex((p) => p[0] === 0) + 1);
    const steps = arc.slice(1).map((p, i) => p[0] - arc[i]![0]);
    expect(steps.filter((dx) => dx >= 0)).toEqual([]);
    const dense = sampleCurve(apex, map, 2000);
    for (const p of dense) expect(ringDistance(p, ring)).toBeLessThanOrEqual(0.02 + 1e-5);
    for (const p of alongRing(ring, 10)) expect(ringDistance(p, dense, false)).toBeLessThanOrEqual(0.02 + 1e-5);
  });

  it('centres the polyline on the curve rather than cutting inside it', () => {
    const map = { sx: 0.05, sy: 0.05, ox: 0, oy: 0 };
    const big = curves.reduce((a, b) => (a.n > b.n ? a : b));
    const exact = Math.abs(ringArea(sampleCurve(big, map, 2000)));
    const coarse = Math.abs(ringArea(flattenCurve(big, map, 0.05)));
    const perimeter = sampleCurve(big, map, 200).reduce(
      (s, p, i, all) => s + (i ? Math.hypot(p[0] - all[i - 1]![0], p[1] - all[i - 1]![1]) : 0),
      0,
    );
    // Plain chords would lose about two thirds of the tolerance along the whole perimeter.
    expect(Math.abs(coarse - exact)).toBeLessThan(0.25 * 0.05 * perimeter);
  });
});
