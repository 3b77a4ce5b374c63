import { createHash } from 'node:crypto';
import sharp from 'sharp';
import packageJson from '../../package.json' with { type: 'json' };
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { severalChangesPng, SEVERAL_CHANGES_JOB } from '../fixtures/pipeline/several-changes.ts';
import { roomyRateLimits } from '../helpers/flows.ts';
import { connectMcp, textOf, type McpTestClient } from '../helpers/mcp.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/**
 * submit_design attaches the findings picture (the same renderer as GET .../findings.png) when
 * the answer has errors or repairs with places, next to a text block that explains each number;
 * a clean design gets the preview only. A real SDK client, the real pipeline.
 */

let service: TestService;
let mcp: McpTestClient;
beforeAll(async () => {
  service = await startService({ config: { limits: roomyRateLimits }, realPipeline: true });
  mcp = await connectMcp(service);
});
afterAll(async () => {
  await mcp.close();
  await service.close();
  removeDir(service.dir);
});

async function submit(png: Buffer): Promise<CallToolResult> {
  const { productType, lengthMm, widthMm } = SEVERAL_CHANGES_JOB;
  const open = await mcp.call('open_job', { productType, lengthMm, widthMm });
  expect(open.isError, textOf(open)).toBeFalsy();
  const { jobHandle } = open.structuredContent as any;
  const result = await mcp.call('submit_design', { jobHandle, pngBase64: png.toString('base64') });
  expect(result.isError, textOf(result)).toBeFalsy();
  return result;
}

const images = (result: CallToolResult) =>
  result.content.filter((c): c is Extract<typeof c, { type: 'image' }> => c.type === 'image');

/** The text block just before the findings picture, and the picture decoded. */
async function findingsPicture(result: CallToolResult) {
  const at = result.content.findIndex((c) => c.type === 'text' && c.text.startsWith('Findings picture'));
  expect(at, 'a findings picture legend').toBeGreaterThan(0);
  const legend = result.content[at] as { type: 'text'; text: string };
  const image = result.content[at + 1] as { type: 'image'; data: string; mimeType: string };
  expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
  const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
  expect(meta.format).toBe('png');
  return { legend: legend.text, width: meta.width };
}

describe('submit_design and the findings picture', () => {
  it('attaches it to a refused design, numbering errors then warnings, with each place in the agent’s pixels', async () => {
    const result = await submit(await severalChangesPng('refused'));
    const out = result.structuredContent as any;
    expect(out.status).toBe('failed_validation');
    expect(images(result)).toHaveLength(1);
    const { legend, width } = await findingsPicture(result);
    expect(width).toBe(1536);
    const numbered = [...out.errors, ...out.warnings];
    numbered.forEach((f: any, i: number) => {
      const px = f.locations[0].px;
      expect(legend).toContain(
        `${i + 1}. ${f.code} (${f.severity}) — ${f.message} — places (pixels in your image): (${px.x}, ${px.y}) r ${px.r}`,
      );
    });
    // The summary numbers the warnings on from the errors, as the picture does.
    expect(textOf(result)).toContain(`${out.errors.length + 1}. ${out.warnings[0].code}:`);
  });

  it('attaches it beside the preview of a ready design the engine repaired', async () => {
    const result = await submit(await severalChangesPng('ready'));
    const out = result.structuredContent as any;
    expect(out.status).toBe('ready');
    expect(images(result)).toHaveLength(2);
    expect(result.content.filter((c) => c.type === 'resource_link')).toHaveLength(2);
    const { legend } = await findingsPicture(result);
    expect(legend).toContain('DRAWN');
    expect(legend).toContain(`1. ${out.warnings[0].code} (warning)`);
  });

  it('attaches only the preview to a clean ready design, and says which engine made it from which bytes', async () => {
    const png = await designFixture('clean-holes').png();
    const result = await submit(png);
    expect((result.structuredContent as any).status).toBe('ready');
    expect((result.structuredContent as any).engine).toMatchObject({
      inputSha256: createHash('sha256').update(png).digest('hex'),
      version: packageJson.version,
    });
    expect(images(result)).toHaveLength(1);
    expect(textOf(result)).not.toContain('Findings picture');
  });
});
