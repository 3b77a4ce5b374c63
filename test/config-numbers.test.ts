import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { he } from '../web/strings.ts';
import { designFixture } from './fixtures/pipeline/designs.ts';
import { freePort, startChildService, stopChildService, type ChildService } from './helpers/child-service.ts';
import { jsonInit, openJob, roomyRateLimits, uploadPng } from './helpers/flows.ts';
import { braceletOf, pngInit, proportionFinding, refusal, thinBarPng, uploadsTillFull } from './helpers/limit-words.ts';
import { connectMcp, errorEnvelope, textOf, type McpTestClient } from './helpers/mcp.ts';
import { makePng, pngWithDeclaredSize } from './helpers/png.ts';
import { removeDir, servicePerFile } from './helpers/service.ts';
import { siteClient } from './helpers/site.ts';

/*
 * Every number an agent or a person reads that the configuration can change comes from the live
 * configuration. A CONFIG_FILE moves each such limit off its default; every refusal, tool
 * description, the server's instructions, the prompt, the resource, each finding and page that
 * states the limit shows the new value and none shows the default. At the defaults the words are
 * the contract's, unchanged.
 */

const changed = {
  image: {
    maxBytes: 500_000,
    minShortSidePx: 300,
    maxLongSidePx: 7000,
    maxPixels: 20_000_000,
    cropAspect: { min: 0.5, max: 40 },
    proportion: { keepWithin: 0.04, maxStretch: 1.75 },
    recommendedPixels: { width: 1800, height: 1200 },
  },
  manufacturing: { minOpeningMm: 0.25, minMetalMm: 0.7 },
  limits: { ...roomyRateLimits, submissionsPerJob: 3, pollIntervalSec: 45, jobTtlDays: 5, declinedTtlHours: 12 },
  products: { bracelet: { defaultWidthMm: 22 }, ring: { defaultWidthMm: 7 } },
  svg: { maxBytes: 900_000 },
  site: { minPasswordLength: 10, declineReasonMaxChars: 400 },
};

/** How the defaults read wherever they are stated; none may appear once the configuration moves them. */
const DEFAULT_WORDS = [
  '6,000,000',
  '1536x1024',
  '1536 x 1024',
  '46.15',
  '0.439',
  'at most x1.5 ',
  'more than 5 %',
  'All 10 ',
  ' 10 counted',
  'under 256 pixels',
  'least 256 pixels',
  '8192',
  '24 megapixels',
  'default 20, ring 6',
  'least 0.2 mm',
  'least 0.6 mm',
  '1,000,000 bytes',
  'every 30 seconds',
  '(30 seconds)',
  '7 days',
  '24 hours',
];

const expectNoDefaults = (texts: string[]) => {
  for (const text of texts) {
    expect(
      DEFAULT_WORDS.filter((words) => text.includes(words)),
      text,
    ).toEqual([]);
  }
};

describe('with a CONFIG_FILE that moves every limit an agent reads', () => {
  const service = servicePerFile({ config: changed });
  const clients: McpTestClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  const connect = async () => {
    const client = await connectMcp(service);
    clients.push(client);
    return client;
  };

  it('REST refusals state the configured size, canvas, aspect and submission limits', async () => {
    const texts: string[] = [];
    const seen = async (response: Response) => {
      const answer = await refusal(response);
      texts.push(JSON.stringify(answer));
      return answer;
    };

    const narrow = await seen(await service.api('/jobs', jsonInit(braceletOf(280, 5.5))));
    expect(narrow).toEqual({
      status: 400,
      code: 'WIDTH_OUT_OF_RANGE',
      message: 'widthMm 5.5 is narrower than the minimum 7 mm for a 280 mm blank (blank length / 40).',
      agent_instruction:
        'Send a widthMm inside capabilities.products[productType].widthRangeMm and at least the blank length / 40.',
    });
    const wide = await seen(await service.api('/jobs', jsonInit(braceletOf(155, 90))));
    expect(wide.agent_instruction).toBe(narrow.agent_instruction);

    const job = await openJob(service, braceletOf(155, 20));
    expect(job.body.job.drawing.recommendedPixels).toBe('1800x1200');
    const canvas = 'job.drawing.recommendedPixels (1800x1200).';

    const tooBig = await seen(await service.api(`/jobs/${job.id}/submissions`, pngInit(job, new Uint8Array(500_001))));
    expect(tooBig).toEqual({
      status: 413,
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than 500,000 bytes.',
      agent_instruction:
        'Re-export the PNG smaller: 1800x1200 pixels, flat black on white, 8-bit grey or palette, no alpha. Such a file is far below the limit.',
    });

    const small = await seen(await uploadPng(service, job, pngWithDeclaredSize(1000, 299)));
    expect(small).toEqual({
      status: 400,
      code: 'IMAGE_TOO_SMALL',
      message: 'The image is 1000x299 pixels; its short side must be at least 300 pixels.',
      agent_instruction: `Draw on a larger canvas: use ${canvas}`,
    });
    const long = await seen(await uploadPng(service, job, pngWithDeclaredSize(7001, 1000)));
    expect(long).toEqual({
      status: 400,
      code: 'IMAGE_TOO_LARGE',
      message:
        'The image is 7001x1000 pixels; the long side may be at most 7000 pixels and the image at most 20000000 pixels.',
      agent_instruction: `Draw on a smaller canvas: use ${canvas}`,
    });
    const many = await seen(await uploadPng(service, job, pngWithDeclaredSize(5000, 4500)));
    expect([many.code, many.message]).toEqual([
      'IMAGE_TOO_LARGE',
      'The image is 5000x4500 pixels; the long side may be at most 7000 pixels and the image at most 20000000 pixels.',
    ]);

    const full = await seen(await uploadsTillFull(service, job, 3));
    expect([full.status, full.code, full.message]).toEqual([
      409,
      'TOO_MANY_SUBMISSIONS',
      'All 3 counted submissions of this job are used.',
    ]);
    expectNoDefaults(texts);
  });

  it('MCP instructions, tool descriptions, the prompt and the drawing rules state the configured limits', async () => {
    const mcp = await connect();
    const instructions = mcp.client.getInstructions() ?? '';
    expect(instructions).toContain('check_approval at most every 45 seconds');
    expect(instructions).toContain('5 days after open_job, or 12 hours after the person declines');

    const { tools } = await mcp.client.listTools();
    const tool = (name: string) => tools.find((t) => t.name === name)!;
    const submit = tool('submit_design');
    expect(submit.description).toContain("on the job's 1800x1200 canvas");
    expect(submit.description).toContain("uses one of the job's 3 counted submissions");
    expect(JSON.stringify(submit.inputSchema)).toContain('SVG text (at most 900,000 bytes)');
    const widthMm = (tool('open_job').inputSchema.properties as any).widthMm.description;
    expect(widthMm).toContain('bracelet default 22, ring 7.');
    expect(tool('check_approval').description).toContain('(45 seconds)');

    const prompt = await mcp.client.getPrompt({ name: 'design_jewellery', arguments: {} });
    const promptText = prompt.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    const rules = await mcp.client.readResource({ uri: 'jewellery://drawing-rules' });
    const rulesText = rules.contents.map((c) => ('text' in c ? c.text : '')).join('\n');
    for (const text of [promptText, rulesText]) {
      expect(text).toContain('Produce a PNG, 1800x1200 pixels (landscape), at most 500,000 bytes');
      expect(text).toContain('every opening at least 0.25 mm wide, every bar of metal at least 0.7 mm wide');
      expect(text).toContain('the job takes up to 3 counted submissions');
      expect(text).toContain('check_approval no more often than every 45 seconds');
    }
    expectNoDefaults([instructions, JSON.stringify(tools), promptText, rulesText]);
  });

  it('MCP refusals state the configured size, aspect and submission limits', async () => {
    const mcp = await connect();
    const texts: string[] = [];
    const seen = (result: CallToolResult) => {
      expect(result.isError, textOf(result)).toBe(true);
      texts.push(textOf(result));
      return errorEnvelope(result);
    };

    const narrow = seen(await mcp.call('open_job', { productType: 'bracelet', lengthMm: 280, widthMm: 5.5 }));
    expect(narrow.message).toBe(
      'widthMm 5.5 is narrower than the minimum 7 mm for a 280 mm blank (blank length / 40).',
    );
    expect(narrow.agent_instruction).toMatch(/at least the blank length \/ 40\.$/);

    const opened = await mcp.call('open_job', { productType: 'bracelet', lengthMm: 155, widthMm: 20 });
    const { jobHandle } = opened.structuredContent as { jobHandle: string };
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const tooBig = seen(await mcp.call('submit_design', { jobHandle, pngBase64: b64(new Uint8Array(500_001)) }));
    expect(tooBig).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than 500,000 bytes.',
      agent_instruction:
        'Re-export the PNG smaller: 1800x1200 pixels, flat black on white, 8-bit grey or palette, no alpha. Such a file is far below the limit.',
    });
    const small = seen(await mcp.call('submit_design', { jobHandle, pngBase64: b64(pngWithDeclaredSize(1000, 299)) }));
    expect(small.agent_instruction).toBe('Draw on a larger canvas: use job.drawing.recommendedPixels (1800x1200).');

    for (let seed = 11; seed <= 13; seed++) {
      const png = makePng({ width: 600, height: 400, seed });
      service.pipeline.script(png, 'invalid');
      await mcp.call('submit_design', { jobHandle, pngBase64: b64(png) });
    }
    const full = seen(
      await mcp.call('submit_design', { jobHandle, pngBase64: b64(makePng({ width: 600, seed: 14 })) }),
    );
    expect([full.code, full.message]).toEqual([
      'TOO_MANY_SUBMISSIONS',
      'All 3 counted submissions of this job are used.',
    ]);
    expectNoDefaults(texts);
  });

  it('the OpenAPI document and its page state none of the defaults', async () => {
    const document = await (await service.fetch('/openapi/agent-v1.json')).text();
    expect(document).toContain('500,000');
    const pageResponse = await service.fetch('/docs/api');
    expect(pageResponse.status).toBe(200);
    expectNoDefaults([document, await pageResponse.text()]);
  });

  it('the Hebrew pages state the configured password length and decline reason length', async () => {
    const site = siteClient(service);
    const signUp = await (await site.get('/signup')).text();
    expect(signUp).toContain(he.signUp.passwordHint('10'));
    expect(signUp).not.toContain(he.signUp.passwordHint('8'));
    const { token } = await site.readyJob(braceletOf(155, 20));
    const approval = await (await site.get(`/a/${token}`)).text();
    expect(approval).toContain(he.approval.declineReason.textHint('400'));
    expect(approval).toContain('maxlength="400"');
    expect(approval).not.toContain(he.approval.declineReason.textHint('500'));
  });
});

describe('with the real pipeline under that CONFIG_FILE', () => {
  const service = servicePerFile({ config: changed, realPipeline: true });

  it('PROPORTION_MISMATCH states the configured keep-within share, stretch limit and piece ratio range', async () => {
    const job = await openJob(service, braceletOf(155, 20));
    const stretched = await proportionFinding(
      await uploadPng(service, job, await designFixture('off-ratio-20pct').png()),
    );
    expect(stretched.severity).toBe('warning');
    expect(stretched.message).toMatch(/by more than 4 %; the pattern was stretched x[\d.]+ along the length\.$/);

    const tooFar = await proportionFinding(await uploadPng(service, job, await designFixture('off-ratio-2x').png()));
    expect(tooFar.severity).toBe('error');
    expect(tooFar.message).toMatch(/\(it would need a x[\d.]+ stretch; at most x1\.75 is allowed\)\.$/);

    const thin = await proportionFinding(await uploadPng(service, job, thinBarPng()));
    expect(thin.severity).toBe('error');
    expect(thin.message).toMatch(/^The piece's ratio [\d.]+:1 is outside the allowed 0\.5:1 to 40:1\.$/);
    expectNoDefaults([stretched, tooFar, thin].map((f) => JSON.stringify(f)));
  }, 120_000);

  it('submit_design words the finding the same way', async () => {
    const mcp = await connectMcp(service);
    try {
      const opened = await mcp.call('open_job', { productType: 'bracelet', lengthMm: 155, widthMm: 20 });
      const { jobHandle } = opened.structuredContent as { jobHandle: string };
      const png = await designFixture('off-ratio-2x').png();
      const result = await mcp.call('submit_design', { jobHandle, pngBase64: png.toString('base64') });
      expect(textOf(result)).toMatch(/PROPORTION_MISMATCH: .*at most x1\.75 is allowed\)\./);
      expectNoDefaults([textOf(result)]);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});

describe('the run interface', () => {
  let child: ChildService | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    await stopChildService(child);
    if (dir) removeDir(dir);
  });

  it('server.ts started with CONFIG_FILE states the configured limits in its refusals', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-config-numbers-'));
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify(changed));
    child = await startChildService({
      databaseUrl: `file:${join(dir, 'test.db')}`,
      port: await freePort(),
      env: { CONFIG_FILE: configFile },
    });
    const narrow = await refusal(await child.api('/jobs', jsonInit(braceletOf(280, 5.5))));
    expect(narrow.agent_instruction).toMatch(/at least the blank length \/ 40\.$/);
    const opened: any = await (await child.api('/jobs', jsonInit(braceletOf(155, 20)))).json();
    const job = { id: opened.job.id, secret: opened.credentials.jobSecret, body: opened };
    const tooBig = await refusal(await child.api(`/jobs/${job.id}/submissions`, pngInit(job, new Uint8Array(500_001))));
    expect([tooBig.status, tooBig.message]).toEqual([413, 'The file is larger than 500,000 bytes.']);
    expect(tooBig.agent_instruction).toContain('1800x1200 pixels');
  }, 60_000);
});
