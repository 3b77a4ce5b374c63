import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOCATIONS } from '../../core/pipeline/findings/locate.ts';
import { submissionEnvelopeSchema } from '../../core/contract/submission.ts';
import { designFixtures, type DesignFixture } from '../fixtures/pipeline/designs.ts';
import { outcomeMismatches } from '../fixtures/pipeline/expectations.ts';
import { checkCutSvg, faithfulness, readDrawing } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * Every design fixture through the real pipeline (worker threads) on the real service: the
 * status and findings it must get, where the findings point, and for every ready design the
 * cutting SVG measured by the independent checker (test/helpers/cut-check: no code shared with
 * the pipeline): the floors, simple rings, one piece, and fidelity to the drawing.
 */
const rules = { minOpeningMm: 0.2, minMetalMm: 0.6, maxTipMm: 1, maxOpeningTipMm: 0.3 };

let service: TestService;
beforeAll(async () => {
  service = await startService({ config: { limits: roomyRateLimits }, realPipeline: true });
});
afterAll(async () => {
  await service.close();
  removeDir(service.dir);
});

async function submit(fixture: DesignFixture) {
  const { productType, lengthMm, widthMm } = fixture.job;
  const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
  const response = await uploadPng(service, job, await fixture.png());
  const body: any = await response.json();
  return { job, response, body };
}

const CUTTING_SVG =
  /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0\.000 0\.000 \d+\.\d{3} \d+\.\d{3}"[^>]*>\s*<g id="cutouts">(\s*<path d="(M-?\d+\.\d{3} -?\d+\.\d{3}(L-?\d+\.\d{3} -?\d+\.\d{3})*Z)+" fill="#000" fill-rule="evenodd"\/>)*\s*<\/g>\s*<\/svg>\s*$/;

describe('design fixtures through the real pipeline', () => {
  for (const fixture of designFixtures) {
    it(`${fixture.name}: ${fixture.expect.status} ${[...fixture.expect.errors, ...fixture.expect.warnings].join(' ') || 'clean'}`, async () => {
      const { job, response, body } = await submit(fixture);
      expect(response.status, JSON.stringify(body.error ?? '')).not.toBeGreaterThanOrEqual(500);
      expect(() => submissionEnvelopeSchema.parse(body)).not.toThrow();
      const s = body.submission;
      const observed = {
        status: response.status,
        errors: s.validation.errors,
        warnings: s.validation.warnings,
        geometry: s.geometry,
      };
      expect(outcomeMismatches(fixture.expect, observed), JSON.stringify(observed)).toEqual([]);
      for (const f of [...s.validation.errors, ...s.validation.warnings]) {
        expect(f.agent_instruction.length, f.code).toBeGreaterThan(20);
        for (const l of f.locations ?? []) {
          expect(l.x).toBeGreaterThanOrEqual(0);
          expect(l.y).toBeGreaterThanOrEqual(0);
        }
      }
      if (response.status !== 200) return;

      const cut = await service.api(`/jobs/${job.id}/submissions/${s.no}/cutouts.svg`, { headers: bearer(job.secret) });
      const svg = await cut.text();
      expect(svg).toMatch(CUTTING_SVG);
      expect(svg.match(/<path /g)?.length ?? 0).toBe(s.geometry.cuts);
      const report = checkCutSvg(svg, rules);
      expect(
        {
          format: report.formatProblems,
          polygons: report.polygonProblems,
          pieces: report.pieces,
          islands: report.islands.length,
          detached: report.detached.length,
          thinMetal: report.thinMetal,
          narrowOpenings: report.narrowOpenings,
        },
        fixture.name,
      ).toEqual({ format: [], polygons: [], pieces: 1, islands: 0, detached: 0, thinMetal: [], narrowOpenings: [] });
      const drawing = await readDrawing(await fixture.png(), { lengthMm: report.lengthMm, widthMm: report.widthMm });
      const despeckleAreaMm2 = 0.0004 * fixture.job.lengthMm * fixture.job.widthMm;
      const faithful = faithfulness(report, drawing, s.validation.warnings, rules, {
        despeckleAreaMm2,
        locationCap: MAX_LOCATIONS,
      });
      expect(faithful.failures, `${fixture.name}: ${JSON.stringify(faithful.fidelity.metal)}`).toEqual([]);

      const preview = await (
        await service.api(`/jobs/${job.id}/submissions/${s.no}/preview.svg`, { headers: bearer(job.secret) })
      ).text();
      expect(preview).toContain('role="img"');
      expect(preview).toContain('fill-rule="evenodd"');
      expect(preview).toMatch(/<title>[^<]+<\/title>/);
      expect(preview).not.toMatch(/<script|<style|href=/i);
    }, 60_000);
  }
});
