import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.ts';
import {
  CELL_PX,
  cellCentre,
  DEFECT_JOB,
  DEFECT_KINDS,
  DEFECT_STRIP,
  defectDrawing,
  type DefectKind,
} from '../fixtures/pipeline/defects.ts';
import { checkCutSvg } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * One answer names every defect of a drawing, each at its place in millimetres and in the agent's
 * own pixels, and the drawing with all of them fixed (nothing else changed) is ready: drawings with
 * 2-6 independent defects of different kinds (test/fixtures/pipeline/defects.ts), one per cell of
 * the strip, through the real service and pipeline.
 */
const runs = Number(process.env.EVERY_FINDING_RUNS ?? 12);
const mmPerPx = DEFECT_STRIP.mmPerPx;
const rules = {
  minOpeningMm: defaultConfig.manufacturing.minOpeningMm,
  minMetalMm: defaultConfig.manufacturing.minMetalMm,
  maxTipMm: 1,
  maxOpeningTipMm: 0.3,
};

const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

interface Place {
  x: number;
  y: number;
  r: number;
  px: { x: number; y: number; r: number };
}
interface Found {
  code: string;
  severity: string;
  locations?: Place[];
}

/** The cell (0-5) a place on the strip falls in, by millimetres and, separately, by image pixels. */
const cellOfMm = (at: Place): number => Math.floor(at.x / mmPerPx / CELL_PX);
const cellOfPx = (at: Place): number => Math.floor((at.px.x - DEFECT_STRIP.x) / CELL_PX);

async function submit(kinds: readonly DefectKind[], cells: readonly number[], fixed: boolean, widthMm = 20) {
  const job = await openJob(service, { productType: 'bracelet', size: { lengthMm: DEFECT_JOB.lengthMm }, widthMm });
  const response = await uploadPng(service, job, await defectDrawing(kinds, cells, fixed));
  return { job, response, body: (await response.json()) as any };
}

const defectSets = fc
  .uniqueArray(fc.integer({ min: 0, max: DEFECT_KINDS.length - 1 }), { minLength: 2, maxLength: 6 })
  .chain((kinds) =>
    fc
      .shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: kinds.length, maxLength: kinds.length })
      .map((cells) => ({ kinds: kinds.map((k) => DEFECT_KINDS[k]!), cells })),
  );

describe('every finding at once', () => {
  it('names each of 2-6 independent defects at its own place in one answer, and the fixed drawing is ready', async () => {
    await fc.assert(
      fc.asyncProperty(defectSets, async ({ kinds, cells }) => {
        const label = kinds.map((k, i) => `${k.name} in cell ${cells[i]}`).join(', ');
        const broken = await submit(kinds, cells, false);
        const validation = broken.body.submission.validation;
        const found: Found[] = [...validation.errors, ...validation.warnings];
        const summary = `${label}\n${JSON.stringify(validation)}`;
        const expectedErrors = kinds.filter((k) => k.severity === 'error').map((k) => k.code);
        expect(broken.response.status, summary).toBe(expectedErrors.length > 0 ? 422 : 200);
        expect(validation.errors.map((e: Found) => e.code).sort(), summary).toEqual(expectedErrors.sort());
        kinds.forEach((kind, i) => {
          const f = found.find((candidate) => candidate.code === kind.code && candidate.severity === kind.severity);
          expect(f, summary).toBeDefined();
          expect(
            f!.locations!.some((at) => cellOfMm(at) === cells[i] && cellOfPx(at) === cells[i]),
            summary,
          ).toBe(true);
        });
        // Nothing is named where no defect was drawn: every place lies in a cell holding its code.
        for (const f of found) {
          for (const at of f.locations ?? []) {
            const cell = cellOfMm(at);
            expect(
              kinds.some((k, i) => k.code === f.code && cells[i] === cell),
              `${f.code} at ${JSON.stringify(at)}\n${summary}`,
            ).toBe(true);
          }
        }

        const fixed = await submit(kinds, cells, true);
        const s = fixed.body.submission;
        expect(fixed.response.status, `${label} fixed\n${JSON.stringify(s.validation)}`).toBe(200);
        expect(s.validation.warnings, label).toEqual([]);
        const cut = await service.api(`/jobs/${fixed.job.id}/submissions/${s.no}/cutouts.svg`, {
          headers: bearer(fixed.job.secret),
        });
        const report = checkCutSvg(await cut.text(), rules);
        expect([report.pieces, report.thinMetal, report.narrowOpenings, report.islands], label).toEqual([
          1,
          [],
          [],
          [],
        ]);
      }),
      { numRuns: runs, seed: 2026 },
    );
  }, 600_000);

  it('refuses only the bar that cannot be widened; a rim elsewhere is still widened and named as a change', async () => {
    const bar = DEFECT_KINDS.find((k) => k.code === 'NECK_TOO_THIN')!;
    const rim = DEFECT_KINDS.find((k) => k.code === 'NECK_THICKENED')!;
    const { response, body } = await submit([bar, rim], [1, 4], false);
    expect(response.status).toBe(422);
    const { errors, warnings } = body.submission.validation;
    const refused = errors.find((e: Found) => e.code === 'NECK_TOO_THIN');
    const widened = warnings.find((w: Found) => w.code === 'NECK_THICKENED');
    expect(refused.locations.map(cellOfMm)).toEqual([1]);
    expect(widened.locations.map(cellOfMm)).toEqual([4]);
  }, 120_000);

  it('checks the shapes at the job size even when the proportion is refused', async () => {
    const island = DEFECT_KINDS.find((k) => k.code === 'TRAPPED_ISLAND')!;
    // The drawing is 155:20 (7.75:1); the job is 155 x 40 (3.9:1), a stretch past x1.5.
    const { response, body } = await submit([island], [2], false, 40);
    expect(response.status).toBe(422);
    const codes = body.submission.validation.errors.map((e: Found) => e.code);
    expect(codes).toEqual(expect.arrayContaining(['PROPORTION_MISMATCH', 'TRAPPED_ISLAND']));
    const trapped = body.submission.validation.errors.find((e: Found) => e.code === 'TRAPPED_ISLAND');
    // The island's place in the agent's own pixels is where it was drawn, whatever the strip's size.
    const at = trapped.locations[0].px;
    expect(Math.abs(at.x - (DEFECT_STRIP.x + cellCentre(2)))).toBeLessThanOrEqual(3);
    expect(Math.abs(at.y - (DEFECT_STRIP.y + Math.round(DEFECT_STRIP.height / 2)))).toBeLessThanOrEqual(3);
  }, 120_000);
});
