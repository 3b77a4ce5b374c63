import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Point } from '../../../core/pipeline/vector/cuts.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { roundCuts, type FinalCut } from '../../../core/pipeline/final-check/rings.ts';
import {
  countCutPaths,
  cutAreaMm2,
  cuttingSvg,
  metalAreaMm2,
  previewSvg,
} from '../../../core/pipeline/stages/cutting-svg.ts';
import { traceCuts } from '../../../core/pipeline/stages/trace.ts';

/** A 40 × 10 mm strip at 0.1 mm/px with openings, an island, a corner cut away and an edge bite. */
function sampleCuts(): { L: number; W: number; cuts: FinalCut[] } {
  const [w, h, mm] = [400, 100, 0.1];
  const raster: StripRaster = { w, h, data: new Uint8Array(w * h).fill(1), mmPerPxX: mm, mmPerPxY: mm };
  const air = (inside: (x: number, y: number) => boolean, value = 0) => {
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) if (inside(x + 0.5, y + 0.5)) raster.data[y * w + x] = value;
  };
  const disc = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 < r * r;
  air(disc(60.2, 50.3, 30));
  air(disc(140.7, 45.1, 35));
  air(disc(140.7, 45.1, 15), 1);
  air((x, y) => Math.abs((x - 230) * 0.8 + (y - 50) * 0.6) < 40 && Math.abs(-(x - 230) * 0.6 + (y - 50) * 0.8) < 8);
  air((x, y) => x < 25 && y < 18);
  air(disc(330, 100, 30));
  for (let i = 0; i < 6; i++) air(disc(290 + i * 17, 20, 5));
  return { L: w * mm, W: h * mm, cuts: roundCuts(traceCuts(raster)) };
}

const N = String.raw`\d+\.\d{3}`;
const RING = String.raw`M${N} ${N}(?:L${N} ${N})+Z`;
const PATH = String.raw`<path d="(?:${RING})+" fill="#000" fill-rule="evenodd"/>\n`;
const CUTTING_SVG = new RegExp(
  String.raw`^<svg xmlns="http://www\.w3\.org/2000/svg" viewBox="0\.000 0\.000 (${N}) (${N})" width="(${N})mm" height="(${N})mm">\n` +
    String.raw`<g id="cutouts">\n(?:${PATH})*</g>\n</svg>\n$`,
);

/** Renders an L × W mm SVG with sharp and returns the covered area in mm² (alpha-weighted). */
async function renderedAreaMm2(svg: string, L: number, W: number, density: number): Promise<number> {
  const { data, info } = await sharp(Buffer.from(svg), { density })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Read the scale off the image: sharp's density acts differently on mm and on bare user units.
  expect(info.width).toBeGreaterThan(20 * L);
  let alpha = 0;
  for (let i = 3; i < data.length; i += info.channels) alpha += data[i]!;
  return alpha / 255 / ((info.width / L) * (info.height / W));
}

describe('cuttingSvg', () => {
  const { L, W, cuts } = sampleCuts();
  const svg = cuttingSvg(L, W, cuts);

  it('matches the contract: one g#cutouts of black even-odd paths, only M/L/Z, three decimals', () => {
    const m = CUTTING_SVG.exec(svg);
    expect(m).not.toBeNull();
    expect(m!.slice(1, 5)).toEqual(['40.000', '10.000', '40.000', '10.000']);
    expect(svg.match(/<g /g)).toHaveLength(1);
    expect(svg).not.toMatch(/script|style|foreignObject|href|<!|<\?/i);
  });

  it('writes one path per cut, holes inside their cut’s path', () => {
    expect(cuts).toHaveLength(11);
    expect(countCutPaths(svg)).toBe(cuts.length);
    const withHole = svg.split('\n').filter((line) => (line.match(/M/g) ?? []).length === 2);
    expect(withHole).toHaveLength(1);
  });

  it('renders with sharp, black exactly where the cuts are (within 1 %)', async () => {
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const black = await renderedAreaMm2(svg, L, W, 220);
    expect(Math.abs(black / cutAreaMm2(cuts) - 1)).toBeLessThan(0.01);
  });

  it('drops points that repeat after rounding, and rings left with fewer than three points or no area', () => {
    const ring = (...pts: Point[]) => pts;
    const svg = cuttingSvg(
      10,
      5,
      roundCuts([
        {
          outer: ring([1, 1], [1.0002, 0.9998], [4, 1], [4, 4], [1, 4], [1.0001, 1.0001]),
          holes: [ring([2, 2], [2.0001, 2], [2, 2.0004]), ring([2, 2], [3, 2], [3, 3])],
        },
        { outer: ring([5, 1], [5.0001, 1], [6, 2], [6.0003, 2.0002]), holes: [] },
        { outer: ring([5, 1], [6, 1], [7, 1]), holes: [] },
        { outer: ring([-0.0001, 0], [1, 0], [1, 0.5]), holes: [] },
      ]),
    );
    expect(svg).toMatch(CUTTING_SVG);
    expect(countCutPaths(svg)).toBe(2);
    expect(svg).toContain(
      '<path d="M1.000 1.000L4.000 1.000L4.000 4.000L1.000 4.000ZM2.000 2.000L3.000 2.000L3.000 3.000Z"',
    );
    expect(svg).toContain('<path d="M0.000 0.000L1.000 0.000L1.000 0.500Z"');
  });

  it('writes an empty group when there is nothing to cut', () => {
    expect(cuttingSvg(180, 12.5, [])).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0.000 0.000 180.000 12.500" width="180.000mm" height="12.500mm">\n' +
        '<g id="cutouts">\n</g>\n</svg>\n',
    );
  });
});

describe('previewSvg', () => {
  const { L, W, cuts } = sampleCuts();
  const svg = previewSvg(L, W, cuts, 'Bracelet <draft> & "test"');

  it('is one dark even-odd path: the strip, then every cut ring', () => {
    const m =
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" role="img" viewBox="0 0 40 10"><title>([^<]*)<\/title><path d="([^"]+)" fill="#2b2118" fill-rule="evenodd"\/><\/svg>\n$/.exec(
        svg,
      );
    expect(m).not.toBeNull();
    expect(m![1]).toBe('Bracelet &lt;draft&gt; &amp; &quot;test&quot;');
    const d = m![2]!;
    expect(d).toMatch(/^(?:M-?\d+(?:\.\d{1,2})? -?\d+(?:\.\d{1,2})?(?:L-?\d+(?:\.\d{1,2})? -?\d+(?:\.\d{1,2})?)+Z)+$/);
    expect(d.startsWith('M0 0L40 0L40 10L0 10Z')).toBe(true);
    const rings = cuts.reduce((n, c) => n + 1 + c.holes.length, 0);
    expect(d.match(/M/g)).toHaveLength(1 + rings);
    expect(svg).not.toMatch(/script|style|href|foreignObject|<!|<\?/i);
  });

  it('is much smaller than the cutting file', () => {
    expect(svg.length).toBeLessThan(cuttingSvg(L, W, cuts).length / 2);
  });

  it('renders with sharp, dark exactly where the metal is (within 1 %)', async () => {
    const metal = await renderedAreaMm2(svg, L, W, 1800);
    expect(Math.abs(metal / metalAreaMm2(L, W, cuts) - 1)).toBeLessThan(0.01);
  });
});

describe('cut and metal areas', () => {
  const square = (x: number, y: number, s: number): Point[] => [
    [x, y],
    [x + s, y],
    [x + s, y + s],
    [x, y + s],
  ];

  it('subtracts islands from their cut, whatever the ring orientation', () => {
    const cuts = roundCuts([
      { outer: square(2, 2, 4), holes: [square(3, 3, 1)] },
      { outer: square(7, 1, 2).reverse(), holes: [] },
    ]);
    expect(cutAreaMm2(cuts)).toBe(16 - 1 + 4);
    expect(metalAreaMm2(10, 8, cuts)).toBe(80 - 19);
  });
});
