import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { REVISIONS, textOf, type Era } from '../helpers/mcp.ts';
import { connectHttp, listenOn, type Listening } from '../helpers/mcp-http.ts';
import { encodePng } from '../helpers/png.ts';
import { servicePerFile } from '../helpers/service.ts';

/**
 * The whole flow over streamable HTTP at each revision, with the v2 SDK client on a real loopback
 * listener and the real image pipeline: a blank canvas that fails, the `clean-holes` fixture that
 * passes, the person's decline through the handoff route, seen by check_approval. Jobs are named
 * by their `jobHandle` (the only way at 2026-07-28, where there is no session).
 */
const FLOW_TIMEOUT_MS = 120_000;
const service = servicePerFile({ realPipeline: true, clock: new ManualClock(Date.now()) });
let listening: Listening;

beforeAll(async () => {
  listening = await listenOn(service);
});
afterAll(async () => {
  await listening.close();
});

/** An all-white canvas: nothing drawn at all. */
function blankPng(width = 1536, height = 1024): Buffer {
  const row = Buffer.alloc(width + 1, 255);
  row[0] = 0;
  return encodePng(width, height, 0, 8, Buffer.concat(Array.from({ length: height }, () => row)));
}

describe.each(['legacy', 'modern'] as const)('the whole flow over HTTP, %s client', (era: Era) => {
  let client: Client;
  afterAll(async () => {
    await client?.close();
  });

  it(
    `${REVISIONS[era]}: capabilities, open, a failing design and its instructions, a passing one, decline, declined`,
    async () => {
      client = (await connectHttp(listening.base, era)).client;
      expect(client.getProtocolEra()).toBe(era);
      const results: CallToolResult[] = [];
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args }, { timeout: 90_000 });
        expect(result.isError, textOf(result)).toBeFalsy();
        results.push(result);
        return result;
      };

      const capabilities = await call('get_capabilities', {});
      expect(capabilities.structuredContent).toMatchObject({ capabilities: { products: expect.any(Object) } });

      const fixture = designFixture('clean-holes');
      const open = await call('open_job', {
        productType: fixture.job.productType,
        lengthMm: fixture.job.lengthMm,
        widthMm: fixture.job.widthMm,
      });
      const { jobHandle, job } = open.structuredContent as { jobHandle: string; job: { status: string } };
      expect(job.status).toBe('open');
      expect(jobHandle).toMatch(/^[A-Za-z0-9_-]{32}$/);

      // A blank canvas: the real pipeline finds no design, and says what to do about it.
      const failed = await call('submit_design', { jobHandle, pngBase64: blankPng().toString('base64') });
      const failure = failed.structuredContent as {
        status: string;
        errors: { code: string; agent_instruction: string }[];
      };
      expect(failure).toMatchObject({ status: 'failed_validation', valid: false, approval: null });
      const noDesign = failure.errors.find((f) => f.code === 'NO_DESIGN_FOUND');
      expect(noDesign, textOf(failed)).toBeDefined();
      expect(textOf(failed)).toContain(noDesign!.agent_instruction);

      // A clean strip with round holes, as base64: ready, with the approval link and the preview.
      const png = await fixture.png();
      const passed = await call('submit_design', { jobHandle, pngBase64: png.toString('base64') });
      const ready = passed.structuredContent as { status: string; approval: { url: string } };
      expect(ready, textOf(passed)).toMatchObject({ status: 'ready', valid: true, errors: [], submissionNo: 2 });
      expect(passed.content.filter((c) => c.type === 'image')).toHaveLength(1);

      const waiting = await call('check_approval', { jobHandle });
      expect(waiting.structuredContent).toMatchObject({ status: 'ready', approval: { status: 'pending' } });

      // The person declines on the approval page's side.
      const token = ready.approval.url.split('/a/')[1];
      const decline = await service.api(`/handoff/${token}/decline`, { method: 'POST' });
      expect(decline.status, await decline.clone().text()).toBe(200);

      const declined = await call('check_approval', { jobHandle });
      expect(declined.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });
      for (const result of results) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
    },
    FLOW_TIMEOUT_MS,
  );
});
