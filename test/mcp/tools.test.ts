import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createdJobSchema } from '../../core/contract/job.ts';
import {
  braceletArgs,
  connectMcp,
  openedPerTest,
  errorEnvelope,
  resourceLinks,
  textOf,
  unionsIn,
  type Era,
  type McpTestClient,
} from '../helpers/mcp.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { servicePerTest, startService } from '../helpers/service.ts';

/**
 * The tools with a real v2 SDK client over an in-memory pair, served as the stdio server serves
 * them: each test runs with a client of each protocol revision (2025-11-25: the initialize
 * handshake and a session; 2026-07-28: no session, jobs named by handles).
 */

// Not the defaults, so the numbers in the descriptions are seen to come from the live configuration.
const config = {
  limits: { ...roomyRateLimits, jobTtlDays: 5, declinedTtlHours: 12 },
};
const braceletRestBody = { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 };

const service = servicePerTest({ config });
/** Clients, and services a test starts beside `service` (closed after its clients). */
const { clients, services: opened } = openedPerTest();

async function connect(era: Era, options: Parameters<typeof connectMcp>[1] = {}, on = service) {
  const client = await connectMcp(on, { era, ...options });
  clients.push(client);
  return client;
}

const png = (seed: number) => makePng({ width: 600, height: 400, seed });
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

async function openJob(client: McpTestClient): Promise<{ jobId: string; jobHandle: string }> {
  const result = await client.call('open_job', braceletArgs);
  expect(result.isError, textOf(result)).toBeFalsy();
  const out = result.structuredContent as any;
  return { jobId: out.job.id, jobHandle: out.jobHandle };
}

/** Every secret-shaped string in everything a tool answered. */
const secretsIn = (result: CallToolResult) => JSON.stringify(result).match(/ajs_[A-Za-z0-9_-]+/g) ?? [];

describe.each(['legacy', 'modern'] as const)('a %s client', (era) => {
  describe('tools/list', () => {
    it('lists the four tools with input and output schemas and all four annotations', async () => {
      const mcp = await connect(era);
      const { tools } = await mcp.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['get_capabilities', 'open_job', 'submit_design', 'check_approval']);
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeGreaterThan(100);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
          'destructiveHint',
          'idempotentHint',
          'openWorldHint',
          'readOnlyHint',
        ]);
        expect(tool.annotations!.destructiveHint).toBe(false);
      }
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.get_capabilities!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.check_approval!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.open_job!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
      expect(Object.keys(byName.check_approval!.outputSchema!.properties!)).toContain('pollIntervalSec');
    });

    it('takes the size in flat fields and names jobs by handle (by id too within a 2025-11-25 session)', async () => {
      const mcp = await connect(era);
      const byName = Object.fromEntries((await mcp.client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      expect(Object.keys(byName.open_job!.properties!)).toEqual([
        'productType',
        'wristMm',
        'fit',
        'usRingSize',
        'lengthMm',
        'widthMm',
        'attribution',
      ]);
      expect(byName.open_job!.required).toEqual(['productType', 'widthMm']);
      const jobFields = era === 'legacy' ? ['jobHandle', 'jobId'] : ['jobHandle'];
      expect(Object.keys(byName.submit_design!.properties!)).toEqual([...jobFields, 'pngBase64', 'svg']);
      expect(Object.keys(byName.check_approval!.properties!)).toEqual(jobFields);
      expect(byName.check_approval!.required ?? []).toEqual(era === 'legacy' ? [] : ['jobHandle']);
    });

    it('lists no union anywhere in any input schema, over either transport', async () => {
      for (const transport of ['http', 'stdio'] as const) {
        const mcp = await connect(era, { transport });
        const { tools } = await mcp.client.listTools();
        for (const tool of tools) expect(unionsIn(tool.inputSchema), `${transport} ${tool.name}`).toEqual([]);
      }
    });

    it('says in each job tool how long a handle lives, in the live configuration’s numbers', async () => {
      const mcp = await connect(era);
      const { tools } = await mcp.client.listTools();
      for (const tool of tools.filter((t) => t.name !== 'get_capabilities')) {
        expect(tool.description, tool.name).toContain('until its job expires: 5 days after open_job');
        expect(tool.description, tool.name).toContain('12 hours after the person declines');
      }
    });

    it('offers a local file path to submit_design over stdio only', async () => {
      const stdio = await connect(era, { transport: 'stdio' });
      const submit = (await stdio.client.listTools()).tools.find((t) => t.name === 'submit_design')!;
      expect(Object.keys(submit.inputSchema.properties!)).toContain('path');
    });

    it('serves the drawing rules, the submission SVG template and the design_jewellery prompt', async () => {
      const mcp = await connect(era);
      const { resources } = await mcp.client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['jewellery://drawing-rules']);
      const { resourceTemplates } = await mcp.client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        expect.objectContaining({
          uriTemplate: 'jewellery://jobs/{jobHandle}/submissions/{submissionNo}/{file}',
          mimeType: 'image/svg+xml',
        }),
      ]);
      const read = await mcp.client.readResource({ uri: 'jewellery://drawing-rules' });
      expect((read.contents[0] as any).text).toContain('Black is metal, white is air');
      const prompt = await mcp.client.getPrompt({ name: 'design_jewellery', arguments: { productType: 'ring' } });
      expect((prompt.messages[0]!.content as any).text).toContain('Hebrew');
    });
  });

  it('answers get_capabilities with the live capabilities and the drawing rules, in text too', async () => {
    const mcp = await connect(era);
    const result = await mcp.call('get_capabilities');
    const structured = result.structuredContent as any;
    expect(structured.capabilities.limits.pollIntervalSec).toBe(30);
    expect(structured.drawingRules.join(' ')).toContain('black');
    expect(textOf(result)).toContain('bracelet: blank length 70-280 mm');
  });

  it('runs the whole flow: opens, fails, passes with links to its SVGs, hands off, sees the decline; never shows the secret', async () => {
    const mcp = await connect(era);
    const results: CallToolResult[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await mcp.call(name, args);
      results.push(result);
      return result;
    };

    const open = await call('open_job', braceletArgs);
    const { job, jobHandle } = open.structuredContent as any;
    expect(job.status).toBe('open');
    expect(jobHandle).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((open.structuredContent as any).drawingHints.join(' ')).toContain(`${job.drawing.stripPx.width} x`);
    expect(textOf(open)).toContain(`Job handle: ${jobHandle}`);
    expect(textOf(open)).toContain(`submit_design with jobHandle "${jobHandle}"`);

    const bad = png(1);
    service.pipeline.script(bad, 'invalid');
    const failed = await call('submit_design', { jobHandle, pngBase64: b64(bad) });
    expect(failed.isError).toBeFalsy();
    const failure = failed.structuredContent as any;
    expect(failure).toMatchObject({ status: 'failed_validation', valid: false, approval: null, submissionsLeft: 9 });
    expect(failure.errors[0]).toMatchObject({ code: 'FEATURES_TOO_FINE', agent_instruction: expect.any(String) });
    expect(textOf(failed)).toContain('Scripted instruction (test stand-in).');
    expect(failed.content.some((c) => c.type === 'image' || c.type === 'resource_link')).toBe(false);

    const passed = await call('submit_design', { jobHandle, pngBase64: b64(png(2)) });
    const ready = passed.structuredContent as any;
    expect(ready).toMatchObject({ status: 'ready', jobId: job.id, jobHandle, submissionNo: 2 });
    expect(ready.approval.url).toMatch(/^http:\/\/localhost:8787\/a\//);
    expect(textOf(passed)).toContain(ready.approval.url);
    expect(textOf(passed)).toContain('Hebrew');
    const images = passed.content.filter((c) => c.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ mimeType: 'image/png' });
    expect(
      Buffer.from((images[0] as any).data, 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');

    const links = resourceLinks(passed);
    expect(links.map((l) => [l.uri, l.mimeType])).toEqual([
      [`jewellery://jobs/${jobHandle}/submissions/2/cutouts.svg`, 'image/svg+xml'],
      [`jewellery://jobs/${jobHandle}/submissions/2/preview.svg`, 'image/svg+xml'],
    ]);
    for (const link of links) {
      const { contents } = await mcp.client.readResource({ uri: link.uri });
      expect(contents).toEqual([{ uri: link.uri, mimeType: 'image/svg+xml', text: expect.stringMatching(/^<svg /) }]);
    }

    const waiting = await call('check_approval', { jobHandle });
    expect(waiting.structuredContent).toMatchObject({
      status: 'ready',
      jobHandle,
      approval: { status: 'pending' },
      pollIntervalSec: 30,
    });
    expect(textOf(waiting)).toContain('at least 30 seconds');
    expect(resourceLinks(waiting).map((l) => l.uri)).toEqual(links.map((l) => l.uri));

    const token = ready.approval.url.split('/a/')[1];
    expect((await service.api(`/handoff/${token}/decline`, { method: 'POST' })).status).toBeLessThan(300);
    const declined = await call('check_approval', { jobHandle });
    expect(declined.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });

    for (const result of results) expect(secretsIn(result)).toEqual([]);
  });

  it('keeps the job secret only encrypted in the database, under the handle it answered', async () => {
    const mcp = await connect(era);
    const { jobId, jobHandle } = await openJob(mcp);
    const { rows } = await service.db.orm.$client.execute({
      sql: 'SELECT * FROM mcp_job_handles WHERE job_id = ?',
      args: [jobId],
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.handle).toBe(jobHandle);
    expect(String(rows[0]!.secret_encrypted)).not.toContain('ajs_');
    expect(rows[0]!.session_key).toBe(era === 'legacy' ? mcp.sessionKey : 'none');
  });

  describe('refusals are tool results that say what to do', () => {
    it('names an unknown field and a wrong type in open_job’s arguments', async () => {
      const mcp = await connect(era);
      const cases: [Record<string, unknown>, string][] = [
        [braceletRestBody, 'Unknown field "size". The size is given in flat fields here. Give the size in exactly one'],
        [{ ...braceletArgs, widthMm: 'twenty' }, 'Field "widthMm" must be a number.'],
        [{ ...braceletArgs, colour: 'gold' }, 'Unknown field "colour".'],
        [{ ...braceletArgs, WidthMm: 20 }, 'Unknown field "WidthMm". Did you mean "widthMm"?'],
        [{ ...braceletArgs, fit: 'tight' }, 'Field "fit" must be one of: "snug", "comfort", "loose".'],
      ];
      for (const [args, message] of cases) {
        const result = await mcp.call('open_job', args);
        expect(result.isError, JSON.stringify(args)).toBe(true);
        expect(errorEnvelope(result).code).toBe('INVALID_REQUEST');
        expect(errorEnvelope(result).message).toContain(message);
        expect(textOf(result)).not.toContain('Input validation error');
      }
    });

    it('wants exactly one size form, and answers a size out of bounds in the flat fields’ words', async () => {
      const mcp = await connect(era);
      const forms = 'Give the size in exactly one of three forms: wristMm';
      const cases: [Record<string, unknown>, string][] = [
        [{ productType: 'bracelet', widthMm: 20 }, `No size given. ${forms}`],
        [{ ...braceletArgs, lengthMm: 170 }, forms],
        [{ productType: 'bracelet', fit: 'snug', lengthMm: 170, widthMm: 20 }, `fit goes with wristMm only. ${forms}`],
        [{ ...braceletArgs, wristMm: 500 }, 'wristMm must be between'],
        [{ productType: 'ring', wristMm: 160, widthMm: 6 }, `wristMm is for bracelets only. ${forms}`],
      ];
      for (const [args, message] of cases) {
        const result = await mcp.call('open_job', args);
        expect(errorEnvelope(result).code, JSON.stringify(args)).toBe('INVALID_REQUEST');
        expect(errorEnvelope(result).message).toContain(message);
        expect(errorEnvelope(result).message).not.toContain('size.');
      }
      const ring = await mcp.call('open_job', { productType: 'ring', usRingSize: 7, widthMm: 6 });
      expect(ring.structuredContent, textOf(ring)).toMatchObject({ job: { productType: 'ring' } });
    });

    it('answers an unknown handle with what to do', async () => {
      const mcp = await connect(era);
      for (const jobHandle of ['A'.repeat(32), 'not a handle']) {
        for (const name of ['check_approval', 'submit_design']) {
          const result = await mcp.call(
            name,
            name === 'submit_design' ? { jobHandle, pngBase64: b64(png(3)) } : { jobHandle },
          );
          expect(result.isError).toBe(true);
          expect(errorEnvelope(result).code).toBe('NOT_FOUND');
          expect(errorEnvelope(result).agent_instruction).toContain('call open_job to open a new job');
          expect(textOf(result)).toContain('Jobs opened over the REST API cannot be used here');
        }
      }
    });

    it('answers bad base64, an empty image and a non-PNG with the contract codes', async () => {
      const mcp = await connect(era);
      const { jobHandle } = await openJob(mcp);
      const cases: [Record<string, unknown>, string][] = [
        [{ jobHandle, pngBase64: '%%% not base64 %%%' }, 'INVALID_REQUEST'],
        [{ jobHandle }, 'INVALID_REQUEST'],
        [{ jobHandle, pngBase64: b64(Buffer.from('GIF89a this is not a png at all, really')) }, 'INVALID_FILE'],
        [{ jobHandle, path: '/etc/hostname' }, 'INVALID_REQUEST'],
        [{ pngBase64: b64(png(4)) }, 'INVALID_REQUEST'],
      ];
      for (const [args, code] of cases) {
        const result = await mcp.call('submit_design', args);
        expect(result.isError, JSON.stringify(args)).toBe(true);
        expect(errorEnvelope(result).code).toBe(code);
        expect(errorEnvelope(result).agent_instruction).toBeTruthy();
      }
    });

    it('applies the REST rate limits to the client address', async () => {
      const limited = await startService({ config: { limits: { jobsPerHourPerIp: 1, submissionsPerHourPerIp: 1 } } });
      opened.push(limited);
      const client = await connect(era, { clientAddress: '198.51.100.7' }, limited);
      const { jobHandle } = await openJob(client);
      const second = await client.call('open_job', braceletArgs);
      expect(errorEnvelope(second)).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
      expect(textOf(second)).toMatch(/Retry no sooner than \d+ seconds/);

      expect((await client.call('submit_design', { jobHandle, pngBase64: b64(png(4)) })).isError).toBeFalsy();
      const upload = await client.call('submit_design', { jobHandle, pngBase64: b64(png(5)) });
      expect(errorEnvelope(upload).code).toBe('RATE_LIMITED');

      const elsewhere = await connect(era, { clientAddress: '198.51.100.8' }, limited);
      expect((await elsewhere.call('open_job', braceletArgs)).isError).toBeFalsy();
    });
  });

  it('reads an absolute local path over stdio and refuses a relative one', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const stdio = await connect(era, { transport: 'stdio' });
    const { jobHandle } = await openJob(stdio);
    const file = join(service.dir, 'design.png');
    writeFileSync(file, png(6));
    const result = await stdio.call('submit_design', { jobHandle, path: file });
    expect(result.structuredContent).toMatchObject({ status: 'ready' });
    const relative = await stdio.call('submit_design', { jobHandle, path: 'design.png' });
    expect(errorEnvelope(relative).code).toBe('INVALID_REQUEST');
  });
});

describe('job ids within a 2025-11-25 session', () => {
  it('still name the session’s own jobs, never another session’s or a REST job', async () => {
    const mcp = await connect('legacy');
    const { jobId, jobHandle } = await openJob(mcp);
    const own = await mcp.call('check_approval', { jobId });
    expect(own.structuredContent).toMatchObject({ jobId, jobHandle, status: 'open' });
    expect((await mcp.call('submit_design', { jobId, pngBase64: b64(png(7)) })).structuredContent).toMatchObject({
      status: 'ready',
    });

    const other = await connect('legacy');
    const result = await other.call('check_approval', { jobId });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`this MCP session did not open job ${jobId}`);
    expect(errorEnvelope(result).agent_instruction).toContain('jobHandle');

    const rest = createdJobSchema.parse(
      await (
        await service.api('/jobs', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(braceletRestBody),
        })
      ).json(),
    );
    expect(errorEnvelope(await mcp.call('check_approval', { jobId: rest.job.id })).code).toBe('NOT_FOUND');
    expect(errorEnvelope(await mcp.call('check_approval', { jobId, jobHandle })).message).toContain('not both');
  });

  it('are not taken without a session: the refusal names the field and says to use the handle', async () => {
    const mcp = await connect('modern');
    const { jobId } = await openJob(mcp);
    const result = await mcp.call('check_approval', { jobId });
    expect(errorEnvelope(result).code).toBe('INVALID_REQUEST');
    expect(errorEnvelope(result).message).toContain('Unknown field "jobId". Name the job by the jobHandle');
  });
});
