import { describe, expect, it } from 'vitest';
import { MAX_LOCATIONS } from '../../core/pipeline/findings/locate.ts';
import { canvasOf } from '../fixtures/pipeline/generated/base.ts';
import { latticePng, type DiamondLattice, type ZigzagLace } from '../fixtures/pipeline/lattices.ts';
import { checkCutSvg, checkDrawing, faithfulness, readDrawing } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * Clean laces of straight bars meeting at sharp angles, drawn anti-aliased as an agent's renderer
 * draws them, through the real service: each is ready, and its cutting file passes the independent
 * checker (no fold, no crossing, the floors) and is faithful to the drawing. Potrace ends a cubic at
 * every apex through a very short control arm; flattening once slid the pieces there past the apex
 * and back, and a zigzag lace's long openings folded over themselves more often than mending
 * allows: `TRACE_REJECTED` for a drawing that passes every floor (docs/pipeline.md, Flattening).
 */
const rules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3 };
const BRACELET_ZIGZAG = { productType: 'bracelet', lengthMm: 165, widthMm: 18 } as const;
const zigzag = (name: string, d: Omit<ZigzagLace, 'kind' | 'name' | 'job' | 'rimMm' | 'angleDeg'>): ZigzagLace => ({
  kind: 'zigzag',
  name,
  job: BRACELET_ZIGZAG,
  rimMm: 1.5,
  angleDeg: 45,
  ...d,
});
const diamond = (name: string, d: Omit<DiamondLattice, 'kind' | 'name' | 'job' | 'rimMm'>): DiamondLattice => ({
  kind: 'diamond',
  name,
  job: { productType: 'bracelet', lengthMm: 160, widthMm: 20 },
  rimMm: 1.5,
  ...d,
});

const LATTICES: (ZigzagLace | DiamondLattice)[] = [
  // Refused TRACE_REJECTED at 500 and 43 places before.
  zigzag('zigzag lace, 1 mm bars and openings, apexes every 2.5 mm', { barMm: 1, openingMm: 1, periodMm: 5 }),
  zigzag('zigzag lace, 0.8 mm bars and openings, apexes every 1.5 mm', { barMm: 0.8, openingMm: 0.8, periodMm: 3 }),
  zigzag('zigzag lace on a 2048x1365 canvas', { barMm: 1, openingMm: 1.2, periodMm: 5, canvas: canvasOf(2048, 1365) }),
  {
    ...zigzag('zigzag lace at ring size', { barMm: 1, openingMm: 1, periodMm: 3 }),
    job: { productType: 'ring', lengthMm: 60, widthMm: 8 },
    rimMm: 1,
  },
  // Shipped with 50 folds before.
  diamond('diamond lattice, 1.2 mm bars at 45°', { barMm: 1.2, pitchMm: 4, angleDeg: 45 }),
  diamond('diamond lattice, 1 mm bars at 60°', { barMm: 1, pitchMm: 4, angleDeg: 60 }),
];

const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

describe('clean laces of sharp-angled bars through the real pipeline', () => {
  for (const lattice of LATTICES) {
    it(`${lattice.name}: ready, its cutting file simple and faithful`, async () => {
      const png = await latticePng(lattice);
      const { productType, lengthMm, widthMm } = lattice.job;
      // The drawing itself passes every floor: nothing in it is the agent's to fix.
      const drawn = checkDrawing(await readDrawing(png, { lengthMm, widthMm }), rules);
      expect({ thin: drawn.thinMetalCount, narrow: drawn.narrowOpeningsCount }).toEqual({ thin: 0, narrow: 0 });

      const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
      const response = await uploadPng(service, job, png);
      const body: any = await response.json();
      const s = body.submission;
      expect(response.status, JSON.stringify(s?.validation ?? body)).toBe(200);
      expect(s.validation.warnings.map((w: { code: string }) => w.code)).toEqual(
        expect.not.arrayContaining(['NECK_THICKENED', 'OPENING_REMOVED']),
      );

      const cut = await service.api(`/jobs/${job.id}/submissions/${s.no}/cutouts.svg`, { headers: bearer(job.secret) });
      const report = checkCutSvg(await cut.text(), rules);
      expect({
        polygons: report.polygonProblems,
        pieces: report.pieces,
        thinMetal: report.thinMetal,
        narrowOpenings: report.narrowOpenings,
      }).toEqual({ polygons: [], pieces: 1, thinMetal: [], narrowOpenings: [] });
      expect(report.ok).toBe(true);
      const drawing = await readDrawing(png, { lengthMm: report.lengthMm, widthMm: report.widthMm });
      const faithful = faithfulness(report, drawing, s.validation.warnings, rules, {
        despeckleAreaMm2: 0.0004 * lengthMm * widthMm,
        locationCap: MAX_LOCATIONS,
      });
      expect(faithful.failures).toEqual([]);
    }, 60_000);
  }
});
