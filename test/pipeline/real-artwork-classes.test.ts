import { describe, expect, it } from 'vitest';
import { MAX_LOCATIONS } from '../../core/pipeline/findings/locate.ts';
import { artworkDesigns } from '../fixtures/real-artwork/index.ts';
import type { ArtworkDesign } from '../fixtures/real-artwork/types.ts';
import { HOUSE } from '../helpers/artwork-label/index.ts';
import { checkCutSvg, faithfulness, readDrawing } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * The five failure classes of issue #24, each on a design of the real-artwork corpus that showed it
 * (third-party outlines, or a lace pattern we tile), through the real service: the answer, the
 * warnings that say what changed, and the shipped file held to the independent checker (folds
 * included) and to the drawing (nothing changed where no warning says so).
 */
const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });
const designs = new Map(artworkDesigns().map((d) => [d.id, d]));

interface Case {
  id: string;
  why: string;
  /** Warning codes the answer must carry (it may carry others). */
  warnings: string[];
}

const CASES: Case[] = [
  {
    id: 'lace/chevron-0.9/bracelet-165x18@1536',
    why: '1: a zigzag lace the tracer folded at every apex, refused TRACE_REJECTED at 165 x 18 mm',
    warnings: [],
  },
  { id: 'lace/diamond-lattice-1.0/bracelet-160x20@1536', why: '1: a diamond lattice, 1 mm bars at 45°', warnings: [] },
  {
    id: 'hebrew-rail/heebo-800-Amit/bracelet-160x16@1536',
    why: '2: Hebrew letters whose flat tops leave 0.23 mm slits under the rail, refused as pinched',
    warnings: [],
  },
  {
    id: 'script-rail/parisienne-Talia/bracelet-155x14@2048',
    why: '2: a script letter whose sloping top meets the rail in a shallow point: filled and named',
    warnings: ['OPENING_REMOVED'],
  },
  {
    id: 'lace/wiggle-fine-0.7/bracelet-160x20@1536',
    why: '3: a fine wiggle lace of 0.7 mm bars, refused NECK_TOO_THIN at 500 places',
    warnings: [],
  },
  {
    id: 'stencil/heebo-800-BOB/bracelet-165x18@1536',
    why: '4: a name cut out of a plate, its counters bridged alike',
    warnings: ['ISLAND_BRIDGED'],
  },
  {
    id: 'icons-rail/arrows-36-b/bracelet-150x12@1536',
    why: '4: barbed arrows on a rail, their thin necks widened where the openings beside them keep the floor',
    warnings: ['NECK_THICKENED'],
  },
  {
    id: 'window-letters/satisfy-Love/bracelet-160x27@1536',
    why: '4: whole letters floating in a window, each bridged; the crevice filled beside a bar named',
    warnings: ['ISLAND_BRIDGED'],
  },
  {
    id: 'icons-plate/charms-6/ring-70x12@2048',
    why: "4: a diamond's facets cut in outline, the lowest held by the facet beside it, not at the point where three channels meet",
    warnings: ['ISLAND_BRIDGED'],
  },
  {
    id: 'icons-plate/snowflakes-11/ring-52x5@1536',
    why: "4: snowflakes whose hubs float in their outlines, each hub's bar kept clear of the arm reaching past it across a channel",
    warnings: ['ISLAND_BRIDGED'],
  },
  {
    id: 'script-plate/alex-brush-Shira/bracelet-165x18@1536',
    why: "4: a sliver of metal between two strokes of a script letter, a point the floor's disc passes, refused NECK_TOO_THIN",
    warnings: ['ISLAND_BRIDGED'],
  },
  {
    id: 'script-plate/alex-brush-Daniel/bracelet-165x18@1536',
    why: "4: slivers between script strokes reaching 0.2 mm past the allowance beyond the floor's disc, read as tips across the slot beside them: widened",
    warnings: ['NECK_THICKENED'],
  },
];

describe('the failure classes of real artwork (issue #24), each on a design that showed it', () => {
  for (const c of CASES) {
    it(`${c.id} is ready: ${c.why}`, async () => {
      const design = designs.get(c.id);
      expect(design, `${c.id} is in the corpus`).toBeDefined();
      await expectReady(design!, c.warnings);
    }, 300_000);
  }
});

async function expectReady(design: ArtworkDesign, warnings: string[]): Promise<void> {
  const png = await design.png();
  const { productType, lengthMm, widthMm } = design.job;
  const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
  const response = await uploadPng(service, job, png);
  const { submission: s } = (await response.json()) as { submission: any };
  expect(response.status, JSON.stringify(s.validation.errors)).toBe(200);
  const codes = s.validation.warnings.map((w: { code: string }) => w.code);
  for (const code of warnings) expect(codes).toContain(code);
  const file = await service.api(`/jobs/${job.id}/submissions/${s.no}/cutouts.svg`, { headers: bearer(job.secret) });
  const report = checkCutSvg(await file.text(), HOUSE.rules);
  expect({ polygons: report.polygonProblems, thin: report.thinMetal, narrow: report.narrowOpenings }).toEqual({
    polygons: [],
    thin: [],
    narrow: [],
  });
  expect(report.ok).toBe(true);
  const drawing = await readDrawing(png, { lengthMm: report.lengthMm, widthMm: report.widthMm });
  const faithful = faithfulness(report, drawing, s.validation.warnings, HOUSE.rules, {
    despeckleAreaMm2: HOUSE.despeckleAreaFraction * lengthMm * widthMm,
    locationCap: MAX_LOCATIONS,
  });
  expect(faithful.failures).toEqual([]);
}
