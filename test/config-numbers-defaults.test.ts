import { describe, expect, it } from 'vitest';
import { designFixture } from './fixtures/pipeline/designs.ts';
import { jsonInit, openJob, uploadPng } from './helpers/flows.ts';
import { braceletOf, pngInit, proportionFinding, refusal, thinBarPng, uploadsTillFull } from './helpers/limit-words.ts';
import { connectMcp, errorEnvelope } from './helpers/mcp.ts';
import { pngWithDeclaredSize } from './helpers/png.ts';
import { servicePerFile } from './helpers/service.ts';

/*
 * The words that state a configured limit (test/config-numbers.test.ts moves each one), read at the
 * default configuration: the contract's words, byte for byte as before they were made live.
 */

describe('at the default configuration', () => {
  const service = servicePerFile();

  it('the refusals read as the contract words them', async () => {
    const narrow = await refusal(await service.api('/jobs', jsonInit(braceletOf(280, 5.5))));
    expect(narrow).toEqual({
      status: 400,
      code: 'WIDTH_OUT_OF_RANGE',
      message: 'widthMm 5.5 is narrower than the minimum 6.07 mm for a 280 mm blank (blank length / 46.15).',
      agent_instruction:
        'Send a widthMm inside capabilities.products[productType].widthRangeMm and at least the blank length / 46.15.',
    });
    const job = await openJob(service, braceletOf(155, 20));
    expect(
      await refusal(await service.api(`/jobs/${job.id}/submissions`, pngInit(job, new Uint8Array(6_000_001)))),
    ).toEqual({
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than 6,000,000 bytes.',
      agent_instruction:
        'Re-export the PNG smaller: 1536x1024 pixels, flat black on white, 8-bit grey or palette, no alpha. Such a file is far below the limit.',
    });
    const small = await refusal(await uploadPng(service, job, pngWithDeclaredSize(1000, 255)));
    expect(small.agent_instruction).toBe('Draw on a larger canvas: use job.drawing.recommendedPixels (1536x1024).');
    const large = await refusal(await uploadPng(service, job, pngWithDeclaredSize(8193, 1000)));
    expect(large.agent_instruction).toBe('Draw on a smaller canvas: use job.drawing.recommendedPixels (1536x1024).');
    const full = await refusal(await uploadsTillFull(service, job, 10));
    expect(full).toEqual({
      status: 409,
      code: 'TOO_MANY_SUBMISSIONS',
      message: 'All 10 counted submissions of this job are used.',
      agent_instruction:
        'This job takes no more new images. Resending an image already answered still returns its stored outcome. For a new attempt, open a new job.',
    });
  });

  it('open_job describes the default widths and submit_design refuses past 6,000,000 bytes', async () => {
    const mcp = await connectMcp(service);
    try {
      const { tools } = await mcp.client.listTools();
      const openJobTool = tools.find((t) => t.name === 'open_job')!;
      expect((openJobTool.inputSchema.properties as any).widthMm.description).toBe(
        'Width of the strip in mm, inside the product width range (get_capabilities); bracelet default 20, ring 6.',
      );
      const opened = await mcp.call('open_job', { productType: 'bracelet', lengthMm: 155, widthMm: 20 });
      const { jobHandle } = opened.structuredContent as { jobHandle: string };
      const pngBase64 = Buffer.alloc(6_000_001).toString('base64');
      const tooBig = errorEnvelope(await mcp.call('submit_design', { jobHandle, pngBase64 }));
      expect([tooBig.code, tooBig.message]).toEqual(['FILE_TOO_LARGE', 'The file is larger than 6,000,000 bytes.']);
    } finally {
      await mcp.close();
    }
  });
});

describe('at the default configuration, with the real pipeline', () => {
  const service = servicePerFile({ realPipeline: true });

  it('PROPORTION_MISMATCH reads as the contract words it', async () => {
    const job = await openJob(service, braceletOf(155, 20));
    const stretched = await proportionFinding(
      await uploadPng(service, job, await designFixture('off-ratio-20pct').png()),
    );
    expect(stretched.message).toMatch(
      /^The drawing's ratio [\d.]+:1 differs from the job's 7\.75:1 by more than 5 %; the pattern was stretched x[\d.]+ along the length\.$/,
    );
    const tooFar = await proportionFinding(await uploadPng(service, job, await designFixture('off-ratio-2x').png()));
    expect(tooFar.message).toMatch(
      /^The drawing's ratio [\d.]+:1 is too far from the job's 7\.75:1 \(it would need a x[\d.]+ stretch; at most x1\.5 is allowed\)\.$/,
    );
    const thin = await proportionFinding(await uploadPng(service, job, thinBarPng()));
    expect(thin.message).toMatch(/^The piece's ratio [\d.]+:1 is outside the allowed 0\.439:1 to 46\.15:1\.$/);
  }, 120_000);
});
