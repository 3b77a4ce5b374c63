import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { submissions } from '../db/schema.ts';
import { roomyRateLimits } from './helpers/flows.ts';
import { DEFAULT_ADDRESS, servicePerFile } from './helpers/service.ts';
import { openCoreJob, stripWithHoles, svgDocument, type CoreJob } from './helpers/svg-drawings.ts';

/*
 * SVG drawings through core end to end: core.drawingFromSvg renders the text, core.submit takes
 * the PNG as any upload, and the real pipeline (worker threads) judges it. The drawings are built
 * from the job's own hints (where the strip is, the floors in pixels).
 */

describe('an SVG drawing submitted through core', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

  async function submitSvg(job: CoreJob, svg: string) {
    const png = await service.core.drawingFromSvg(job.row, svg);
    if (!png.ok) throw new Error(`refused: ${JSON.stringify(png.error)}`);
    const answer = await service.core.submit(job.row, png.value, DEFAULT_ADDRESS);
    if (!answer.ok) throw new Error(`submit refused: ${JSON.stringify(answer.error)}`);
    return answer.value;
  }

  it('a strip with round holes of a safe size, drawn on the hints, is ready', async () => {
    const job = await openCoreJob(service.core);
    // Holes four times the opening floor, with the metal between them far above the metal floor.
    const r = Math.ceil(Math.max(4 * job.drawing.minOpeningPx, 8));
    const answer = await submitSvg(job, stripWithHoles(job.drawing, 16, r));
    expect(answer.status, JSON.stringify(answer.submission.validation)).toBe(200);
    expect(answer.submission.status).toBe('ready');
    expect(answer.submission.validation.errors).toEqual([]);
    expect(answer.submission.geometry?.cuts).toBe(16);
    expect(answer.submission.geometry?.lengthMm).toBeCloseTo(155, 0);
  });

  it('a strip drawn in millimetres (viewBox 0 0 155 20) is placed on the canvas and is ready at the job size', async () => {
    const job = await openCoreJob(service.core);
    const holes = Array.from({ length: 10 }, (_, i) => `<circle cx="${7.75 + i * 15.5}" cy="10" r="2.5" fill="#fff"/>`);
    const svg = svgDocument(`<rect width="155" height="20"/>${holes.join('')}`, 'viewBox="0 0 155 20"');
    const answer = await submitSvg(job, svg);
    expect(answer.status, JSON.stringify(answer.submission.validation)).toBe(200);
    expect(answer.submission.geometry?.cuts).toBe(10);
    expect(answer.submission.geometry?.widthMm).toBeCloseTo(20, 0);
  });

  it('an opening pinched below the opening floor is OPENING_TOO_SMALL at the pinch', async () => {
    const job = await openCoreJob(service.core);
    const s = job.drawing.stripPx;
    const pinch = 1;
    expect(pinch).toBeLessThan(job.drawing.minOpeningPx);
    // A slot 9 px wide and 91 px long across the middle whose middle 9 px narrow to one row.
    const x = Math.round(s.x + s.width / 2 - 45);
    const midY = Math.round(s.y + s.height / 2);
    const top = midY - 4;
    const svg = svgDocument(
      `<rect x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}"/>` +
        `<rect x="${x}" y="${top}" width="91" height="9" fill="#fff"/>` +
        `<rect x="${x + 41}" y="${top}" width="9" height="${midY - top}"/>` +
        `<rect x="${x + 41}" y="${midY + pinch}" width="9" height="${top + 9 - midY - pinch}"/>`,
    );
    const answer = await submitSvg(job, svg);
    expect(answer.status).toBe(422);
    expect(answer.submission.status).toBe('failed_validation');
    const codes = answer.submission.validation.errors.map((e) => e.code);
    expect(codes).toEqual(['OPENING_TOO_SMALL']);
    const [place] = answer.submission.validation.errors[0]!.locations ?? [];
    expect(place, 'the finding points at the pinch').toBeDefined();
    expect(Math.abs(place!.x - (x + 45.5 - s.x) * job.drawing.mmPerPx)).toBeLessThan(1);
  });

  it('the same SVG text again is a replay of the stored submission, not counted twice', async () => {
    const job = await openCoreJob(service.core);
    const svg = stripWithHoles(job.drawing, 12, 10);
    const first = await submitSvg(job, svg);
    expect(first.submission.status).toBe('ready');
    const left = (await service.core.readJob(job.row)).limits.submissionsLeft;
    expect(left, 'the first one counted').toBe(service.core.config.limits.submissionsPerJob - 1);
    const again = await submitSvg(job, svg);
    expect(again.submission.no).toBe(first.submission.no);
    expect(again.submission.status).toBe(first.submission.status);
    expect(again.submission.engine?.inputSha256).toBe(first.submission.engine?.inputSha256);
    expect((await service.core.readJob(job.row)).limits.submissionsLeft).toBe(left);
    const [rows] = await service.db.orm
      .select({ n: count() })
      .from(submissions)
      .where(eq(submissions.jobId, job.row.id));
    expect(rows!.n).toBe(1);
  });
});
