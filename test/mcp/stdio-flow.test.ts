import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { textOf } from '../helpers/mcp.ts';
import { encodePng } from '../helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from '../helpers/service.ts';

/**
 * The whole flow over stdio against the real server process (`node bin/jewellery-mcp.js`) and the
 * real image pipeline, with the people's side (the handoff decline) served by an in-process app
 * on the same database file.
 */
const launcher = fileURLToPath(new URL('../../bin/jewellery-mcp.js', import.meta.url));
const FLOW_TIMEOUT_MS = 90_000;

let dir: string;
let client: Client;
let stderr = '';
let service: TestService | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-flow-'));
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [launcher],
    // test.db: the file startService({ dir }) opens, so the in-process app shares the database.
    env: { ...env, DATABASE_URL: `file:${join(dir, 'test.db')}`, SITE_URL: SITE },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  client = new Client({ name: 'vitest-stdio-flow', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await service?.close();
  if (dir) removeDir(dir);
});

/** An all-white canvas: nothing drawn at all. */
function blankPng(width = 1536, height = 1024): Buffer {
  const row = Buffer.alloc(width + 1, 255);
  row[0] = 0;
  return encodePng(width, height, 0, 8, Buffer.concat(Array.from({ length: height }, () => row)));
}

describe('stdio server process, real pipeline: the whole flow', () => {
  it(
    'opens, fails, reads the instructions, passes, hands off, and sees the decline; never shows the secret',
    async () => {
      const results: CallToolResult[] = [];
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args }, { timeout: 60_000 });
        results.push(result);
        return result;
      };
      const started = Date.now();

      const fixture = designFixture('clean-holes');
      const open = await call('open_job', {
        productType: fixture.job.productType,
        size: { lengthMm: fixture.job.lengthMm },
        widthMm: fixture.job.widthMm,
      });
      expect(open.isError, textOf(open)).toBeFalsy();
      const job = (open.structuredContent as any).job;
      expect(job.status).toBe('open');

      // A blank canvas: the real pipeline finds no design, and says what to do about it.
      const failed = await call('submit_design', { jobId: job.id, pngBase64: blankPng().toString('base64') });
      expect(failed.isError, `${textOf(failed)}\n${stderr}`).toBeFalsy();
      const failure = failed.structuredContent as any;
      expect(failure).toMatchObject({ status: 'failed_validation', valid: false, approval: null });
      const noDesign = failure.errors.find((f: { code: string }) => f.code === 'NO_DESIGN_FOUND');
      expect(noDesign, textOf(failed)).toBeDefined();
      expect(noDesign.agent_instruction.length).toBeGreaterThan(20);
      expect(textOf(failed)).toContain('NO_DESIGN_FOUND');
      expect(textOf(failed)).toContain(noDesign.agent_instruction);
      expect(failed.content.some((c) => c.type === 'image')).toBe(false);

      // A clean strip with round holes, given as a local file path (stdio only).
      const png = await fixture.png();
      const file = join(dir, 'clean-holes.png');
      writeFileSync(file, png);
      const passed = await call('submit_design', { jobId: job.id, path: file });
      expect(passed.isError, `${textOf(passed)}\n${stderr}`).toBeFalsy();
      const ready = passed.structuredContent as any;
      expect(ready, textOf(passed)).toMatchObject({ status: 'ready', valid: true, errors: [], submissionNo: 2 });
      expect(ready.approval.url).toMatch(new RegExp(`^${SITE}/a/[A-Za-z0-9_-]+$`));
      expect(ready.approvalNote).toContain('Hebrew');
      expect(textOf(passed)).toContain(ready.approval.url);
      const images = passed.content.filter((c) => c.type === 'image');
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ mimeType: 'image/png' });
      expect(
        Buffer.from((images[0] as any).data, 'base64')
          .subarray(1, 4)
          .toString('latin1'),
      ).toBe('PNG');
      expect(JSON.stringify(passed)).not.toContain('svg+xml');

      // The same bytes as base64: the stored outcome, no new submission.
      const again = await call('submit_design', { jobId: job.id, pngBase64: png.toString('base64') });
      expect(again.structuredContent, textOf(again)).toMatchObject({
        status: 'ready',
        submissionNo: 2,
        approval: { url: ready.approval.url },
      });

      const waiting = await call('check_approval', { jobId: job.id });
      expect(waiting.structuredContent).toMatchObject({ status: 'ready', approval: { status: 'pending' } });

      // The person declines on the approval page's side: the service's HTTP app on the same database.
      service = await startService({ dir, clock: new ManualClock(Date.now()) });
      const token = ready.approval.url.split('/a/')[1];
      const decline = await service.api(`/handoff/${token}/decline`, { method: 'POST' });
      expect(decline.status, await decline.clone().text()).toBe(200);
      expect(await decline.json()).toEqual({ ok: true, status: 'declined' });

      const declined = await call('check_approval', { jobId: job.id });
      expect(declined.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });

      for (const result of results) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
      expect(stderr).not.toMatch(/ajs_/);
      expect(Date.now() - started).toBeLessThan(FLOW_TIMEOUT_MS);
    },
    FLOW_TIMEOUT_MS + 10_000,
  );
});
