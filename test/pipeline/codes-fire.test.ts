import { describe, expect, it } from 'vitest';
import { defaultConfig, despeckleAreaMm2 } from '../../core/config.ts';
import { submissionEnvelopeSchema } from '../../core/contract/submission.ts';
import { CODE_FIXTURES, type CodeFixture, type DrawnPlace } from '../fixtures/pipeline/code-fixtures.ts';
import { checkCutSvg, checkFidelity, readDrawing } from '../helpers/cut-check/index.ts';
import { bearer, openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * Each refusal code of the framing and validation stages fires on a drawing that has its defect,
 * at the place the defect was drawn, and the same drawing with that defect fixed is ready and cuts
 * cleanly (test/fixtures/pipeline/code-fixtures.ts): through the real service and pipeline.
 * NECK_CHECK_SKIPPED cannot fire through the service; test/pipeline/stages/neck-check-skipped.test.ts
 * shows why and where it does.
 */
const { minMetalMm, minOpeningMm } = defaultConfig.manufacturing;
const rules = { minOpeningMm, minMetalMm, maxTipMm: 1, maxOpeningTipMm: 0.3 };

/** How far a named place may sit from the drawn one: on the strip, and in the agent's own image. */
const TOLERANCE = { mm: 0.15, px: 2 };

/** Each fixture's message, worded from the live floors. */
const MESSAGES: Record<string, string> = {
  'a bar between two slots, too narrow to widen without closing them': `Metal is narrower than ${minMetalMm} mm at 1 place and could not be widened without closing an opening.`,
  'a lace of 210 bars under the floor, too many to widen': `Metal is narrower than ${minMetalMm} mm at 210 places: too many to widen without reworking the whole design.`,
  'two blocks joined only by a hairline across a 4 mm gap': 'The metal falls apart into 2 pieces.',
  'a disc floating in a window, out of a bridge’s reach':
    '1 metal island sits inside openings with nothing to hold it; it would fall out.',
  'a comb drawn in hairlines finer than anything that can be cut':
    'The design could not be traced into a manufacturable shape.',
};

const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

interface Place {
  x: number;
  y: number;
  r: number;
  px: { x: number; y: number; r: number };
}

async function submit(fixture: CodeFixture, png: Buffer) {
  const { productType, lengthMm, widthMm } = fixture.job;
  const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
  const response = await uploadPng(service, job, png);
  const json: any = await response.json();
  expect(() => submissionEnvelopeSchema.parse(json)).not.toThrow();
  return { job, status: response.status, submission: json.submission };
}

/** A drawn place in millimetres on the strip and in the image's pixels. */
function drawnAt(fixture: CodeFixture, place: DrawnPlace) {
  const { strip } = fixture;
  return {
    mm: { x: place.x * strip.mmPerPx, y: place.y * strip.mmPerPx, r: place.r * strip.mmPerPx },
    px: { x: strip.x + place.x, y: strip.y + place.y, r: place.r },
  };
}

/** How far a named place is from a drawn one, in millimetres and in image pixels. */
function errorOf(fixture: CodeFixture, named: Place, place: DrawnPlace): { mm: number; px: number } {
  const drawn = drawnAt(fixture, place);
  return {
    mm: Math.hypot(named.x - drawn.mm.x, named.y - drawn.mm.y),
    px: Math.hypot(named.px.x - drawn.px.x, named.px.y - drawn.px.y),
  };
}

describe('each refusal code fires where its defect is drawn', () => {
  it.each(CODE_FIXTURES.map((f) => [f.code, f.name, f] as const))(
    '%s: %s',
    async (code, name, fixture) => {
      const { status, submission } = await submit(fixture, await fixture.broken());
      const { errors, warnings } = submission.validation;
      const summary = JSON.stringify(submission.validation);
      expect(status, summary).toBe(422);
      expect(submission.status).toBe('failed_validation');
      // That code, as an error, and nothing else: no other refusal, no change named anywhere.
      expect(
        errors.map((e: any) => [e.code, e.severity]),
        summary,
      ).toEqual([[code, 'error']]);
      expect(warnings, summary).toEqual([]);
      const [found] = errors;
      expect(found.message).toBe(MESSAGES[name]);
      expect(found.agent_instruction).toEqual(expect.any(String));
      if (code !== 'TRACE_REJECTED') {
        // The floor in millimetres and in the agent's own pixels, from the live configuration.
        const pxPerMm = fixture.strip.width / fixture.job.lengthMm;
        expect(found.agent_instruction).toContain(
          `${minMetalMm} mm (about ${Math.ceil(minMetalMm * pxPerMm)} px of your image)`,
        );
      }

      if (fixture.places.length === 0) {
        expect(found.locations).toBeUndefined();
        return;
      }
      const named: Place[] = found.locations;
      expect(named).toHaveLength(fixture.places.length);
      // Each drawn place is named once, by the nearest named place, which covers the drawn defect.
      const claimed = new Set<number>();
      for (const place of fixture.places) {
        const errs = named.map((at) => errorOf(fixture, at, place));
        const k = errs.reduce((best, e, i) => (e.mm < errs[best]!.mm ? i : best), 0);
        const at = named[k]!;
        const drawn = drawnAt(fixture, place);
        const where = `drawn at ${JSON.stringify(drawn)}, named at ${JSON.stringify(at)}`;
        expect(claimed.has(k), where).toBe(false);
        claimed.add(k);
        expect(errs[k]!.mm, where).toBeLessThanOrEqual(TOLERANCE.mm);
        expect(errs[k]!.px, where).toBeLessThanOrEqual(TOLERANCE.px);
        expect(at.r + TOLERANCE.mm, where).toBeGreaterThanOrEqual(errs[k]!.mm + drawn.mm.r);
        expect(at.px.r + TOLERANCE.px, where).toBeGreaterThanOrEqual(errs[k]!.px + drawn.px.r);
      }
    },
    120_000,
  );
});

describe('the same drawings with the defect fixed', () => {
  it.each(CODE_FIXTURES.map((f) => [f.code, f.name, f] as const))(
    'no %s: %s is ready and its cutting file passes the independent checker',
    async (_code, _name, fixture) => {
      const png = await fixture.fixed();
      const { job, status, submission } = await submit(fixture, png);
      expect(status, JSON.stringify(submission.validation)).toBe(200);
      expect(submission.status).toBe('ready');
      expect(submission.validation.errors).toEqual([]);
      expect(submission.validation.warnings).toEqual([]);

      const response = await service.api(`/jobs/${job.id}/submissions/${submission.no}/cutouts.svg`, {
        headers: bearer(job.secret),
      });
      expect(response.status).toBe(200);
      // The strip as cut: within 5 % the drawing keeps its proportions, so the width may move.
      const { lengthMm, widthMm } = submission.geometry;
      const strip = { lengthMm, widthMm };
      const cut = checkCutSvg(await response.text(), rules);
      expect(
        [cut.ok, cut.pieces, cut.thinMetal, cut.narrowOpenings, cut.islands, cut.detached],
        JSON.stringify({ format: cut.formatProblems, polygons: cut.polygonProblems }),
      ).toEqual([true, 1, [], [], [], []]);
      const fidelity = checkFidelity(cut, await readDrawing(png, strip), [], {
        despeckleAreaMm2: despeckleAreaMm2(defaultConfig.manufacturing, strip.lengthMm, strip.widthMm),
      });
      expect(fidelity.failures).toEqual([]);
    },
    120_000,
  );
});
