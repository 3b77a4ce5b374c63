import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLuminance } from '../../../core/pipeline/stages/decode.ts';
import { potracePaths, type PotraceOptions, type PotracePath } from '../../../core/pipeline/potrace/paths.ts';
import { designFixtures } from '../../fixtures/pipeline/designs.ts';
import { referencePotracePaths } from '../../helpers/potrace-reference.ts';

/**
 * Our port of potrace (`core/pipeline/potrace/`) against the npm `potrace` package it derives
 * from (2.1.8, pinned), run as the pipeline ran it before: the same paths in the same order, with
 * the same signs, areas, bounds and pixel outlines, and the same curve tags and control points
 * within 1e-9 px.
 */

interface Bitmap {
  w: number;
  h: number;
  /** 1 = traced. */
  bits: Uint8Array;
}

/** What a path is, as plain data; a corner's unused first control point is left out. */
interface PathRecord {
  sign: string;
  area: number;
  box: number[];
  pt: number[];
  tag: string[];
  c: number[];
}

function record(path: PotracePath): PathRecord {
  const { curve } = path;
  const c: number[] = [];
  for (let i = 0; i < curve.n; i++) {
    for (let k = curve.tag[i] === 'CORNER' ? 1 : 0; k < 3; k++) c.push(curve.c[3 * i + k]!.x, curve.c[3 * i + k]!.y);
  }
  return {
    sign: path.sign,
    area: path.area,
    box: [path.minX, path.minY, path.maxX, path.maxY],
    pt: path.pt.flatMap((p) => [p.x, p.y]),
    tag: [...curve.tag],
    c,
  };
}

type Tracer = typeof potracePaths;

function traceWith(tracer: Tracer, { w, h, bits }: Bitmap, options: PotraceOptions): PathRecord[] {
  const paths: PathRecord[] = [];
  const fill = (data: Uint8Array) => data.set(bits);
  const isTraced = (x: number, y: number) => bits[y * w + x] === 1;
  tracer(w, h, fill, isTraced, options, (path) => paths.push(record(path)));
  return paths;
}

/** The first difference between the two tracings, or undefined when they agree. */
function difference(ours: PathRecord[], reference: PathRecord[]): string | undefined {
  if (ours.length !== reference.length) return `${ours.length} paths, the package ${reference.length}`;
  for (let i = 0; i < ours.length; i++) {
    const a = ours[i]!;
    const b = reference[i]!;
    const exact = ['sign', 'area', 'box', 'pt', 'tag'] as const;
    for (const key of exact) {
      if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) {
        return `path ${i}: ${key} ${JSON.stringify(a[key]).slice(0, 200)}, the package ${JSON.stringify(b[key]).slice(0, 200)}`;
      }
    }
    if (a.c.length !== b.c.length) return `path ${i}: ${a.c.length / 2} control points, the package ${b.c.length / 2}`;
    for (let k = 0; k < a.c.length; k++) {
      if (!(Math.abs(a.c[k]! - b.c[k]!) <= 1e-9))
        return `path ${i}: control value ${k} ${a.c[k]}, the package ${b.c[k]}`;
    }
  }
  return undefined;
}

function expectSameAsPackage(bitmap: Bitmap, options: PotraceOptions): number {
  const reference = traceWith(referencePotracePaths, bitmap, options);
  const ours = traceWith(potracePaths, bitmap, options);
  expect(difference(ours, reference)).toBeUndefined();
  return ours.length;
}

const options = fc.record({
  alphaMax: fc.constantFrom(0, 0.5, 0.8, 1, 1.2, 4 / 3),
  optCurve: fc.boolean(),
});

/** Pixel noise: single pixels, diagonal contacts and regions on every border. */
const noise = fc
  .record({
    w: fc.integer({ min: 1, max: 24 }),
    h: fc.integer({ min: 1, max: 24 }),
    density: fc.integer({ min: 1, max: 255 }),
  })
  .chain(({ w, h, density }) =>
    fc.uint8Array({ minLength: w * h, maxLength: w * h }).map((bytes) => ({
      w,
      h,
      bits: bytes.map((b) => (b < density ? 1 : 0)),
    })),
  );

const shape = fc.record({
  kind: fc.constantFrom('disc', 'rect', 'ring'),
  cx: fc.double({ min: -10, max: 130, noNaN: true }),
  cy: fc.double({ min: -10, max: 90, noNaN: true }),
  r: fc.double({ min: 0.3, max: 40, noNaN: true }),
  aspect: fc.double({ min: 0.1, max: 3, noNaN: true }),
  value: fc.constantFrom(0, 1, 1),
});

/** Blobs with holes, islands in the holes, rings and slivers, some cut by the border. */
const blobs = fc
  .record({
    w: fc.integer({ min: 8, max: 120 }),
    h: fc.integer({ min: 8, max: 80 }),
    shapes: fc.array(shape, { minLength: 1, maxLength: 12 }),
  })
  .map(({ w, h, shapes }) => {
    const bits = new Uint8Array(w * h);
    for (const s of shapes) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const dx = (x + 0.5 - s.cx) / s.aspect;
          const dy = y + 0.5 - s.cy;
          const d = Math.hypot(dx, dy);
          const inside =
            s.kind === 'disc'
              ? d < s.r
              : s.kind === 'ring'
                ? d < s.r && d > s.r * 0.6
                : Math.abs(dx) < s.r && Math.abs(dy) < s.r / 2;
          if (inside) bits[y * w + x] = s.value;
        }
      }
    }
    return { w, h, bits };
  });

describe('our potrace port against the npm potrace package', () => {
  it('traces pixel noise the same: single pixels, diagonal contacts, regions along every border', () => {
    fc.assert(
      fc.property(noise, options, (bitmap, opts) => {
        expectSameAsPackage(bitmap, opts);
      }),
      { numRuns: 400 },
    );
  });

  it('traces blobs with holes, islands, rings and slivers the same, some cut by the border', () => {
    fc.assert(
      fc.property(blobs, options, (bitmap, opts) => {
        expectSameAsPackage(bitmap, opts);
      }),
      { numRuns: 150 },
    );
  });

  it('traces an all-traced, an empty and a one-pixel bitmap the same', () => {
    const pipeline = { alphaMax: 0.8, optCurve: true };
    expect(expectSameAsPackage({ w: 7, h: 5, bits: new Uint8Array(35).fill(1) }, pipeline)).toBe(1);
    expect(expectSameAsPackage({ w: 7, h: 5, bits: new Uint8Array(35) }, pipeline)).toBe(0);
    expect(expectSameAsPackage({ w: 1, h: 1, bits: new Uint8Array([1]) }, pipeline)).toBe(1);
  });

  it('traces a region spanning the whole width once, along the border (the package looped forever on a 1 x 3 one)', () => {
    const pipeline = { alphaMax: 0.8, optCurve: true };
    const column = traceWith(potracePaths, { w: 1, h: 3, bits: new Uint8Array([1, 1, 1]) }, pipeline);
    expect(column.map(({ sign, area, box, pt }) => ({ sign, area, box, pt }))).toEqual([
      { sign: '+', area: 3, box: [0, 0, 1, 3], pt: [0, 0, 0, 1, 0, 2, 0, 3, 1, 3, 1, 2, 1, 1, 1, 0] },
    ]);
    const band = traceWith(potracePaths, { w: 3, h: 2, bits: new Uint8Array(6).fill(1) }, pipeline);
    expect(band.map(({ area, box }) => ({ area, box }))).toEqual([{ area: 6, box: [0, 0, 3, 2] }]);
  });
});

/** A drawing's air (white) or brass (black) at its own resolution. */
async function drawingBitmap(png: Uint8Array, traced: 'air' | 'brass'): Promise<Bitmap> {
  const { w, h, lum } = await decodeLuminance(png, 30_000_000);
  const air = traced === 'air' ? 1 : 0;
  return { w, h, bits: lum.map((l) => (l >= 128 ? air : 1 - air)) };
}

const benchDir = join(import.meta.dirname, '../../../../shared/bench');
const pipelineOptions = { alphaMax: 0.8, optCurve: true };

describe('our potrace port against the package on the drawings', () => {
  for (const file of [
    'strip-100-holes-1536x1024.png',
    'lace-530-holes-1536x1024.png',
    'lace-2200-holes-1536x1024.png',
  ]) {
    it(`traces the bench drawing ${file} the same, air and brass`, async () => {
      const png = readFileSync(join(benchDir, file));
      expect(expectSameAsPackage(await drawingBitmap(png, 'air'), pipelineOptions)).toBeGreaterThan(100);
      expect(expectSameAsPackage(await drawingBitmap(png, 'brass'), { alphaMax: 1, optCurve: false })).toBeGreaterThan(
        100,
      );
    }, 60_000);
  }

  it('traces the air of every fixture drawing the same', async () => {
    for (const fixture of designFixtures) {
      const bitmap = await drawingBitmap(await fixture.png(), 'air');
      expectSameAsPackage(bitmap, pipelineOptions);
    }
  }, 120_000);
});
