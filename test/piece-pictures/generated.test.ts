import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../core/config.ts';
import { flatLayout, piecePictureSizes, wornLayout, type PieceShape } from '../../core/piece-pictures/layout.ts';
import { renderPiecePicture } from '../../core/piece-pictures/piece-picture.ts';
import { parseCutSvg } from '../helpers/cut-check/svg-format.ts';
import { columnsWhere, decodeRgb, isBrass, isColour, pageFrameColour, rgbAt } from '../helpers/piece-picture-check.ts';

/**
 * Generated cutting files: strips of every size the products allow, with openings (rectangles and
 * regular polygons, each in a cell of its own so none overlap) written as the contract writes them.
 * Both pictures are drawn for each: they never fail, have the size the page announces and stay in
 * the configured box, every opening shows the paper on the flat picture, and the worn piece is as
 * wide as its bent strip.
 */

const config = buildConfig();
const PAPER = pageFrameColour();

interface Opening {
  cx: number;
  cy: number;
  /** How far its middle is from its nearest edge, mm. */
  inner: number;
  points: [number, number][];
}

interface GeneratedPiece {
  shape: PieceShape;
  /** Metal all round the openings, mm. */
  rail: number;
  openings: Opening[];
  svg: string;
}

const t3 = (v: number) => v.toFixed(3);

function cuttingFile(lengthMm: number, widthMm: number, openings: Opening[]): string {
  const paths = openings
    .map(
      (o) =>
        `<path d="${o.points.map(([x, y], i) => `${i ? 'L' : 'M'}${t3(x)} ${t3(y)}`).join('')}Z" fill="#000" fill-rule="evenodd"/>`,
    )
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0.000 0.000 ${t3(lengthMm)} ${t3(widthMm)}" width="${t3(lengthMm)}mm" height="${t3(widthMm)}mm">\n<g id="cutouts">\n${paths}\n</g>\n</svg>\n`;
}

const piece: fc.Arbitrary<GeneratedPiece> = fc
  .record({
    productType: fc.constantFrom('bracelet' as const, 'ring' as const),
    lengthShare: fc.double({ min: 0, max: 1, noNaN: true }),
    widthShare: fc.double({ min: 0, max: 1, noNaN: true }),
    cells: fc.array(
      fc.record({
        kind: fc.constantFrom('rect', 'polygon'),
        sides: fc.integer({ min: 3, max: 9 }),
        size: fc.double({ min: 0.35, max: 0.9, noNaN: true }),
        aspect: fc.double({ min: 0.3, max: 1, noNaN: true }),
        turn: fc.double({ min: 0, max: Math.PI, noNaN: true }),
        empty: fc.boolean(),
      }),
      { minLength: 1, maxLength: 14 },
    ),
  })
  .map(({ productType, lengthShare, widthShare, cells }) => {
    const product = config.products[productType];
    const lengthMm =
      Math.round(
        (product.lengthRangeMm.min + lengthShare * (product.lengthRangeMm.max - product.lengthRangeMm.min)) * 10,
      ) / 10;
    const widthMm =
      Math.round((product.widthRangeMm.min + widthShare * (product.widthRangeMm.max - product.widthRangeMm.min)) * 10) /
      10;
    // One cell per opening along the strip, a rail of metal all round.
    const rail = Math.min(1, widthMm / 5);
    const cellW = (lengthMm - 2 * rail) / cells.length;
    const cellH = widthMm - 2 * rail;
    const openings: Opening[] = [];
    cells.forEach((cell, i) => {
      if (cell.empty) return;
      const cx = rail + (i + 0.5) * cellW;
      const cy = widthMm / 2;
      const rx = (cellW / 2) * cell.size;
      const ry = (cellH / 2) * cell.size * (cell.kind === 'rect' ? cell.aspect : 1);
      const r = Math.min(rx, ry);
      const points: [number, number][] =
        cell.kind === 'rect'
          ? [
              [cx - rx, cy - ry],
              [cx + rx, cy - ry],
              [cx + rx, cy + ry],
              [cx - rx, cy + ry],
            ]
          : Array.from({ length: cell.sides }, (_, k) => {
              const a = cell.turn + (2 * Math.PI * k) / cell.sides;
              return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
            });
      const inner = cell.kind === 'rect' ? Math.min(rx, ry) : r * Math.cos(Math.PI / cell.sides);
      if (inner > 0.15) openings.push({ cx, cy, inner, points });
    });
    const shape: PieceShape = { productType, lengthMm, widthMm, gapMm: product.gapMm, thicknessMm: 1.5 };
    return { shape, openings, rail, svg: cuttingFile(lengthMm, widthMm, openings) };
  });

describe('the piece pictures of generated cutting files', () => {
  it(
    'draw without fail at the announced size, show every opening, and bend to the right width',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(piece, async ({ shape, openings, rail, svg }) => {
          expect(parseCutSvg(svg).problems).toEqual([]);
          const sizes = piecePictureSizes(shape, config.pictures);
          for (const kind of ['flat', 'worn'] as const) {
            const drawn = await renderPiecePicture({ cutoutsSvg: svg, shape }, kind, config.pictures);
            expect(drawn.ok).toBe(true);
            if (!drawn.ok) return;
            const img = await decodeRgb(drawn.png);
            expect({ width: img.width, height: img.height }).toEqual(sizes[kind]);
            expect(img.width).toBeLessThanOrEqual(config.pictures[kind].maxWidthPx);
            expect(img.height).toBeLessThanOrEqual(config.pictures[kind].maxHeightPx);
            if (kind === 'flat') {
              const { left, top, pxPerMm: s } = flatLayout(shape, config.pictures);
              // Every opening whose middle is 3 px or more from its edge (the edge line and antialiasing take less).
              for (const o of openings.filter((o) => o.inner * s >= 3)) {
                expect(isColour(rgbAt(img, left + o.cx * s, top + o.cy * s), PAPER)).toBe(true);
              }
              expect(isBrass(rgbAt(img, left + (rail / 2) * s, top + (rail / 2) * s))).toBe(true);
            } else {
              const layout = wornLayout(shape, config.pictures);
              const gap = shape.productType === 'ring' ? 0 : shape.gapMm;
              const [from, to] = columnsWhere(img, isBrass)!;
              const widthMm = (to - from + 1) / layout.pxPerMm;
              expect(widthMm).toBeGreaterThan(((shape.lengthMm + gap) / Math.PI + shape.thicknessMm) * 0.98);
              expect(widthMm).toBeLessThan(
                ((shape.lengthMm + gap) / Math.PI + shape.thicknessMm) * 1.02 + 2 / layout.pxPerMm,
              );
            }
          }
        }),
        { numRuns: 40 },
      );
    },
  );
});
