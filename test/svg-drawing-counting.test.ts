import { describe, expect, it } from 'vitest';
import { jsonLogger } from '../core/logger.ts';
import { roomyRateLimits } from './helpers/flows.ts';
import { DEFAULT_ADDRESS, servicePerTest } from './helpers/service.ts';
import { openCoreJob, stripWithHoles, type CoreJob } from './helpers/svg-drawings.ts';

/**
 * core.submitSvg counts a render in the submission buckets before it starts (issue 25): SVGs that
 * fail to render cost a client as PNGs do, and a document rendered lately is neither rendered nor
 * counted again, so resending it replays as a resent PNG does.
 */

const twoAnHour = { ...roomyRateLimits, submissionsPerHourPerIp: 2 };
const drawing = (job: CoreJob, holes: number) =>
  stripWithHoles(job.drawing, holes, Math.ceil(Math.max(4 * job.drawing.minOpeningPx, 8)));

describe('SVG drawings and the submission buckets', () => {
  const lines: string[] = [];
  // Every render times out: the renderer's process takes far longer than 1 ms to start.
  const service = servicePerTest({
    config: { limits: twoAnHour, svg: { renderTimeoutSec: 0.001 } },
    log: jsonLogger((line) => lines.push(line)),
  });
  const notRendered = () => lines.filter((line) => JSON.parse(line).msg === 'svg drawing not rendered').length;

  it('counts each render before it runs: two SVGs that fail to render use the hour, and the third is refused without a render', async () => {
    const job = await openCoreJob(service.core);
    for (const holes of [3, 4]) {
      const refused = await service.core.submitSvg(job.row, drawing(job, holes), DEFAULT_ADDRESS);
      expect(refused.ok || refused.error.code).toBe('FILE_TOO_LARGE');
    }
    expect(notRendered()).toBe(2);
    const limited = await service.core.submitSvg(job.row, drawing(job, 5), DEFAULT_ADDRESS);
    expect(limited.ok || limited.error.code).toBe('RATE_LIMITED');
    expect(notRendered()).toBe(2);
  });
});

describe('an SVG drawing resent', () => {
  const service = servicePerTest({ config: { limits: twoAnHour } });

  it('is neither rendered nor counted again: it replays its submission, and the hour still takes one more', async () => {
    const job = await openCoreJob(service.core);
    const first = await service.core.submitSvg(job.row, drawing(job, 6), DEFAULT_ADDRESS);
    expect(first.ok && [first.value.status, first.value.submission.no]).toEqual([200, 1]);
    const again = await service.core.submitSvg(job.row, drawing(job, 6), DEFAULT_ADDRESS);
    expect(again.ok && [again.value.status, again.value.submission.no]).toEqual([200, 1]);
    expect(service.pipeline.runs).toBe(1);

    const second = await service.core.submitSvg(job.row, drawing(job, 7), DEFAULT_ADDRESS);
    expect(second.ok && second.value.submission.no).toBe(2);
    const third = await service.core.submitSvg(job.row, drawing(job, 8), DEFAULT_ADDRESS);
    expect(third.ok || third.error.code).toBe('RATE_LIMITED');
  });

  it('is refused at once, before counting or rendering, by a job that takes no uploads', async () => {
    const job = await openCoreJob(service.core);
    expect((await service.core.cancelJob(job.row)).ok).toBe(true);
    for (const holes of [3, 4, 5]) {
      const refused = await service.core.submitSvg(job.row, drawing(job, holes), DEFAULT_ADDRESS);
      expect(refused.ok || refused.error.code).toBe('JOB_CANCELLED');
    }
    const other = await openCoreJob(service.core);
    const taken = await service.core.submitSvg(other.row, drawing(other, 6), DEFAULT_ADDRESS);
    expect(taken.ok && taken.value.status).toBe(200);
  });
});
