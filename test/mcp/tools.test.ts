import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createdJobSchema } from '../../core/contract/job.ts';
import { braceletArgs, connectMcp, errorEnvelope, textOf, type McpTestClient } from '../helpers/mcp.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

const roomyLimits = { limits: { globalSubmissionsPerMinute: 1000, submissionsPerHourPerIp: 1000 } };

let service: TestService;
let mcp: McpTestClient;
const opened: TestService[] = [];

beforeEach(async () => {
  service = await startService({ config: roomyLimits });
  opened.push(service);
  mcp = await connectMcp(service);
});
afterEach(async () => {
  await mcp.close();
  for (const s of opened.splice(0)) {
    await s.close();
    removeDir(s.dir);
  }
});

const png = (seed: number) => makePng({ width: 600, height: 400, seed });
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

async function openJob(client = mcp): Promise<string> {
  const result = await client.call('open_job', braceletArgs);
  expect(result.isError, textOf(result)).toBeFalsy();
  return (result.structuredContent as any).job.id;
}

/** Every secret-shaped string in everything a tool answered. */
const secretsIn = (result: CallToolResult) => JSON.stringify(result).match(/ajs_[A-Za-z0-9_-]+/g) ?? [];

describe('tools/list', () => {
  it('lists the four tools with input and output schemas and all four annotations', async () => {
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
    expect(byName.open_job!.inputSchema.required).toEqual(['productType', 'size', 'widthMm']);
    expect(Object.keys(byName.submit_design!.inputSchema.properties!)).toEqual(['jobId', 'pngBase64']);
    expect(Object.keys(byName.check_approval!.outputSchema!.properties!)).toContain('pollIntervalSec');
  });

  it('offers a local file path to submit_design over stdio only', async () => {
    const stdio = await connectMcp(service, { transport: 'stdio' });
    const { tools } = await stdio.client.listTools();
    const submit = tools.find((t) => t.name === 'submit_design')!;
    expect(Object.keys(submit.inputSchema.properties!)).toEqual(['jobId', 'pngBase64', 'path']);
    await stdio.close();
  });

  it('serves the drawing rules as a resource and the design_jewellery prompt', async () => {
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['jewellery://drawing-rules']);
    const read = await mcp.client.readResource({ uri: 'jewellery://drawing-rules' });
    expect((read.contents[0] as any).text).toContain('Black is metal, white is air');
    const prompt = await mcp.client.getPrompt({ name: 'design_jewellery', arguments: { productType: 'ring' } });
    expect((prompt.messages[0]!.content as any).text).toContain('Hebrew');
  });
});

describe('get_capabilities', () => {
  it('answers the live capabilities and the drawing rules, in text too', async () => {
    const result = await mcp.call('get_capabilities');
    const structured = result.structuredContent as any;
    expect(structured.capabilities.limits.pollIntervalSec).toBe(30);
    expect(structured.drawingRules.join(' ')).toContain('black');
    expect(textOf(result)).toContain('bracelet: blank length 70-280 mm');
  });
});

describe('the whole flow', () => {
  it('opens, fails, reads instructions, passes, hands off, and sees the decline; never shows the secret', async () => {
    const results: CallToolResult[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await mcp.call(name, args);
      results.push(result);
      return result;
    };

    const open = await call('open_job', braceletArgs);
    const job = (open.structuredContent as any).job;
    expect(job.status).toBe('open');
    expect((open.structuredContent as any).drawingHints.join(' ')).toContain(`${job.drawing.stripPx.width} x`);
    expect(textOf(open)).toContain(job.id);

    const bad = png(1);
    service.pipeline.script(bad, 'invalid');
    const failed = await call('submit_design', { jobId: job.id, pngBase64: b64(bad) });
    expect(failed.isError).toBeFalsy();
    const failure = failed.structuredContent as any;
    expect(failure).toMatchObject({ status: 'failed_validation', valid: false, approval: null, submissionsLeft: 9 });
    expect(failure.errors[0]).toMatchObject({ code: 'FEATURES_TOO_FINE', agent_instruction: expect.any(String) });
    expect(textOf(failed)).toContain('FEATURES_TOO_FINE');
    expect(textOf(failed)).toContain('Scripted instruction (test stand-in).');
    expect(failed.content.some((c) => c.type === 'image')).toBe(false);

    const passed = await call('submit_design', { jobId: job.id, pngBase64: b64(png(2)) });
    const ready = passed.structuredContent as any;
    expect(ready.status).toBe('ready');
    expect(ready.approval.url).toMatch(/^http:\/\/localhost:8787\/a\//);
    expect(ready.approvalNote).toContain('Hebrew');
    expect(textOf(passed)).toContain(ready.approval.url);
    expect(textOf(passed)).toContain('Hebrew');
    const images = passed.content.filter((c) => c.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ mimeType: 'image/png' });
    const bytes = Buffer.from((images[0] as any).data, 'base64');
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(JSON.stringify(passed)).not.toContain('svg+xml');

    const waiting = await call('check_approval', { jobId: job.id });
    expect(waiting.structuredContent).toMatchObject({
      status: 'ready',
      approval: { status: 'pending' },
      pollIntervalSec: 30,
    });
    expect(textOf(waiting)).toContain('at least 30 seconds');

    const token = ready.approval.url.split('/a/')[1];
    expect((await service.api(`/handoff/${token}/decline`, { method: 'POST' })).status).toBeLessThan(300);
    const declined = await call('check_approval', { jobId: job.id });
    expect(declined.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });

    for (const result of results) expect(secretsIn(result)).toEqual([]);
  });

  it('keeps the job secret only encrypted in the database', async () => {
    const jobId = await openJob();
    const { rows } = await service.db.orm.$client.execute({
      sql: 'SELECT * FROM mcp_job_handles WHERE job_id = ?',
      args: [jobId],
    });
    expect(rows).toHaveLength(1);
    expect(String(rows[0]!.handle)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(String(rows[0]!.secret_encrypted)).not.toContain('ajs_');
    expect(rows[0]!.session_key).toBe(mcp.sessionKey);
  });

  it('lets another instance on the same database act for the session', async () => {
    const jobId = await openJob();
    const other = await startService({ dir: service.dir, config: roomyLimits });
    opened.push({ ...other, dir: `${service.dir}-unused` });
    const again = await connectMcp(other, { sessionKey: mcp.sessionKey });
    const result = await again.call('check_approval', { jobId });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ jobId, status: 'open' });
    await again.close();
  });
});

describe('refusals are tool results', () => {
  it('says this session did not open an unknown job', async () => {
    for (const jobId of ['7b0f0a5e-1111-4222-8333-944445555666', 'not-a-uuid']) {
      const result = await mcp.call('check_approval', { jobId });
      expect(result.isError).toBe(true);
      expect(errorEnvelope(result).code).toBe('NOT_FOUND');
      expect(textOf(result)).toContain('this MCP session did not open');
    }
  });

  it('keeps two sessions from seeing each other’s jobs, and jobs opened over REST', async () => {
    const jobId = await openJob();
    const other = await connectMcp(service);
    for (const name of ['check_approval', 'submit_design']) {
      const result = await other.call(name, { jobId, pngBase64: b64(png(3)) });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`this MCP session did not open job ${jobId}`);
    }
    const rest = createdJobSchema.parse(
      await (
        await service.api('/jobs', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(braceletArgs),
        })
      ).json(),
    );
    const viaMcp = await mcp.call('check_approval', { jobId: rest.job.id });
    expect(viaMcp.isError).toBe(true);
    await other.close();
  });

  it('answers bad base64, an empty image and a non-PNG with the contract codes', async () => {
    const jobId = await openJob();
    const cases: [Record<string, unknown>, string][] = [
      [{ jobId, pngBase64: '%%% not base64 %%%' }, 'INVALID_REQUEST'],
      [{ jobId }, 'INVALID_REQUEST'],
      [{ jobId, pngBase64: b64(Buffer.from('GIF89a this is not a png at all, really')) }, 'INVALID_FILE'],
      [{ jobId, path: '/etc/hostname' }, 'INVALID_REQUEST'],
    ];
    for (const [args, code] of cases) {
      const result = await mcp.call('submit_design', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(errorEnvelope(result).code).toBe(code);
      expect(errorEnvelope(result).agent_instruction).toBeTruthy();
    }
  });

  it('refuses a size outside its bounds with the contract message', async () => {
    const result = await mcp.call('open_job', { ...braceletArgs, size: { wristMm: 500 } });
    expect(result.isError).toBe(true);
    expect(errorEnvelope(result).code).toBe('INVALID_REQUEST');
  });

  it('applies the REST rate limits to the session client address', async () => {
    const limited = await startService({ config: { limits: { jobsPerHourPerIp: 1, submissionsPerHourPerIp: 1 } } });
    opened.push(limited);
    const client = await connectMcp(limited, { clientAddress: '198.51.100.7' });
    const jobId = await openJob(client);
    const second = await client.call('open_job', braceletArgs);
    expect(second.isError).toBe(true);
    expect(errorEnvelope(second)).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    expect(textOf(second)).toMatch(/Retry no sooner than \d+ seconds/);

    expect((await client.call('submit_design', { jobId, pngBase64: b64(png(4)) })).isError).toBeFalsy();
    const upload = await client.call('submit_design', { jobId, pngBase64: b64(png(5)) });
    expect(errorEnvelope(upload).code).toBe('RATE_LIMITED');

    const elsewhere = await connectMcp(limited, { clientAddress: '198.51.100.8' });
    expect((await elsewhere.call('open_job', braceletArgs)).isError).toBeFalsy();
    await Promise.all([client.close(), elsewhere.close()]);
  });
});

describe('stdio file paths', () => {
  it('reads an absolute local path over stdio and refuses a relative one', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const stdio = await connectMcp(service, { transport: 'stdio' });
    const jobId = await openJob(stdio);
    const file = join(service.dir, 'design.png');
    writeFileSync(file, png(6));
    const result = await stdio.call('submit_design', { jobId, path: file });
    expect(result.structuredContent).toMatchObject({ status: 'ready' });
    const relative = await stdio.call('submit_design', { jobId, path: 'design.png' });
    expect(errorEnvelope(relative).code).toBe('INVALID_REQUEST');
    await stdio.close();
  });
});
