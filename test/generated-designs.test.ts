import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../core/config.ts';
import { drawingHints } from '../core/jobs/drawing-hints.ts';
import { inspectPngHeader } from '../core/submissions/png-header.ts';
import { stripPx } from './fixtures/pipeline/draw.ts';
import {
  DESIGN_KINDS,
  designArbitrary,
  describeDesign,
  IMAGE_LIMITS,
  PRODUCT_LIMITS,
  sampleDesigns,
  type DesignKind,
  type GeneratedDesign,
} from './fixtures/pipeline/generated/index.ts';
import { decodeGrey, designMismatches, inkBox } from './fixtures/pipeline/generated/pixels.ts';

const SEED = 20_240_611;
/** Canvases up to 2048x1365 keep the rendering tests to a few seconds; one test draws the largest. */
const MODEST = { maxCanvasPixels: 2048 * 1365 };

const num = (d: GeneratedDesign, key: string): number => {
  const v = d.params[key];
  if (typeof v !== 'number') throw new Error(`${d.id}: params.${key} is ${String(v)}`);
  return v;
};

/** The class-specific probes (beside the two that cross the strip's ends). */
const classProbes = (d: GeneratedDesign) => d.facts.probes.filter((p) => !p.what.includes(' end ('));

async function expectValidPng(d: GeneratedDesign, png: Buffer): Promise<void> {
  expect(png.length, d.id).toBeLessThanOrEqual(IMAGE_LIMITS.maxBytes);
  expect(inspectPngHeader(png, defaultConfig.image).ok, d.id).toBe(true);
  const meta = await sharp(png).metadata();
  expect(meta, d.id).toMatchObject({ format: 'png', width: d.canvas.width, height: d.canvas.height, hasAlpha: false });
  // 8-bit greyscale (colour type 0) or a 1-bit palette (colour type 3).
  expect([png[25], png[24]], d.id).toEqual(d.params.png === 'grey' ? [0, 8] : [3, 1]);
}

describe('generated designs', () => {
  it.each(DESIGN_KINDS.map((kind, i) => [kind, SEED + 100 * i] as const))(
    '%s: each sampled design renders a valid two-tone PNG at the job ratio whose pixels show what was drawn',
    async (kind, seed) => {
      const designs = sampleDesigns(seed, 2, { kinds: [kind], ...MODEST });
      for (const d of designs) {
        expect(d.kind).toBe(kind);
        expect(d.svg()).toContain('shape-rendering="crispEdges"');
        const png = await d.png();
        await expectValidPng(d, png);
        expect(await designMismatches(d, png), describeDesign(d)).toEqual([]);
        const box = inkBox(await decodeGrey(png))!;
        const ratio = d.job.lengthMm / d.job.widthMm;
        expect(Math.abs(box.width / box.height / ratio - 1), d.id).toBeLessThan(0.01);
      }
    },
  );

  it('the bar class: the bar has its drawn number of pixels across at its middle', async () => {
    const [d] = sampleDesigns(SEED + 1, 1, { kinds: ['bar'], ...MODEST });
    const bars = classProbes(d!);
    expect(bars.length).toBeGreaterThanOrEqual(1);
    for (const p of bars) expect(p.runs.map(([ink]) => ink)).toEqual([false, true, false]);
    expect(bars.every((p) => p.runs[1]![1] === num(d!, 'barPx'))).toBe(true);
    expect(await designMismatches(d!, await d!.png())).toEqual([]);
  });

  it('the pixel check names a drawing that departs from its facts', async () => {
    const [d] = sampleDesigns(SEED + 1, 1, { kinds: ['bar'], ...MODEST });
    const png = await d!.png();
    const [probe, ...rest] = classProbes(d!);
    const wider = { ...probe!, runs: probe!.runs.map(([ink, n]): [boolean, number] => [ink, ink ? n + 1 : n]) };
    const ends = d!.facts.probes.filter((p) => !classProbes(d!).includes(p));
    const tampered = { ...d!, facts: { ...d!.facts, probes: [...ends, wider, ...rest], islands: [{ x: 0, y: 0 }] } };
    const found = await designMismatches(tampered, png);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^island at \(0, 0\) is paper/);
    expect(found[1]).toContain(probe!.what);
  });

  it('edge-holes: the rim between a hole and the strip edge has its drawn pixels', async () => {
    const [d] = sampleDesigns(SEED + 2, 1, { kinds: ['edge-holes'], ...MODEST });
    const rims = classProbes(d!);
    expect(rims.length).toBeGreaterThanOrEqual(1);
    for (const p of rims) expect(p.runs.find(([ink]) => ink)![1]).toBe(num(d!, 'rimPx'));
    expect(await designMismatches(d!, await d!.png())).toEqual([]);
  });

  it('island and plain letters: each island is its own region, apart from the wall; stencil letters leave none', async () => {
    const [island] = sampleDesigns(SEED + 3, 1, { kinds: ['island'], ...MODEST });
    expect(island!.facts.islands).toHaveLength(num(island!, 'islands'));
    for (const p of classProbes(island!)) expect(p.runs.map(([ink]) => ink)).toEqual([true, false, true, false, true]);
    expect(await designMismatches(island!, await island!.png())).toEqual([]);
    const words = fc.sample(
      designArbitrary({ kinds: ['letters'], ...MODEST }).filter((d) => num(d, 'counters') > 0),
      { seed: SEED, numRuns: 20 },
    );
    const plain = words.find((d) => d.params.style === 'plain')!;
    const stencil = words.find((d) => d.params.style === 'stencil')!;
    expect(plain.facts.islands).toHaveLength(num(plain, 'counters'));
    expect(stencil.facts.islands).toEqual([]);
    for (const d of [plain, stencil]) expect(await designMismatches(d, await d.png()), d.id).toEqual([]);
  });

  it('the same seed gives the same designs and identical PNG bytes', async () => {
    const first = sampleDesigns(99, 6);
    const second = sampleDesigns(99, 6);
    expect(second.map((d) => d.id)).toEqual(first.map((d) => d.id));
    expect(second.map((d) => d.svg())).toEqual(first.map((d) => d.svg()));
    const small = first.filter((d) => d.canvas.width * d.canvas.height <= MODEST.maxCanvasPixels).slice(0, 2);
    for (const d of small) expect((await d.png()).equals(await second[first.indexOf(d)]!.png())).toBe(true);
  });

  it('jobs respect the product limits and sit where job.drawing.stripPx puts them on the recommended canvas', () => {
    for (const d of sampleDesigns(SEED, 400)) {
      const { productType, lengthMm, widthMm } = d.job;
      const limits = PRODUCT_LIMITS[productType];
      expect(lengthMm).toBeGreaterThanOrEqual(limits.lengthMm[0]);
      expect(lengthMm).toBeLessThanOrEqual(limits.lengthMm[1]);
      expect(widthMm).toBeGreaterThanOrEqual(limits.widthMm[0]);
      expect(widthMm).toBeLessThanOrEqual(limits.widthMm[1]);
      expect(lengthMm / widthMm).toBeLessThanOrEqual(PRODUCT_LIMITS.maxRatio);
      // The generator's own ranges, inside the product's.
      const [l0, l1, w0, w1] = productType === 'ring' ? [50, 70, 4, 12] : [120, 200, 8, 40];
      expect([lengthMm >= l0, lengthMm <= l1, widthMm >= w0, widthMm <= w1]).toEqual([true, true, true, true]);
      const { width, height } = d.canvas;
      expect(Math.min(width, height)).toBeGreaterThanOrEqual(IMAGE_LIMITS.minShortSidePx);
      expect(Math.max(width, height)).toBeLessThanOrEqual(IMAGE_LIMITS.maxLongSidePx);
      expect(width * height).toBeLessThanOrEqual(IMAGE_LIMITS.maxPixels);
      if (width === 1536 && height === 1024) {
        const { mmPerPx: _, ...box } = stripPx(lengthMm, widthMm);
        expect(box).toEqual(drawingHints(lengthMm, widthMm, defaultConfig).stripPx);
        expect(d.facts.piece).toEqual(box);
      }
    }
  });

  it('draws mostly on the recommended canvas, and never over maxCanvasPixels', () => {
    const designs = sampleDesigns(SEED, 400);
    const share = (w: number): number => designs.filter((d) => d.canvas.width === w).length / designs.length;
    expect(share(1536)).toBeGreaterThan(0.45);
    expect(share(2048) + share(3072)).toBeGreaterThan(0.15);
    expect(share(1536) + share(2048) + share(3072)).toBeLessThan(1);
    for (const d of sampleDesigns(SEED, 100, { maxCanvasPixels: 1536 * 1024 })) {
      expect(d.canvas).toEqual({ width: 1536, height: 1024 });
    }
    const tiny = sampleDesigns(SEED, 5, { maxCanvasPixels: 600_000 });
    for (const d of tiny) expect(d.canvas.width * d.canvas.height).toBeLessThanOrEqual(600_000);
  });

  it('covers both sides of every floor it straddles', () => {
    const sample = (kind: DesignKind): GeneratedDesign[] => sampleDesigns(SEED, 150, { kinds: [kind] });
    const bothSides = (values: number[], floor: number, what: string): void => {
      expect(
        values.some((v) => v < floor),
        `${what} below ${floor}`,
      ).toBe(true);
      expect(
        values.some((v) => v >= floor),
        `${what} at or above ${floor}`,
      ).toBe(true);
    };
    bothSides(
      sample('edge-holes').map((d) => num(d, 'rimMm')),
      0.6,
      'edge-holes rim',
    );
    bothSides(
      sample('bar').map((d) => num(d, 'barMm')),
      0.6,
      'bar width',
    );
    const slots = sample('pinched-slot');
    bothSides(
      slots.map((d) => num(d, 'pinched1.pinchMm')),
      0.2,
      'pinch',
    );
    const plain = slots.filter((d) => 'plain1.widthMm' in d.params).map((d) => num(d, 'plain1.widthMm'));
    bothSides(plain, 0.2, 'plain slot width');
    const laces = sample('lace');
    bothSides(
      laces.map((d) => num(d, 'areaFactor')),
      1,
      'lace hole area / despeckle area',
    );
    bothSides(
      laces.map((d) => num(d, 'barMm')),
      0.6,
      'lace bar',
    );
    bothSides(
      sample('island').map((d) => num(d, 'minIslandMm')),
      0.6,
      'island size',
    );
    const words = sample('letters');
    bothSides(
      words.map((d) => num(d, 'strokeMm')),
      0.6,
      'letter stroke',
    );
    expect(new Set(words.map((d) => d.params.style))).toEqual(new Set(['plain', 'stencil']));
    const stars = sample('star');
    expect(stars.filter((d) => String(d.params.ends).startsWith('pointed')).length).toBeGreaterThan(40);
    const cusps = sample('cusp');
    bothSides(
      cusps.map((d) => num(d, 'minAreaMm2') / num(d, 'despeckleMm2')),
      1,
      'cusp area / despeckle area',
    );
    const wedges = sample('wedge');
    bothSides(
      wedges.map((d) => num(d, 'minThinReachMm')),
      1,
      'wedge reach under 0.6 mm',
    );
    bothSides(
      wedges.map((d) => num(d, 'maxBaseMm')),
      1,
      'wedge base',
    );
    const mixed = sample('mixed');
    expect(mixed.every((d) => num(d, 'features') >= 2 && num(d, 'features') <= 4)).toBe(true);
  });

  it('renders the largest canvas (6000x4000) within the upload limits', async () => {
    const [d] = fc.sample(
      designArbitrary({ kinds: ['lace'] }).filter((x) => x.canvas.width === 6000),
      { seed: SEED, numRuns: 1 },
    );
    const png = await d!.png();
    await expectValidPng(d!, png);
    expect(await designMismatches(d!, png), describeDesign(d!)).toEqual([]);
  });

  it('describeDesign sums a design up on one line', () => {
    for (const d of sampleDesigns(SEED, 20)) {
      const line = describeDesign(d);
      expect(line).not.toContain('\n');
      expect(line).toContain(d.id);
      expect(line).toContain(`${d.canvas.width}x${d.canvas.height}`);
      expect(d.notes.length).toBeGreaterThan(40);
    }
  });
});
