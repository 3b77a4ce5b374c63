import { afterEach, describe, expect, it } from 'vitest';
import { drawingSchema, type Drawing } from '../../core/contract/job.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import {
  braceletArgs,
  connectMcp,
  errorEnvelope,
  resourceLinks,
  textOf,
  type Era,
  type McpTestClient,
} from '../helpers/mcp.ts';
import { servicePerFile } from '../helpers/service.ts';
import { stripWithHoles, svgDocument } from '../helpers/svg-drawings.ts';

/**
 * submit_design with the drawing as SVG text, through a real v2 client of each protocol revision
 * and the real pipeline: the server renders it on the job's canvas (core.drawingFromSvg), and the
 * answer is the same as for the PNG an agent would have drawn.
 */

// Not the default SVG byte limit, so the tool's words are seen to take it from the configuration.
const svgLimits = { maxBytes: 400_000 };
const service = servicePerFile({ config: { limits: roomyRateLimits, svg: svgLimits }, realPipeline: true });
const clients: McpTestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function openJob(era: Era): Promise<{ client: McpTestClient; jobHandle: string; drawing: Drawing }> {
  const client = await connectMcp(service, { era });
  clients.push(client);
  const opened = await client.call('open_job', braceletArgs);
  expect(opened.isError, textOf(opened)).toBeFalsy();
  const out = opened.structuredContent as { jobHandle: string; job: { drawing: unknown } };
  return { client, jobHandle: out.jobHandle, drawing: drawingSchema.parse(out.job.drawing) };
}

describe.each(['legacy', 'modern'] as const)('submit_design with SVG text (%s revision)', (era) => {
  it('lists svg beside pngBase64 with the live byte limit and the canvas', async () => {
    const { client } = await openJob(era);
    const { tools } = await client.client.listTools();
    const submit = tools.find((t) => t.name === 'submit_design')!;
    const svg = (submit.inputSchema.properties as Record<string, { description?: string }>).svg;
    expect(svg?.description).toContain('400,000 bytes');
    expect(svg?.description).toContain('1536x1024');
    expect(submit.description).toContain('SVG text in svg');
  });

  it('renders a strip with safe holes drawn on the hints and answers ready, with the preview and the SVG links', async () => {
    const { client, jobHandle, drawing } = await openJob(era);
    const r = Math.ceil(Math.max(4 * drawing.minOpeningPx, 8));
    const result = await client.call('submit_design', { jobHandle, svg: stripWithHoles(drawing, 12, r) });
    expect(result.isError, textOf(result)).toBeFalsy();
    const out = result.structuredContent as { status: string; submissionNo: number; geometry: { cuts: number } };
    expect(out).toMatchObject({ status: 'ready', submissionNo: 1 });
    expect(out.geometry.cuts).toBe(12);
    expect(result.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);
    expect(resourceLinks(result).map((l) => l.mimeType)).toEqual(['image/svg+xml', 'image/svg+xml']);

    // The same text again is the same PNG: the stored outcome, not another counted submission.
    const again = await client.call('submit_design', { jobHandle, svg: stripWithHoles(drawing, 12, r) });
    expect(again.structuredContent).toMatchObject({ status: 'ready', submissionNo: 1 });
  });

  it('refuses a script inside the SVG as a tool error that names it, and counts nothing', async () => {
    const { client, jobHandle, drawing } = await openJob(era);
    const hostile = svgDocument('<rect width="1536" height="1024"/><script>alert(1)</script>');
    const result = await client.call('submit_design', { jobHandle, svg: hostile });
    expect(result.isError).toBe(true);
    const error = errorEnvelope(result);
    expect(error.code).toBe('INVALID_FILE');
    expect(error.message).toContain('<script>');
    expect(error.agent_instruction).toBeTruthy();
    // Nothing was counted: the next drawing is the job's first submission.
    const next = await client.call('submit_design', { jobHandle, svg: stripWithHoles(drawing, 4, 20) });
    expect(next.structuredContent).toMatchObject({ submissionNo: 1 });
  });

  it('refuses an SVG over the configured byte limit before rendering it', async () => {
    const { client, jobHandle } = await openJob(era);
    const padding = `<desc>${'x'.repeat(svgLimits.maxBytes)}</desc>`;
    const result = await client.call('submit_design', {
      jobHandle,
      svg: svgDocument(`<rect width="10" height="10"/>${padding}`),
    });
    expect(result.isError).toBe(true);
    expect(errorEnvelope(result).code).toBe('FILE_TOO_LARGE');
    expect(errorEnvelope(result).message).toContain('400,000');
  });

  it('asks for exactly one drawing when both pngBase64 and svg are given', async () => {
    const { client, jobHandle, drawing } = await openJob(era);
    const svg = stripWithHoles(drawing, 4, 20);
    const result = await client.call('submit_design', { jobHandle, svg, pngBase64: 'iVBORw0KGgo=' });
    expect(result.isError).toBe(true);
    expect(errorEnvelope(result)).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(errorEnvelope(result).message).toContain('exactly one of pngBase64');
  });
});
